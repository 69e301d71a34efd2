/**
 * The gRPC side of the four rule preview calls (grpc-facts.md, copied in test/grpc/): the method table, the
 * `.proto` subset under `schemas/proto/` (loaded at run time from its generated JSON descriptor,
 * lazily: nothing here loads protobufjs until {@link protoRegistry} is first called), and a
 * STRICT mapping between the
 * protojson form dqform already speaks (lowerCamelCase keys, enums as names or numbers) and
 * protobuf messages.
 *
 * Why a mapping of our own: protobufjs' `fromObject` (what `@grpc/proto-loader`'s serializers
 * call) silently drops keys it does not know and enum names it cannot resolve. A rule field
 * dqform models but the `.proto` subset lacks would vanish from the preview request without a
 * trace. {@link ProtoRegistry.toProto} refuses instead ({@link ProtoShapeError}, naming the field
 * path), so a drift between dqform's shapes and the wire shows up as an error, never as a wrong
 * preview. Reads are tolerant the proto3 way: unknown fields are skipped by the decoder, enum
 * numbers the subset does not name stay numbers.
 *
 * Client and emulator both use this module (the design's "schemas <- client" and "emulator ->
 * schemas" directions).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as Protobuf from 'protobufjs';
import { DqformError } from '../tools/errors';

/** The first word of every package name; the real service uses its brand word (grpc-facts "Names"). */
export const DEFAULT_GRPC_PACKAGE = 'platform';

/** The `.proto` files of the subset, relative to {@link protoDir}. */
export const PROTO_FILES = [
  'platform/monitors/automated_monitors/v1/deployment_rules.proto',
  'platform/datachecks/sqltests/v1/deployment_rules.proto',
  'google/rpc/status.proto',
  'google/rpc/error_details.proto',
  'buf/validate/violations.proto',
] as const;

/**
 * The subset as a protobufjs JSON descriptor, in {@link protoDir}: what {@link protoRegistry} loads
 * (`npm run proto`, tools/proto-descriptor.ts, writes it from {@link PROTO_FILES}).
 */
export const DESCRIPTOR_FILE = 'subset.generated.json';

/** The name of a preview method. */
export type PreviewMethodName = 'GetDeployOverview' | 'GetDeployDeleteOverview' | 'GetSqlTestDeployOverview' | 'GetSqlTestDeployDeleteOverview';

/** One unary preview call (grpc-facts.md section 1). Names are neutral: `platform.` is the default prefix. */
export interface PreviewMethod {
  name: PreviewMethodName;
  /** Service without the package prefix's first word, e.g. `monitors.automated_monitors.v1.DeploymentRulesService`. */
  service: string;
  /** Request and response message types (full names in the subset, always under `platform.`). */
  requestType: string;
  responseType: string;
  /** The REST twin (wire-facts sections 4 and 6), for messages. */
  restTwin: string;
  /** Any one of these scopes is enough. */
  scopes: readonly string[];
}

const MON = 'monitors.automated_monitors.v1';
const SQL = 'datachecks.sqltests.v1';
const MON_SCOPES = ['SCOPE_MONITORS_AUTOMATIC_EDIT', 'SCOPE_MCP_READ'] as const;
const SQL_SCOPES = ['SCOPE_DATACHECKS_SQLTESTS_READ', 'SCOPE_MCP_READ'] as const;

/** The four preview methods. All are unary and NO_SIDE_EFFECTS (safe to retry). */
export const PREVIEW_METHODS: Readonly<Record<PreviewMethodName, PreviewMethod>> = {
  GetDeployOverview: {
    name: 'GetDeployOverview',
    service: `${MON}.DeploymentRulesService`,
    requestType: `platform.${MON}.GetDeployOverviewRequest`,
    responseType: `platform.${MON}.GetDeployOverviewResponse`,
    restTwin: 'GET /api/monitors/automated/v1/deployment-rule',
    scopes: MON_SCOPES,
  },
  GetDeployDeleteOverview: {
    name: 'GetDeployDeleteOverview',
    service: `${MON}.DeploymentRulesService`,
    requestType: `platform.${MON}.GetDeployDeleteOverviewRequest`,
    responseType: `platform.${MON}.GetDeployDeleteOverviewResponse`,
    restTwin: 'GET /api/monitors/automated/v1/deployment-rule/{id}/deleted',
    scopes: MON_SCOPES,
  },
  GetSqlTestDeployOverview: {
    name: 'GetSqlTestDeployOverview',
    service: `${SQL}.SqlTestsDeploymentRulesService`,
    requestType: `platform.${SQL}.GetSqlTestDeployOverviewRequest`,
    responseType: `platform.${SQL}.GetSqlTestDeployOverviewResponse`,
    restTwin: 'GET /api/datachecks/sql-test-deployment-rules/v1/overview',
    scopes: SQL_SCOPES,
  },
  GetSqlTestDeployDeleteOverview: {
    name: 'GetSqlTestDeployDeleteOverview',
    service: `${SQL}.SqlTestsDeploymentRulesService`,
    requestType: `platform.${SQL}.GetSqlTestDeployDeleteOverviewRequest`,
    responseType: `platform.${SQL}.GetSqlTestDeployDeleteOverviewResponse`,
    restTwin: 'GET /api/datachecks/sql-test-deployment-rules/v1/{id}/deleted',
    scopes: SQL_SCOPES,
  },
};

/** The method path on the wire: `/<prefix>.<service>/<method>` (grpc-facts section 0). */
export function methodPath(prefix: string, m: PreviewMethod): string {
  return `/${prefix}.${m.service}/${m.name}`;
}

/** Why `prefix` cannot be a package prefix (dotted identifiers), or undefined when it can. */
export function packagePrefixProblem(prefix: string): string | undefined {
  return /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(prefix)
    ? undefined
    : `"${prefix}" is not a protobuf package prefix (dotted identifiers, e.g. "platform")`;
}

/** The directory holding the `.proto` subset: `schemas/proto` from the sources (`schemas/platform`), from `dist/schemas/platform` and from the bundle (`dist/bundle`). */
export function protoDir(): string {
  const marker = path.join('platform', 'v1', 'source.proto');
  const candidates = [path.join(__dirname, '..', 'proto'), path.join(__dirname, '..', '..', '..', 'schemas', 'proto'), path.join(__dirname, '..', '..', 'schemas', 'proto')];
  for (const c of candidates) if (fs.existsSync(path.join(c, marker))) return c;
  throw new Error(`the gRPC .proto subset is missing (looked in ${candidates.join(', ')}); reinstall dqform`);
}

/** A value dqform cannot put into (or read from) a protobuf message; `path` names the field. */
export class ProtoShapeError extends DqformError {
  static override readonly code: string = 'proto-shape';
  override readonly name = 'ProtoShapeError';
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`${path || '(message)'}: ${problem}`);
  }
}

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

/** Options proto-loader and {@link ProtoRegistry.decode} use for reads: camelCase keys, enums and 64-bit integers as numbers. */
export const READ_OPTIONS = { keepCase: false, longs: Number, defaults: false, arrays: true, objects: false, oneofs: false } as const;

/** The loaded subset. */
export interface ProtoRegistry {
  /** The protobufjs root (field names in lowerCamelCase, i.e. protojson names). */
  readonly root: Protobuf.Root;
  /** Milliseconds it took to load the subset (first call only). */
  readonly loadMs: number;
  /** A message type by full name, e.g. `platform.monitors.automated_monitors.v1.QueryConfig`. */
  type(name: string): Protobuf.Type;
  /**
   * Protojson (`{ deploymentRule: { queryConfig: { severity: 'SEVERITY_ERROR' } } }`) to the
   * plain object protobufjs encodes, strictly: every key must be a field of the message, enum
   * names must exist (numbers pass as they are: open enums), a oneof takes one member, proto3
   * default values of fields without presence are left out. `null`/`undefined` mean absent.
   * @throws ProtoShapeError naming the field path.
   */
  toProto(typeName: string, json: unknown): JsonObject;
  /** {@link toProto}, then the binary encoding. */
  encode(typeName: string, json: unknown): Buffer;
  /** Binary to protojson with {@link READ_OPTIONS} (unknown fields skipped, unknown enum numbers kept). */
  decode(typeName: string, bytes: Uint8Array): JsonObject;
}

let registry: ProtoRegistry | undefined;

/** In the CLI's bundle only (tools/bundle.ts defines it): the file beside it that carries protobufjs' light build. */
declare const __DQFORM_GRPC_BUNDLE__: string | undefined;

/**
 * protobufjs, the parser under `@grpc/proto-loader`, resolved from proto-loader's own location
 * so that it is the very copy proto-loader uses, hoisted or not. `light`: its build without the
 * `.proto` parser (what the run time needs to load a JSON descriptor); the same classes. In the
 * CLI's bundle, the light build is the one bundled with grpc-js (in the V8 code cache).
 */
export function loadProtobufjs(build: 'full' | 'light' = 'full'): typeof Protobuf {
  if (build === 'light' && typeof __DQFORM_GRPC_BUNDLE__ === 'string') return (require(__DQFORM_GRPC_BUNDLE__) as { protobufLight: () => typeof Protobuf }).protobufLight();
  const loaderDir = path.dirname(require.resolve('@grpc/proto-loader/package.json'));
  return require(require.resolve(build === 'light' ? 'protobufjs/light' : 'protobufjs', { paths: [loaderDir] })) as typeof Protobuf;
}

/** The subset, loaded once per process on first use (from {@link DESCRIPTOR_FILE}: no `.proto` text is parsed). */
export function protoRegistry(): ProtoRegistry {
  if (registry) return registry;
  // not performance.now(): the global's first read loads perf_hooks (~2 ms of the first gRPC preview)
  const started = process.hrtime.bigint();
  const pb = loadProtobufjs('light');
  const file = path.join(protoDir(), DESCRIPTOR_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    // the .proto files are there (protoDir's marker), their descriptor not: say which file and what to do
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    throw new Error(`the gRPC descriptor ${file} is missing; reinstall dqform (in a checkout of dqform: npm run proto)`);
  }
  const descriptor = JSON.parse(text) as { nested: Protobuf.INamespace['nested'] };
  const root = pb.Root.fromJSON({ nested: descriptor.nested });
  root.resolveAll();
  const types = new Map<string, Protobuf.Type>();
  const type = (name: string): Protobuf.Type => {
    let t = types.get(name);
    if (!t) {
      t = root.lookupType(name);
      types.set(name, t);
    }
    return t;
  };
  const toProto = (typeName: string, json: unknown): JsonObject => messageToProto(pb, type(typeName), json, '');
  registry = {
    root,
    loadMs: Number(process.hrtime.bigint() - started) / 1e6,
    type,
    toProto,
    encode: (typeName, json) => {
      const t = type(typeName);
      return Buffer.from(t.encode(t.fromObject(toProto(typeName, json))).finish());
    },
    decode: (typeName, bytes) => {
      const t = type(typeName);
      return t.toObject(t.decode(bytes), READ_OPTIONS) as JsonObject;
    },
  };
  return registry;
}

// ---------------------------------------------------------------------------------------------
// protojson -> protobufjs object (strict)

function messageToProto(pb: typeof Protobuf, t: Protobuf.Type, json: unknown, at: string): JsonObject {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new ProtoShapeError(at, `expected a ${t.name} message (an object), got ${describe(json)}`);
  const out: JsonObject = {};
  const oneofSet = new Map<string, string>();
  for (const [key, value] of Object.entries(json as JsonObject)) {
    const here = at ? `${at}.${key}` : key;
    const field = t.fields[key];
    if (!field) {
      const known = Object.keys(t.fields).sort().join(', ');
      throw new ProtoShapeError(here, `${t.name} has no field "${key}" in dqform's gRPC subset (fields: ${known || 'none'})`);
    }
    if (value === undefined || value === null) continue;
    const group = field.partOf;
    if (group && !isSyntheticOneof(group)) {
      const other = oneofSet.get(group.name);
      if (other) throw new ProtoShapeError(here, `oneof ${group.name} of ${t.name} takes one member; got ${other} and ${key}`);
      oneofSet.set(group.name, key);
    }
    const converted =
      field instanceof pb.MapField ? mapToProto(field, value, here) : field.repeated ? repeatedToProto(pb, field, value, here) : singularToProto(pb, field, value, here);
    if (converted === undefined) continue;
    if (!field.repeated && !hasPresence(pb, field) && isProto3Default(converted)) continue;
    out[key] = converted;
  }
  return out;
}

function repeatedToProto(pb: typeof Protobuf, field: Protobuf.Field, value: unknown, at: string): unknown[] | undefined {
  if (!Array.isArray(value)) throw new ProtoShapeError(at, `expected a list, got ${describe(value)}`);
  if (value.length === 0) return undefined;
  return value.map((v, i) => {
    if (v === null || v === undefined) throw new ProtoShapeError(`${at}[${i}]`, 'a list item cannot be null');
    return singularToProto(pb, field, v, `${at}[${i}]`);
  });
}

function mapToProto(field: Protobuf.MapField, value: unknown, at: string): JsonObject | undefined {
  if (field.keyType !== 'string' || field.type !== 'string') throw new ProtoShapeError(at, 'only map<string, string> is supported');
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ProtoShapeError(at, `expected an object, got ${describe(value)}`);
  const entries = Object.entries(value as JsonObject);
  for (const [k, v] of entries) if (typeof v !== 'string') throw new ProtoShapeError(`${at}.${k}`, `expected a string, got ${describe(v)}`);
  return entries.length ? (value as JsonObject) : undefined;
}

function singularToProto(pb: typeof Protobuf, field: Protobuf.Field, value: unknown, at: string): unknown {
  const rt = field.resolvedType;
  if (rt instanceof pb.Type) return messageToProto(pb, rt, value, at);
  if (rt instanceof pb.Enum) return enumToProto(rt, value, at);
  return scalarToProto(field.type, value, at);
}

function enumToProto(e: Protobuf.Enum, value: unknown, at: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= -2147483648 && value <= 2147483647) return value;
  if (typeof value === 'string') {
    const n = e.values[value];
    if (n !== undefined) return n;
    if (/^-?\d+$/.test(value)) return Number(value);
    throw new ProtoShapeError(at, `${JSON.stringify(value)} is not a value of enum ${e.name} (${Object.keys(e.values).join(', ')})`);
  }
  throw new ProtoShapeError(at, `expected an ${e.name} name or number, got ${describe(value)}`);
}

const INT32 = new Set(['int32', 'sint32', 'sfixed32']);
const INT64 = new Set(['int64', 'sint64', 'sfixed64', 'uint64', 'fixed64', 'uint32', 'fixed32']);

function scalarToProto(type: string, value: unknown, at: string): unknown {
  if (type === 'string') {
    if (typeof value !== 'string') throw new ProtoShapeError(at, `expected a string, got ${describe(value)}`);
    return value;
  }
  if (type === 'bool') {
    if (typeof value !== 'boolean') throw new ProtoShapeError(at, `expected true or false, got ${describe(value)}`);
    return value;
  }
  if (INT32.has(type) || INT64.has(type)) {
    const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw new ProtoShapeError(at, `expected an integer (${type}), got ${describe(value)}`);
    if (INT32.has(type) && (n < -2147483648 || n > 2147483647)) throw new ProtoShapeError(at, `${n} does not fit ${type}`);
    if (type.startsWith('u') || type.startsWith('fixed')) {
      if (n < 0) throw new ProtoShapeError(at, `${type} cannot be negative`);
    }
    return n;
  }
  if (type === 'bytes') {
    if (!(value instanceof Uint8Array)) throw new ProtoShapeError(at, `expected bytes, got ${describe(value)}`);
    return value;
  }
  if (type === 'double' || type === 'float') {
    if (typeof value !== 'number') throw new ProtoShapeError(at, `expected a number, got ${describe(value)}`);
    return value;
  }
  throw new ProtoShapeError(at, `field type ${type} is not used by the preview calls`);
}

/** proto3 `optional` fields are a oneof of one member named `_<field>`. */
function isSyntheticOneof(o: Protobuf.OneOf): boolean {
  return o.fieldsArray.length === 1 && o.name === `_${o.fieldsArray[0].name}`;
}

/** Fields whose presence is encoded: messages, oneof members and proto3 `optional`. */
function hasPresence(pb: typeof Protobuf, field: Protobuf.Field): boolean {
  return field.partOf !== null || field.resolvedType instanceof pb.Type;
}

function isProto3Default(v: unknown): boolean {
  return v === 0 || v === false || v === '';
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${JSON.stringify(v)}`.slice(0, 60);
}

// ---------------------------------------------------------------------------------------------
// Rich error status: google.rpc.Status in the `grpc-status-details-bin` trailer

/** The metadata key of the binary google.rpc.Status trailer. */
export const STATUS_DETAILS_KEY = 'grpc-status-details-bin';

const TYPE_PREFIX = 'type.googleapis.com/';
const DETAIL_TYPES: Record<string, string> = {
  'google.rpc.ErrorInfo': 'google.rpc.ErrorInfo',
  'google.rpc.RetryInfo': 'google.rpc.RetryInfo',
  'google.rpc.RequestInfo': 'google.rpc.RequestInfo',
  'buf.validate.Violations': 'buf.validate.Violations',
};

/** A status detail in its protojson form (`@type` plus fields), as REST bodies carry it. */
export type JsonStatusDetail = { '@type': string } & JsonObject;

/** A google.rpc.Status in protojson form. */
export interface JsonStatus {
  code: number;
  message: string;
  details: JsonStatusDetail[];
}

/** `"1.5s"` -> `{ seconds: 1, nanos: 500000000 }`; undefined when not a protojson Duration. */
function durationToProto(v: unknown): JsonObject | undefined {
  const m = typeof v === 'string' ? /^(\d+)(?:\.(\d{1,9}))?s$/.exec(v.trim()) : null;
  if (!m) return undefined;
  return { seconds: Number(m[1]), nanos: m[2] ? Number(m[2].padEnd(9, '0')) : 0 };
}

function durationFromProto(v: unknown): string | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const d = v as { seconds?: number; nanos?: number };
  const s = Number(d.seconds ?? 0);
  const n = Number(d.nanos ?? 0);
  return n ? `${s}.${String(n).padStart(9, '0').replace(/0+$/, '')}s` : `${s}s`;
}

/** `a.b[0].c` -> FieldPath elements; `["a", {b, 0}, "c"]`. */
function fieldPathToProto(field: string): JsonObject {
  const elements: JsonObject[] = [];
  for (const part of field.split('.')) {
    const m = /^([^[\]]*)((?:\[[^\]]*\])*)$/.exec(part);
    if (!m) {
      elements.push({ fieldName: part });
      continue;
    }
    const subs = [...m[2].matchAll(/\[([^\]]*)\]/g)].map((x) => x[1]);
    if (subs.length === 0) elements.push({ fieldName: m[1] });
    subs.forEach((sub, i) => {
      const el: JsonObject = i === 0 ? { fieldName: m[1] } : { fieldName: '' };
      if (/^\d+$/.test(sub)) el.index = Number(sub);
      else el.stringKey = sub.replace(/^"|"$/g, '');
      elements.push(el);
    });
  }
  return { elements };
}

function fieldPathFromProto(v: unknown): string | undefined {
  const els = (v as { elements?: { fieldName?: string; index?: number; stringKey?: string; intKey?: number; uintKey?: number; boolKey?: boolean }[] } | undefined)?.elements;
  if (!els || els.length === 0) return undefined;
  let out = '';
  for (const e of els) {
    if (e.fieldName) out += out ? `.${e.fieldName}` : e.fieldName;
    if (e.index !== undefined) out += `[${e.index}]`;
    else if (e.stringKey !== undefined) out += `["${e.stringKey}"]`;
    else if (e.intKey !== undefined) out += `[${e.intKey}]`;
    else if (e.uintKey !== undefined) out += `[${e.uintKey}]`;
    else if (e.boolKey !== undefined) out += `[${e.boolKey}]`;
  }
  return out;
}

/** Encodes a protojson status (with ErrorInfo, RetryInfo, RequestInfo, Violations details) for the trailer; other detail types are left out. */
export function encodeStatus(status: JsonStatus): Buffer {
  const reg = protoRegistry();
  const details: JsonObject[] = [];
  for (const d of status.details) {
    const typeName = DETAIL_TYPES[d['@type'].replace(TYPE_PREFIX, '')];
    if (!typeName) continue;
    const { '@type': _t, ...fields } = d;
    let body: JsonObject = fields;
    if (typeName === 'google.rpc.ErrorInfo') body = pick(fields, ['reason', 'domain', 'metadata']);
    if (typeName === 'google.rpc.RequestInfo') body = pick(fields, ['requestId', 'servingData']);
    if (typeName === 'google.rpc.RetryInfo') body = { retryDelay: durationToProto(fields.retryDelay) };
    if (typeName === 'buf.validate.Violations') {
      const vs = Array.isArray(fields.violations) ? (fields.violations as JsonObject[]) : [];
      body = { violations: vs.map((v) => ({ ruleId: v.ruleId, message: v.message, field: typeof v.field === 'string' && v.field ? fieldPathToProto(v.field) : undefined })) };
    }
    // google.protobuf.Any comes from protobufjs' bundled definitions, which keep snake_case names.
    details.push({ type_url: `${TYPE_PREFIX}${typeName}`, value: reg.encode(typeName, body) });
  }
  return reg.encode('google.rpc.Status', { code: status.code, message: status.message, details });
}

/** Decodes the trailer into protojson form; unknown detail types keep only their `@type`. */
export function decodeStatus(bytes: Uint8Array): JsonStatus {
  const reg = protoRegistry();
  const raw = reg.decode('google.rpc.Status', bytes) as { code?: number; message?: string; details?: { type_url?: string; value?: Uint8Array }[] };
  const details: JsonStatusDetail[] = [];
  for (const any of raw.details ?? []) {
    const url = any.type_url ?? '';
    const typeName = DETAIL_TYPES[url.slice(url.lastIndexOf('/') + 1)];
    if (!typeName || !any.value) {
      details.push({ '@type': url });
      continue;
    }
    const body = reg.decode(typeName, any.value);
    if (typeName === 'google.rpc.RetryInfo') details.push({ '@type': url, retryDelay: durationFromProto(body.retryDelay) });
    else if (typeName === 'buf.validate.Violations') {
      const vs = ((body.violations as JsonObject[] | undefined) ?? []).map((v) => {
        const field = fieldPathFromProto(v.field) ?? (typeof v.fieldPath === 'string' && v.fieldPath ? v.fieldPath : undefined);
        return { ...(field !== undefined ? { field } : {}), ...(v.ruleId !== undefined ? { ruleId: v.ruleId } : {}), ...(v.message !== undefined ? { message: v.message } : {}) };
      });
      details.push({ '@type': url, violations: vs });
    } else details.push({ '@type': url, ...body });
  }
  return { code: raw.code ?? 0, message: raw.message ?? '', details };
}

function pick(o: JsonObject, keys: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}
