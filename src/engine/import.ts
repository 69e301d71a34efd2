/**
 * What `dqform import --namespace NS --out FILE [--format ts|yaml] [--adopt]` writes (the CLI,
 * src/cli/commands/import.ts, parses the options and writes the file): construct code (a
 * `main.ts` with DqStack and the L2 constructs) or a `dqform.yaml` for the live objects, such
 * that a plan of the output against live shows no changes. Driven by the kinds: each kind's
 * `read` or `listAll` lists the live objects, its import rendering (src/kinds/import.ts) renders them.
 *
 * What is imported: the namespace's objects of every kind, and nothing of another namespace's.
 * - alerts, monitor deployment rules, SQL tests and SQL-test deployment rules with
 *   `configId == NS`; SQL tests deployed by a rule are skipped (their rule manages them);
 * - domains, data products, owners and ownerships whose id carries the namespace tag of
 *   (workspace, NS) (src/engine/identity.ts); ownerships are found by listing the ownerships of
 *   every owner of the workspace (one request per owner: import is a one-off);
 * - with `adopt`, also objects made in the UI, each with an import block: no configId (kinds
 *   that have one), an id without any namespace tag (the others); an ownership made in the UI
 *   only when its owner is imported too. Objects tagged for another namespace are never taken.
 *
 * Names: slugs of titles/names (alerts: the fqn without the `NS.` prefix), deduplicated
 * deterministically (`_2`, `_3` in (type, slug, key) order) across all kinds. Identity is pinned
 * (`id`, alerts `fqn`), so the names can be changed freely afterwards (with a `moved` block,
 * or not at all: pinned ids do not depend on them). References between imported objects
 * (ownership -> owner/data product, domain -> parent/parts, alert targets -> owner, product rule
 * -> data product) become construct references (TS) or names (YAML).
 */
import { Document as YamlDocument, visit } from 'yaml';
import { hasUnsafe, unsafeAsEscapes } from '../../schemas/tools/inert';
import type { PlatformClient } from '../client';
import { RESOURCE_SCHEMAS, RESOURCE_TYPES, type ResourceType } from '../../schemas/model/manifest';
import { SECTION_OF } from '../../schemas/model/dqform-yaml';
import { HANDLERS } from '../kinds/index';
import type { ListedObject } from '../kinds/shared/types';
import { ENTITY_ID_PREFIX, hasConfigId, isFqnKeyed, KINDS, kindOf, REFERENCES, TYPE_PREFIX } from '../kinds/descriptors';
import { importRenderingOf, type TsRenderHelpers } from '../kinds/import';
import { workspaceOf } from '../engine/reconcile';
import { bareId, idOwner } from '../engine/identity';
import { stableStringify } from '../engine/keys';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** A live object as the importer sees it. */
export interface LiveItem {
  type: ResourceType;
  /** The id, or the fqn for alerts. */
  key: string;
  configId?: string;
  source?: string;
  deploymentRuleId?: string;
  raw: Json;
}

/** One object to write. */
export interface ImportedObject {
  type: ResourceType;
  /** Resource name: the construct id / the YAML key. */
  name: string;
  /** The id (alerts: the fqn) pinned in the output. */
  key: string;
  /** Desired config, identity pinned, references as `${type.name.attr}`. */
  config: Json;
  /** Made in the UI (no configId): adopted with an import block. */
  adopted: boolean;
}

export interface ImportOptions {
  namespace: string;
  /** The workspace (from IAM): namespace tags are per workspace. */
  workspace?: string;
  /** Also adopt UI-made objects (no configId) of the prunable kinds. */
  adopt?: boolean;
  /** With `adopt`: only UI-made objects of these kinds (every kind when unset). */
  adoptKinds?: readonly ResourceType[];
  /** With `adopt`: only the UI-made objects with these ids (alerts: fqns; every one when unset). */
  adoptIds?: readonly string[];
  /** Stack name. @default the namespace */
  stack?: string;
  /** Module specifier the generated TS imports constructs from. @default "dqform" */
  constructsModule?: string;
}

export interface ImportResult {
  objects: ImportedObject[];
  /** Objects whose desired form would not plan as no change (should not happen; reported). */
  warnings: string[];
  /** Live objects left out, by why. */
  left: { otherNamespace: number; madeInUi: number; byRule: number };
  /** Namespaces seen by name on live objects (configIds), for the "found nothing" message. */
  namespacesSeen: string[];
}

/** Reads what `import` looks at: every object of every kind in the workspace, and the workspace. */
export async function readForImport(client: PlatformClient, namespace: string): Promise<{ workspace: string; items: LiveItem[] }> {
  const workspace = await workspaceOf(client);
  const out: LiveItem[] = [];
  for (const type of RESOURCE_TYPES) {
    if (!hasConfigId(type)) continue;
    for (const o of await HANDLERS[type].read(client, { workspace, namespace, keys: [] })) {
      out.push({ type, key: o.key, configId: o.configId, source: o.source, deploymentRuleId: o.deploymentRuleId, raw: o.raw });
    }
  }
  // the kinds whose read answers only the namespace's list the whole workspace, all at once
  const lists = new Map<ResourceType, Promise<readonly ListedObject[]>>();
  const listOf = (t: ResourceType) => lists.get(t) ?? Promise.resolve([]);
  for (const type of RESOURCE_TYPES) {
    const h = HANDLERS[type];
    if (!hasConfigId(type) && h.listAll) lists.set(type, h.listAll(client, listOf));
  }
  const listsRead = await Promise.all([...lists.values()]);
  [...lists.keys()].forEach((type, i) => listsRead[i].forEach((o) => out.push({ type, ...o })));
  return { workspace, items: out };
}

/** Who owns a live item, seen from `namespace`: its configId (kinds that have one) or the tag of its id. */
export function ownerOf(item: LiveItem, workspace: string, namespace: string): 'namespace' | 'other' | 'none' {
  if (hasConfigId(item.type)) {
    if (item.configId === namespace) return 'namespace';
    if (item.configId) return 'other';
    return !isFqnKeyed(item.type) && idOwner(item.key, workspace, namespace) === 'other' ? 'other' : 'none';
  }
  return idOwner(item.key, workspace, namespace);
}

const SERVER_FIELDS = ['id', 'fqn', 'etag', 'createdAt', 'updatedAt', 'deletedAt', 'createdBy', 'updatedBy', 'source', 'configId', 'entityId', 'monitorCount', 'testCount', 'deploymentRuleId', 'inputTables'];

/**
 * Drops zero values (protojson omits them) and server-computed query forms, recursively; `false`
 * stays at the top-level keys `keepFalse` names.
 */
function clean(v: unknown, keepFalse?: ReadonlySet<string>): unknown {
  if (Array.isArray(v)) return v.map((x) => clean(x));
  if (!isObj(v)) return v;
  const out: Json = {};
  const hasQl = typeof v.resolverQl === 'string' && v.resolverQl !== '';
  const rendered = typeof v.renderedResolverQl === 'string' && v.renderedResolverQl !== '' ? v.renderedResolverQl : undefined;
  for (const k of Object.keys(v).sort()) {
    let x = v[k];
    if (k === 'renderedResolverQl') continue;
    if (k === 'query' && (hasQl || rendered !== undefined) && isObj(x) && Array.isArray(x.parts)) continue; // the server's translation
    x = clean(x);
    if (x === undefined || x === null || (x === false && !keepFalse?.has(k)) || x === '' || (Array.isArray(x) && x.length === 0) || (typeof x === 'string' && /_UNSPECIFIED$/.test(x))) continue;
    out[k] = x;
  }
  // the read form may carry only the rendering (definition parts do not echo resolverQl)
  if (!hasQl && rendered !== undefined) out.resolverQl = rendered;
  return out;
}

/** The desired config of a live object (identity pinned, no references yet). */
export function desiredFromLive(item: LiveItem): Json {
  const fromLive = importRenderingOf(item.type).fromLive;
  let raw = fromLive ? fromLive(item.raw) : item.raw;
  // definition parts carry a server-minted id: not part of what code declares
  if (isObj(raw.definition) && Array.isArray(raw.definition.parts)) {
    raw = { ...raw, definition: { ...raw.definition, parts: (raw.definition.parts as Json[]).map((p) => (isObj(p) ? Object.fromEntries(Object.entries(p).filter(([k]) => k !== 'id')) : p)) } };
  }
  // a `false` the kind's read form sets where the wire has no such field is dqform's (an
  // integration's `enabled: false`), not a zero value protojson omits
  const own = new Set(Object.keys(raw).filter((k) => raw[k] === false && !(k in item.raw)));
  const c = clean(Object.fromEntries(Object.entries(raw).filter(([k]) => !SERVER_FIELDS.includes(k))), own) as Json;
  if (isObj(c.definition) && Object.keys(c.definition).length === 0) delete c.definition;
  for (const k of ['template', 'alert']) if (isObj(c[k]) && Object.keys(c[k] as Json).length === 0) delete c[k];
  return isFqnKeyed(item.type) ? { fqn: item.key, ...c } : { id: item.key, ...c };
}

/** `Commerce data team` -> `commerce_data_team`. */
export function slug(s: string, fallback: string): string {
  let x = s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 60)
    .replace(/_+$/, '');
  if (!x) x = fallback;
  if (/^[0-9]/.test(x)) x = `${fallback}_${x}`;
  return x;
}

function baseName(item: LiveItem, namespace: string): string {
  const r = item.raw;
  const kind = item.type.slice(TYPE_PREFIX.length);
  if (isFqnKeyed(item.type)) return slug(item.key.startsWith(`${namespace}.`) ? item.key.slice(namespace.length + 1) : item.key, kind);
  if (kindOf(item.type)?.namedAfter) return slug('', kind);
  const label = (r.title ?? r.name) as string | undefined;
  return slug(label ?? '', kind);
}

/**
 * Chooses what to import and how to name it, and turns ids into references. Pure: same live
 * state, same output.
 */
export function planImport(items: readonly LiveItem[], opts: ImportOptions & { workspace: string }): ImportResult {
  const ns = opts.namespace;
  const warnings: string[] = [];
  const left = { otherNamespace: 0, madeInUi: 0, byRule: 0 };
  let chosen: { item: LiveItem; adopted: boolean }[] = [];
  for (const item of items) {
    if (item.deploymentRuleId) {
      left.byRule++;
      continue;
    }
    const owner = ownerOf(item, opts.workspace, ns);
    if (owner === 'namespace') chosen.push({ item, adopted: false });
    else if (owner === 'other') left.otherNamespace++;
    else if (opts.adopt && adoptable(item, opts)) chosen.push({ item, adopted: true });
    else left.madeInUi++;
  }
  // an ownership made in the UI comes along only with its owner (the object whose delete deletes it)
  const chosenKeys = new Set(chosen.map((c) => `${c.item.type}:${String(bareId(c.item.key)).toLowerCase()}`));
  chosen = chosen.filter((c) => {
    const parent = REFERENCES.find((r) => r.from === c.item.type && r.ref.effect === 'deleted');
    const keep = !(c.adopted && parent) || chosenKeys.has(`${parent.ref.to}:${String(bareId(String(parent.ref.ids(c.item.raw)[0] ?? ''))).toLowerCase()}`);
    if (!keep) left.madeInUi++;
    return keep;
  });
  const namespacesSeen = [...new Set(items.map((i) => i.configId).filter((x): x is string => !!x))].sort();
  // names: (type, slug, key) order, deduplicated across kinds; ownerships are named after their
  // owner and data product once those have names
  const order = (t: ResourceType) => RESOURCE_TYPES.indexOf(t);
  const used = new Set<string>();
  const byId = new Map<string, string>(); // `${type}:${bare id}` -> name
  const nameOf = (type: ResourceType, id: unknown) => (typeof id === 'string' ? byId.get(`${type}:${bareId(id).toLowerCase()}`) : undefined);
  const assign = (group: typeof chosen, base: (i: LiveItem) => string) =>
    group
      .map((c) => ({ ...c, base: base(c.item) }))
      .sort((a, b) => order(a.item.type) - order(b.item.type) || (a.base < b.base ? -1 : a.base > b.base ? 1 : 0) || (a.item.key < b.item.key ? -1 : 1))
      .map((c) => {
        let name = c.base;
        for (let i = 2; used.has(name); i++) name = `${c.base}_${i}`;
        used.add(name);
        byId.set(`${c.item.type}:${String(bareId(c.item.key)).toLowerCase()}`, name);
        return { ...c, name };
      });
  const namedAfter = (t: ResourceType) => kindOf(t)?.namedAfter;
  const first = assign(chosen.filter((c) => !namedAfter(c.item.type)), (i) => baseName(i, ns));
  const ownerships = assign(chosen.filter((c) => namedAfter(c.item.type)), (i) => {
    const kind = i.type.slice(TYPE_PREFIX.length);
    const after = namedAfter(i.type)?.(i.raw, nameOf);
    return after !== undefined ? slug(after, kind) : kind;
  });
  const withNames = [...first, ...ownerships];
  const ref = (type: ResourceType, id: string): string | undefined => {
    const n = nameOf(type, id);
    if (!n) return undefined;
    return `\${${type}.${n}.${/^(owner|domain|dataproduct)-/i.test(id) ? 'entity_id' : 'id'}}`;
  };

  const objects: ImportedObject[] = [];
  for (const c of withNames) {
    const desired = desiredFromLive(c.item);
    const h = HANDLERS[c.item.type];
    if (stableStringify(h.fromDesired(desired)) !== stableStringify(h.fromLive(c.item.raw))) {
      warnings.push(`${c.item.type} ${c.item.key}: the imported form does not compare equal to live; review ${c.name}`);
    }
    const valid = (RESOURCE_SCHEMAS[c.item.type] as unknown as { safeParse: (v: unknown) => { success: boolean } }).safeParse(desired);
    if (!valid.success) warnings.push(`${c.item.type} ${c.item.key}: the live object does not fit the desired schema; review ${c.name}`);
    objects.push({ type: c.item.type, name: c.name, key: c.item.key, config: withRefs(c.item.type, desired, ref), adopted: c.adopted });
  }
  objects.sort((a, b) => order(a.type) - order(b.type) || (a.name < b.name ? -1 : 1));
  return { objects, warnings, left, namespacesSeen };
}

/** Replaces ids of imported objects with references, at the fields that hold them. */
function withRefs(type: ResourceType, c: Json, ref: (t: ResourceType, id: string) => string | undefined): Json {
  const x = structuredClone(c);
  const sub = (o: Json, k: string, t: ResourceType) => {
    if (typeof o[k] === 'string') o[k] = ref(t, o[k] as string) ?? o[k];
  };
  importRenderingOf(type).refs?.(x, sub);
  return x;
}

// ---------------------------------------------------------------------------------------------
// YAML

const REF_ONLY = /^\$\{(dq_[a-z_]+)\.([^.}\s]+)\.(id|entity_id)\}$/;
const refName = (v: unknown, type: string, attr?: string): string | undefined => {
  const m = typeof v === 'string' ? REF_ONLY.exec(v) : null;
  return m && m[1] === type && (!attr || m[3] === attr) ? m[2] : undefined;
};
const qlOnly = (v: unknown): string | undefined => (isObj(v) && typeof v.resolverQl === 'string' && Object.keys(v).length === 1 ? v.resolverQl : undefined);
const FIRST = ['fqn', 'id', 'name', 'title', 'description', 'owner', 'parent', 'dataProduct', 'query'];
function ordered(o: Json): Json {
  const keys = Object.keys(o).sort((a, b) => (FIRST.includes(a) ? FIRST.indexOf(a) : 99) - (FIRST.includes(b) ? FIRST.indexOf(b) : 99) || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((k) => [k, o[k]]));
}

/** The friendly YAML form of a config (inverse of the loader's translation). */
function friendly(type: ResourceType, c: Json): Json {
  const x = structuredClone(c);
  importRenderingOf(type).yaml?.(x, { refName, qlOnly });
  return ordered(x);
}

/** Renders the objects as a `dqform.yaml` document. */
export function renderYaml(r: ImportResult, opts: ImportOptions): string {
  const doc: Json = { namespace: opts.namespace };
  if (opts.stack && opts.stack !== opts.namespace) doc.stack = opts.stack;
  for (const type of RESOURCE_TYPES) {
    const of = r.objects.filter((o) => o.type === type);
    if (of.length) doc[SECTION_OF[type]] = Object.fromEntries(of.map((o) => [o.name, friendly(type, o.config)]));
  }
  const imports = r.objects.filter((o) => o.adopted).map((o) => ({ to: `${o.type}.${o.name}`, id: o.key }));
  if (imports.length) doc.import = imports;
  const head = [
    '# yaml-language-server: $schema=node_modules/dqform/schemas/dqform.schema.json',
    `# Imported by \`dqform import --namespace ${opts.namespace}\`. Ids are pinned: rename entries freely.`,
    '',
  ].join('\n');
  return head + inertYaml(doc);
}

/**
 * The YAML text of `doc`, with every string that holds a control, bidi or zero-width character
 * double-quoted and those characters written as `\uXXXX` escapes (schemas/tools/inert): the values
 * are unchanged, and nothing invisible or reordering reaches the file a reviewer reads.
 */
function inertYaml(doc: Record<string, unknown>): string {
  const d = new YamlDocument(doc, { aliasDuplicateObjects: false });
  let quoted = false;
  visit(d, {
    Scalar(_k, node) {
      if (typeof node.value === 'string' && hasUnsafe(node.value)) {
        node.type = 'QUOTE_DOUBLE';
        quoted = true;
      }
    },
  });
  const text = d.toString({ lineWidth: 0 });
  // the yaml library writes some of them raw even in double quotes (bidi, zero-width, C1); there \uXXXX is an escape
  return quoted
    ? text
        .split('\n')
        .map((l) => unsafeAsEscapes(l))
        .join('\n')
    : text;
}

// ---------------------------------------------------------------------------------------------
// TypeScript

/** Raw code inside a literal. */
class Code {
  constructor(readonly code: string) {}
}
const code = (s: string) => new Code(s);

function quote(s: string): string {
  // then every other control, bidi and zero-width character as \uXXXX (schemas/tools/inert): no Trojan Source
  return `'${unsafeAsEscapes(s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029'))}'`;
}
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A TypeScript literal of `v` at indentation `indent`, inline when it fits before column 100 (`col` is where it starts). */
export function tsLiteral(v: unknown, indent = 0, col = indent): string {
  const inline = lit(v, -1);
  if (inline.length + col <= 100 && !inline.includes('\n')) return inline;
  return lit(v, indent);
}
function lit(v: unknown, indent: number): string {
  if (v instanceof Code) return v.code;
  if (typeof v === 'string') return quote(v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return JSON.stringify(v);
  const pad = (n: number) => ' '.repeat(n);
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    if (indent < 0) return `[${v.map((x) => lit(x, -1)).join(', ')}]`;
    return `[\n${v.map((x) => `${pad(indent + 2)}${tsLiteral(x, indent + 2)}`).join(',\n')},\n${pad(indent)}]`;
  }
  if (isObj(v)) {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    if (entries.length === 0) return '{}';
    const key = (k: string) => (IDENT.test(k) ? k : quote(k));
    if (indent < 0) return `{ ${entries.map(([k, x]) => `${key(k)}: ${lit(x, -1)}`).join(', ')} }`;
    return `{\n${entries.map(([k, x]) => `${pad(indent + 2)}${key(k)}: ${tsLiteral(x, indent + 2, indent + 2 + key(k).length + 2)}`).join(',\n')},\n${pad(indent)}}`;
  }
  return 'undefined';
}

const VAR_SUFFIX = (type: ResourceType): string | undefined => kindOf(type)?.construct.varSuffix;
const CLASS = (type: ResourceType): string => kindOf(type)?.construct.className ?? '';
const varName = (type: ResourceType, name: string) => `${name.replace(/_([a-z0-9])/g, (_, ch: string) => ch.toUpperCase())}${VAR_SUFFIX(type) ?? ''}`;

/**
 * The order constructs are declared in: kind order, except that a kind with a parent field
 * (domains) comes after the kinds it references (data products) and its objects come parents and
 * referenced siblings first.
 */
function declarationOrder(objects: readonly ImportedObject[]): ImportedObject[] {
  const types = RESOURCE_TYPES.filter((t) => !kindOf(t)?.parentField);
  for (const k of KINDS.filter((x) => x.parentField)) {
    const last = Math.max(...REFERENCES.filter((r) => r.from === k.type).map((r) => types.indexOf(r.ref.to)));
    types.splice(last + 1, 0, k.type);
  }
  return types.flatMap((t) => (kindOf(t)?.parentField ? parentsFirst(t, objects.filter((o) => o.type === t)) : objects.filter((o) => o.type === t)));
}

/** Objects of `type` with the ones they reference through references to their own kind first. */
function parentsFirst(type: ResourceType, objects: readonly ImportedObject[]): ImportedObject[] {
  const self = REFERENCES.filter((r) => r.from === type && r.ref.to === type).map((r) => r.ref);
  const out: ImportedObject[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (d: ImportedObject) => {
    if (state.has(d.name)) return;
    state.set(d.name, 'visiting');
    for (const dep of self.flatMap((ref) => ref.ids(d.config))) {
      const n = refName(dep, type);
      const t = n ? objects.find((x) => x.name === n) : undefined;
      if (t && !state.has(t.name)) visit(t);
    }
    state.set(d.name, 'done');
    out.push(d);
  };
  objects.forEach(visit);
  return out;
}

/** Does the --adopt narrowing (`adoptKinds`, `adoptIds`) take this UI-made object? Ids compare case-insensitively. */
function adoptable(item: LiveItem, opts: ImportOptions): boolean {
  if (opts.adoptKinds && !opts.adoptKinds.includes(item.type)) return false;
  return !opts.adoptIds || opts.adoptIds.some((id) => id.toLowerCase() === item.key.toLowerCase());
}

/** Renders the objects as a `main.ts` CDKTF app. */
export function renderTs(r: ImportResult, opts: ImportOptions): string {
  const used = new Set<string>(['DqStack']);
  const declared = new Set<string>(); // `${type}.${name}` already declared (usable as a variable)
  const referenced = new Set<string>();
  const mod = opts.constructsModule ?? 'dqform';
  const stackName = opts.stack ?? opts.namespace;

  // a construct reference, or undefined when the target is not (yet) declared
  const asVar = (v: unknown, type: ResourceType): Code | undefined => {
    const m = typeof v === 'string' ? REF_ONLY.exec(v) : null;
    if (!m || m[1] !== type) return undefined;
    const key = `${type}.${m[2]}`;
    if (!declared.has(key)) return undefined;
    referenced.add(key);
    return code(varName(type, m[2]));
  };
  const idOf = (v: unknown): string => {
    const m = typeof v === 'string' ? REF_ONLY.exec(v) : null;
    if (!m) return v as string;
    const o = r.objects.find((x) => x.type === m[1] && x.name === m[2]);
    return o ? (m[3] === 'entity_id' ? `${ENTITY_ID_PREFIX[o.type]}${o.key}` : o.key) : (v as string);
  };
  const queryInput = (sel: Json): unknown => {
    if (typeof sel.resolverQl === 'string') return sel.resolverQl;
    used.add('Query');
    return code(`Query.model(${tsLiteral(sel.query ?? { parts: [] }, 4)})`);
  };
  const helpers: TsRenderHelpers = { asVar, idOf, queryInput, refName, use: (cls) => used.add(cls), code, quote, literal: (v, indent) => tsLiteral(v, indent), ordered };
  const props = (o: ImportedObject): Json => {
    const c = structuredClone(o.config);
    const ts = importRenderingOf(o.type).ts;
    return ts ? ts(c, helpers) : ordered(c);
  };

  const sequence = declarationOrder(r.objects);

  const statements: { key: string; text: (isVar: boolean) => string }[] = [];
  for (const o of sequence) {
    used.add(CLASS(o.type));
    const p = props(o);
    const key = `${o.type}.${o.name}`;
    declared.add(key);
    const expr = `new ${CLASS(o.type)}(stack, ${quote(o.name)}, ${tsLiteral(p, 2, 60)})`;
    const imp = o.adopted ? `.importFrom(${quote(o.key)})` : '';
    statements.push({
      key,
      text: (isVar) => (isVar ? `  const ${varName(o.type, o.name)} = ${expr};${imp ? `\n  ${varName(o.type, o.name)}${imp};` : ''}` : `  ${expr}${imp};`),
    });
  }
  const body = statements.map((s) => s.text(referenced.has(s.key))).join('\n');
  const classes = [...used].sort();
  return [
    '/**',
    ` * Imported by \`dqform import --namespace ${opts.namespace}\`: the live objects as constructs.`,
    ' * Ids (alerts: fqns) are pinned, so `dqform plan` shows no changes; rename constructs freely.',
    ' */',
    `import { ${['App', ...classes].join(', ')} } from ${quote(mod)};`,
    '',
    `/** Declares the stack of namespace ${quote(opts.namespace)} in \`app\`. */`,
    'export function build(app: App): DqStack {',
    `  const stack = new DqStack(app, ${quote(stackName)}, { namespace: ${quote(opts.namespace)} });`,
    body,
    '  return stack;',
    '}',
    '',
    // No `require.main` check: it does not exist in an ES module. This file is the app that
    // cdktf runs (cdktf.json), in a CommonJS or an ESM project alike.
    '// The app cdktf runs (cdktf.json: "app": "npx tsx <this file>"). To reuse build() in another app,',
    '// move it into a module of its own.',
    'const app = new App();',
    'build(app);',
    'app.synth();',
    '',
  ].join('\n');
}

/** `--adopt-kind` and `--adopt-id` (comma-separated; kinds as `dq_alert` or `alerts`) as options, or the error to report. */
export function adoptNarrowing(flags: { adoptKind?: string; adoptId?: string }): Pick<ImportOptions, 'adoptKinds' | 'adoptIds'> | string {
  const list = (v: string | undefined) => (v === undefined ? undefined : v.split(',').map((x) => x.trim()).filter(Boolean));
  const kinds = list(flags.adoptKind);
  const ids = list(flags.adoptId);
  if (kinds?.length === 0) return '--adopt-kind needs at least one kind';
  if (ids?.length === 0) return '--adopt-id needs at least one id';
  const adoptKinds = kinds?.map((k) => RESOURCE_TYPES.find((t) => t === k || SECTION_OF[t] === k) ?? k);
  const unknown = (adoptKinds ?? []).filter((k) => !(RESOURCE_TYPES as readonly string[]).includes(k));
  if (unknown.length) return `--adopt-kind: unknown kind ${unknown.map((k) => `"${k}"`).join(', ')}; the kinds are ${RESOURCE_TYPES.map((t) => `${t} (${SECTION_OF[t]})`).join(', ')}`;
  return { adoptKinds: adoptKinds as ResourceType[] | undefined, adoptIds: ids };
}

/** Reads live state and renders the output (the whole `import` minus file writing). */
export async function importNamespace(client: PlatformClient, opts: ImportOptions & { format: 'ts' | 'yaml' }): Promise<ImportResult & { text: string; workspace: string }> {
  const { workspace, items } = await readForImport(client, opts.namespace);
  const r = planImport(items, { ...opts, workspace });
  return { ...r, workspace, text: opts.format === 'yaml' ? renderYaml(r, opts) : renderTs(r, opts) };
}
