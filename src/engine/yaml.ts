/**
 * The YAML front end: `dqform.yaml` -> the same {@link Manifest} the CDKTF synth output gives, so
 * plan and apply are shared. Every problem (YAML syntax, unknown sections and fields, wrong types,
 * references to nothing, bad moved/import/removed entries) is collected, each pointing at
 * `file:line:column`; a resource's `source` is the `file:line:column` of its key.
 *
 * The document's shape is {@link DqformYaml} (schemas/model/dqform-yaml.ts); friendly reference forms
 * (`owner: team`, `dataProduct: orders`, `parent: commerce`, `- owner: team` targets,
 * `product: orders`, ResolverQL strings for selections) are translated to the desired shapes
 * with Terraform-style references (`${dq_owner.team.id}`), resolved later by the engine.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type Node as YamlNode, type Pair, type YAMLMap } from 'yaml';
import { z } from 'zod';
import { DqformYaml, YAML_ENTRY_SCHEMAS, YAML_SECTIONS, type YamlSection } from '../../schemas/model/dqform-yaml';
import { Manifest, RESOURCE_SCHEMAS, RESOURCE_TYPES, type ManifestResource, type ResourceType } from '../../schemas/model/manifest';
import type { Diagnostic } from '../../schemas/model/plan';
import { checkResolverQlText, ResolverQlError } from '../../schemas/tools/resolverql';
import { parseFast } from '../../schemas/tools/lean';
import { parseAddress } from './identity';
import { ManifestError } from './manifest';
import { withLoaderWarnings } from './loader-warnings';
import { closest, nearestAddress, unknownFields } from './unknown-fields';
import { translateYaml } from '../kinds/yaml';
export { unknownFields };

type Json = Record<string, unknown>;
type PathSeg = string | number;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** The default workspace file name, auto-detected in the working directory. */
export const YAML_WORKSPACE_FILE = 'dqform.yaml';

/**
 * Locates nodes of a parsed document as `file:line:column` (1-based). Each mapping's keys are
 * indexed once, on first use, so that locating every entry of a section of N entries is linear
 * in N (a scan of the mapping per lookup made 40,000 owners take seconds).
 */
class Locator {
  private readonly index = new WeakMap<YAMLMap, Map<string, Pair>>();

  constructor(
    private readonly doc: Document,
    private readonly lines: LineCounter,
    private readonly file: string,
  ) {}

  /** The pairs of a mapping by key text (the first pair of a key wins, as a scan would find it). */
  private keys(map: YAMLMap): Map<string, Pair> {
    let byKey = this.index.get(map);
    if (!byKey) {
      byKey = new Map();
      for (const p of map.items as Pair[]) {
        const k = isScalar(p.key) ? String(p.key.value) : String(p.key);
        if (!byKey.has(k)) byKey.set(k, p);
      }
      this.index.set(map, byKey);
    }
    return byKey;
  }

  private at(offset: number | undefined): string {
    if (offset === undefined) return this.file;
    const p = this.lines.linePos(offset);
    return `${this.file}:${p.line}:${p.col}`;
  }

  /** The deepest existing node (or its key, with `key`) along `path`. */
  find(path: readonly PathSeg[], key = false): string {
    let node: unknown = this.doc.contents;
    let best: number | undefined = (node as YamlNode | null)?.range?.[0];
    let lastKey: number | undefined;
    for (let i = 0; i < path.length; i++) {
      const seg = path[i];
      if (isMap(node)) {
        const pair = this.keys(node).get(String(seg));
        if (!pair) {
          // a missing field: point at the key of what lacks it
          best = lastKey ?? best;
          break;
        }
        const last = i === path.length - 1;
        const keyNode = pair.key as YamlNode | null;
        const valNode = pair.value as YamlNode | null;
        lastKey = keyNode?.range?.[0];
        best = (last && key ? keyNode?.range?.[0] : (valNode?.range?.[0] ?? keyNode?.range?.[0])) ?? best;
        node = pair.value;
      } else if (isSeq(node) && typeof seg === 'number') {
        const item = node.items[seg] as YamlNode | undefined;
        if (!item) break;
        best = item.range?.[0] ?? best;
        lastKey = best;
        node = item;
      } else break;
    }
    return this.at(best);
  }

  offset(offset: number): string {
    return this.at(offset);
  }
}

function fieldPath(path: readonly PathSeg[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${p}` : p;
  return out;
}

const REF = /\$\{([a-z][a-z0-9_]*)\.([^.}\s]+)\.([a-z_]+)\}/g;
const ref = (type: ResourceType, name: string, attr: 'id' | 'entity_id') => `\${${type}.${name}.${attr}}`;

/** How far aliases (`*name`) may expand (the yaml library's weighted count); past it, the file is refused. */
export const MAX_ALIAS_COUNT = 1000;

/**
 * The document as plain data. A file whose aliases expand past {@link MAX_ALIAS_COUNT} (the
 * "billion laughs": each anchor a list of nine aliases of the one before) is refused with a
 * diagnostic at its first alias, instead of exhausting memory.
 */
function expandAliases(doc: Document, loc: Locator): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as unknown;
  } catch (e) {
    if (!(e instanceof ReferenceError) || !/alias/i.test(e.message)) throw e;
    let first: number | undefined;
    visit(doc, {
      Alias(_k, node) {
        first = node.range?.[0];
        return visit.BREAK;
      },
    });
    throw new ManifestError([
      {
        severity: 'error',
        summary: `YAML: the aliases (*name) expand to too much data (more than ${MAX_ALIAS_COUNT} aliased nodes): refused, as a resource exhaustion attack would be`,
        source: first === undefined ? loc.find([]) : loc.offset(first),
        hint: 'Write the repeated values out, or use fewer and smaller anchors (&name) and aliases.',
      },
    ]);
  }
}

/** The largest `dqform.yaml` read, in bytes of UTF-8 (5 MiB, about 150,000 owners: parsed in seconds; 40,000 owners are about 1.3 MB). */
export const MAX_YAML_BYTES = 5 * 1024 * 1024;

function tooLarge(file: string, size: number): ManifestError {
  return new ManifestError([
    {
      severity: 'error',
      summary: `YAML: ${file} is too large (${size} ${size === 1 ? 'byte' : 'bytes'}; the limit is ${MAX_YAML_BYTES} = 5 MiB): refused unread`,
      source: file,
      hint: 'Split the workspace into several stacks (one dqform.yaml each), or use the CDKTF front end.',
    },
  ]);
}

/**
 * Keys repeated within one mapping (what the yaml library's `uniqueKeys` reports, as the library
 * compares them: scalar keys by value; other keys are never equal), each at the repeated key. One
 * Set per mapping, so linear in the document's size.
 */
function duplicateKeys(doc: Document): { pos: number; message: string }[] {
  const out: { pos: number; message: string }[] = [];
  visit(doc, {
    Map(_k, map) {
      const seen = new Set<unknown>();
      for (const p of map.items) {
        if (!isScalar(p.key)) continue;
        if (seen.has(p.key.value)) out.push({ pos: p.key.range?.[0] ?? 0, message: 'Map keys must be unique' });
        else seen.add(p.key.value);
      }
    },
  });
  return out;
}

/** What the steps of {@link manifestFromYaml} share: where a path is in the file, and the diagnostics so far. */
interface YamlRun {
  loc: Locator;
  diags: Diagnostic[];
  /** Addresses with an error already (their translated config is not checked again). */
  failed: Set<string | undefined>;
  error(summary: string, source: string, extra?: Partial<Diagnostic>): void;
}

/**
 * Parses `dqform.yaml` text into a manifest. Throws one {@link ManifestError} with every
 * diagnostic (each with `source: "file:line:column"`).
 */
export function manifestFromYaml(text: string, opts: { file: string; stack?: string }): Manifest {
  const { data, run } = parseYaml(text, opts.file);
  // 1. unknown sections and fields; 2. types and values; 2b. ResolverQL, in the same pass as the
  // schema (not only once the schema errors are fixed)
  unknownYamlFields(data, run);
  yamlSchemaErrors(data, run);
  yamlResolverQlErrors(data, run);
  // 3. resources
  const declared = new Set<string>();
  for (const [section, type] of Object.entries(YAML_SECTIONS) as [YamlSection, ResourceType][]) {
    const entries = data[section];
    if (isObj(entries)) for (const name of Object.keys(entries)) declared.add(`${type}.${name}`);
  }
  const resources = yamlResources(data, declared, run);
  // 4. moved, import, removed
  const { moved, imports, removed } = yamlBlocks(data, declared, run);
  const namespace = typeof data.namespace === 'string' ? data.namespace : '';
  const manifest = {
    formatVersion: 1 as const,
    stack: opts.stack ?? (typeof data.stack === 'string' ? data.stack : namespace),
    namespace,
    region: typeof data.region === 'string' ? data.region : undefined,
    baseUrl: typeof data.baseUrl === 'string' ? data.baseUrl : undefined,
    grpcEndpoint: typeof data.grpcEndpoint === 'string' ? data.grpcEndpoint : undefined,
    credentialsFrom: isObj(data.credentialsFrom) ? data.credentialsFrom : undefined,
    resources,
    moved,
    imports,
    removed,
  };
  if (run.diags.some((d) => d.severity === 'error')) throw new ManifestError(dedupe(run.diags));
  const m = parseFast(Manifest, manifest);
  if (!m.success) throw new ManifestError(m.error.issues.map((i) => ({ severity: 'error' as const, summary: `${fieldPath(i.path as PathSeg[])}: ${i.message}`, source: run.loc.find(i.path as PathSeg[]) })));
  return withLoaderWarnings(m.data, run.diags);
}

/** The document as data (aliases expanded), or a {@link ManifestError} for its syntax errors or a document that is not a mapping. */
function parseYaml(text: string, file: string): { data: Json; run: YamlRun } {
  const diags: Diagnostic[] = [];
  const bytes = text.length > MAX_YAML_BYTES / 3 ? Buffer.byteLength(text, 'utf8') : text.length;
  if (bytes > MAX_YAML_BYTES) throw tooLarge(file, bytes);
  const lines = new LineCounter();
  // uniqueKeys off: the yaml library checks each key against every earlier key of its mapping
  // (quadratic in a section's size); duplicateKeys does the same check with one Set per mapping
  const doc = parseDocument(text, { lineCounter: lines, keepSourceTokens: true, prettyErrors: false, uniqueKeys: false });
  const loc = new Locator(doc, lines, file);
  const failed = new Set<string | undefined>();
  const error = (summary: string, source: string, extra: Partial<Diagnostic> = {}) => {
    failed.add(extra.address);
    diags.push({ severity: 'error', summary, source, ...extra });
  };
  const syntax = [...doc.errors.map((e) => ({ pos: e.pos[0], message: e.message.split('\n')[0] })), ...duplicateKeys(doc)].sort((a, b) => a.pos - b.pos);
  for (const e of syntax) error(`YAML: ${e.message}`, loc.offset(e.pos), { hint: 'Fix the YAML syntax.' });
  for (const w of doc.warnings) diags.push({ severity: 'warning', summary: `YAML: ${w.message.split('\n')[0]}`, source: loc.offset(w.pos[0]), hint: 'dqform ignores it and reads the value as written; remove it to silence this warning.' });
  if (syntax.length) throw new ManifestError(diags);
  const data = expandAliases(doc, loc);
  if (!isObj(data)) {
    throw new ManifestError([{ severity: 'error', summary: 'the document must be a mapping with at least "namespace"', source: loc.find([]), hint: 'Start the file with `namespace: <your namespace>`.' }]);
  }
  return { data, run: { loc, diags, failed, error } };
}

/** Unknown sections and fields, with a "did you mean". */
function unknownYamlFields(data: Json, run: YamlRun): void {
  for (const u of unknownFields(DqformYaml, data)) {
    const top = u.path.length === 0;
    const guess = closest(u.key, u.known);
    run.error(top ? `unknown section "${u.key}"` : `unknown field "${u.key}"${u.path.length ? ` in ${fieldPath(u.path)}` : ''}`, run.loc.find([...u.path, u.key], true), {
      field: fieldPath([...u.path, u.key]),
      hint: guess ? `Did you mean "${guess}"?` : `Known ${top ? 'sections' : 'fields'} here: ${u.known.join(', ')}.`,
    });
  }
}

/** Types and values, by the document's schema. */
function yamlSchemaErrors(data: Json, run: YamlRun): void {
  const parsed = parseFast(DqformYaml, data);
  if (parsed.success) return;
  for (const i of parsed.error.issues) {
    if (i.code === 'unrecognized_keys') continue;
    const p = i.path as PathSeg[];
    const sectionType = typeof p[0] === 'string' ? (YAML_SECTIONS as Record<string, ResourceType>)[p[0]] : undefined;
    const address = sectionType && p.length >= 2 ? `${sectionType}.${String(p[1])}` : undefined;
    const inner = sectionType ? p.slice(2) : p;
    const nested = (i as { issues?: { message: string }[] }).issues?.[0]?.message;
    const message = i.code === 'invalid_key' && nested ? nested : /received undefined$/.test(i.message) ? 'required, missing' : i.message;
    const hint = p.length === 1 && p[0] === 'namespace' ? 'Start the file with `namespace: <your namespace>`.' : undefined;
    run.error(`${inner.length ? `${fieldPath(inner)}: ` : ''}${message}`, run.loc.find(p, i.code === 'invalid_key'), { address, field: fieldPath(inner) || undefined, hint });
  }
}

/** ResolverQL texts that do not parse. */
function yamlResolverQlErrors(data: Json, run: YamlRun): void {
  for (const [section, type] of Object.entries(YAML_SECTIONS) as [YamlSection, ResourceType][]) {
    const entries = data[section];
    if (!isObj(entries)) continue;
    for (const name of Object.keys(entries).sort()) {
      resolverQlStrings(entries[name], [], (text, at) => {
        const problem = resolverQlProblem(text);
        if (problem) run.error(`${fieldPath(at)}: ${problem}`, run.loc.find([section, name, ...at]), { address: `${type}.${name}`, field: fieldPath(at), hint: 'Fix the ResolverQL text.' });
      });
    }
  }
}

/** The resources of every section, in section order and by name. */
function yamlResources(data: Json, declared: ReadonlySet<string>, run: YamlRun): ManifestResource[] {
  const resources: ManifestResource[] = [];
  for (const [section, type] of Object.entries(YAML_SECTIONS) as [YamlSection, ResourceType][]) {
    const entries = data[section];
    if (!isObj(entries)) continue;
    for (const name of Object.keys(entries).sort()) {
      const entry = entries[name];
      if (!isObj(entry)) continue; // reported by the schema
      resources.push(yamlResource(section, type, name, entry, declared, run));
    }
  }
  return resources;
}

/** One entry of a section as a manifest resource: friendly forms translated, references checked. */
function yamlResource(section: YamlSection, type: ResourceType, name: string, entry: Json, declared: ReadonlySet<string>, run: YamlRun): ManifestResource {
  const { loc, error } = run;
  const address = `${type}.${name}`;
  const base: PathSeg[] = [section, name];
  const source = loc.find(base, true);
  const named = (t: ResourceType, n: unknown, at: PathSeg[], attr: 'id' | 'entity_id'): string => {
    const s = String(n);
    if (!declared.has(`${t}.${s}`)) {
      const near = nearestAddress(t, s, [...declared].filter((d) => d.startsWith(`${t}.`)));
      error(`${fieldPath(at)}: no ${t.slice(3).replace(/_/g, ' ')} named "${s}" in this file${near ? ` (did you mean "${near.slice(t.length + 1)}"?)` : ''}`, loc.find([...base, ...at]), {
        address,
        field: fieldPath(at),
        hint: `Declare it under ${(Object.entries(YAML_SECTIONS).find(([, x]) => x === t) ?? ['?'])[0]}, or use its id.`,
      });
    }
    return ref(t, s, attr);
  };
  const { lifecycle, dependsOn, ...rest } = entry as Json & { lifecycle?: Json; dependsOn?: unknown };
  const config = translateYaml(type, rest, named);
  // references written as ${...}
  walkStrings(config, [], (s, at) => {
    for (const m of s.matchAll(REF)) {
      const target = `${m[1]}.${m[2]}`;
      if (!declared.has(target)) {
        const near = nearestAddress(m[1], m[2], declared);
        error(`${fieldPath(at)}: reference ${m[0]} points to nothing${near ? ` (did you mean \${${near}.${m[3]}}?)` : ''}`, loc.find([...base, ...at]), { address, field: fieldPath(at), hint: `Declare ${target} in this file.` });
      }
    }
  });
  const deps = Array.isArray(dependsOn) ? dependsOn.map(String) : [];
  deps.forEach((d, i) => {
    if (!declared.has(d)) error(`dependsOn[${i}]: ${d} is not declared in this file`, loc.find([...base, 'dependsOn', i]), { address, field: `dependsOn[${i}]` });
  });
  // the translated config must be the desired shape (e.g. a friendly form left a hole)
  if (!run.failed.has(address)) {
    const r = parseFast(RESOURCE_SCHEMAS[type] as unknown as z.ZodType, config);
    if (!r.success) for (const i of r.error.issues) error(`${fieldPath(i.path as PathSeg[]) ? `${fieldPath(i.path as PathSeg[])}: ` : ''}${i.message}`, loc.find([...base, ...(i.path as PathSeg[])]), { address });
  }
  const lc = isObj(lifecycle) ? lifecycle : {};
  return {
    address,
    type,
    name,
    config,
    source,
    lifecycle: {
      preventDestroy: lc.preventDestroy === true ? true : undefined,
      ignoreChanges: lc.ignoreChanges === 'all' ? 'all' : Array.isArray(lc.ignoreChanges) ? lc.ignoreChanges.map(String) : undefined,
    },
    dependsOn: deps,
  };
}

/** The `moved`, `import` and `removed` lists, checked against what the file declares. */
function yamlBlocks(data: Json, declared: ReadonlySet<string>, run: YamlRun) {
  const { loc, error } = run;
  const list = (k: string): Json[] => (Array.isArray(data[k]) ? (data[k] as unknown[]).map((x) => (isObj(x) ? x : typeof x === 'string' ? { from: x } : {})) : []);
  const moved = list('moved').map((m) => ({ from: String(m.from ?? ''), to: String(m.to ?? '') }));
  const imports = list('import').map((m) => ({ to: String(m.to ?? ''), id: String(m.id ?? '') }));
  const removed = list('removed').map((m) => ({ from: String(m.from ?? ''), destroy: m.destroy !== false, ...(typeof m.id === 'string' && m.id ? { id: m.id } : {}) }));
  const isDq = (a: string) => {
    const p = parseAddress(a);
    return !!p && (RESOURCE_TYPES as string[]).includes(p.type);
  };
  moved.forEach((m, i) => {
    const at = (k: string) => loc.find(['moved', i, k]);
    if (!isDq(m.from)) error(`moved[${i}].from: "${m.from}" is not a dq_* address`, at('from'));
    if (!isDq(m.to)) error(`moved[${i}].to: "${m.to}" is not a dq_* address`, at('to'));
    else if (!declared.has(m.to)) error(`moved[${i}]: ${m.to} is not declared`, at('to'), { address: m.to, hint: 'Move to an address that exists in this file.' });
    if (declared.has(m.from)) error(`moved[${i}]: ${m.from} is still declared`, at('from'), { address: m.from, hint: 'Remove the old entry or the moved entry.' });
  });
  imports.forEach((m, i) => {
    if (!declared.has(m.to)) error(`import[${i}]: ${m.to} is not declared`, loc.find(['import', i, 'to']), { address: m.to, hint: 'Declare the resource the object is imported into.' });
  });
  removed.forEach((m, i) => {
    if (!isDq(m.from)) error(`removed[${i}]: "${m.from}" is not a dq_* address`, loc.find(['removed', i]));
    else if (declared.has(m.from)) error(`removed[${i}]: ${m.from} is declared and removed at once`, loc.find(['removed', i]), { address: m.from, hint: 'Delete the entry, or drop the removed declaration.' });
  });
  return { moved, imports, removed };
}

function dedupe(diags: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diags.filter((d) => {
    const k = `${d.source}\u0000${d.summary}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * The ResolverQL texts of an entry as written in YAML: `resolverQl: "..."` anywhere, and the
 * friendly forms `trigger: "..."` (alerts) and `query: "..."` (ownerships, domain and data
 * product parts), which hold ResolverQL whenever they are strings.
 */
function resolverQlStrings(v: unknown, path: PathSeg[], f: (text: string, path: PathSeg[]) => void): void {
  if (Array.isArray(v)) v.forEach((x, i) => resolverQlStrings(x, [...path, i], f));
  else if (isObj(v)) {
    for (const [k, x] of Object.entries(v)) {
      if (typeof x === 'string' && (k === 'resolverQl' || k === 'trigger' || k === 'query')) f(x, [...path, k]);
      else resolverQlStrings(x, [...path, k], f);
    }
  }
}

/**
 * The parse error of a ResolverQL text (its message names the offset), or undefined. A function
 * dqform does not know is not an error (the manifest check warns about it once).
 */
function resolverQlProblem(text: string): string | undefined {
  if (text.includes('${')) return undefined; // a reference, resolved later
  try {
    checkResolverQlText(text);
    return undefined;
  } catch (e) {
    if (e instanceof ResolverQlError) return e.message;
    throw e;
  }
}

function walkStrings(v: unknown, path: PathSeg[], f: (s: string, path: PathSeg[]) => void): void {
  if (typeof v === 'string') f(v, path);
  else if (Array.isArray(v)) v.forEach((x, i) => walkStrings(x, [...path, i], f));
  else if (isObj(v)) for (const [k, x] of Object.entries(v)) walkStrings(x, [...path, k], f);
}

/** Reads a `dqform.yaml` file into a manifest (see {@link manifestFromYaml}). */
export function loadYamlWorkspace(file: string, stack?: string, opts: { cwd?: string } = {}): Manifest {
  let text: string;
  // Sources are named relative to the working directory, so that plans do not depend on where
  // the checkout lives.
  const shown = opts.cwd ? path.relative(opts.cwd, file) || file : file;
  try {
    // refused before reading: a huge file would take memory and minutes to parse
    const size = fs.statSync(file).size;
    if (size > MAX_YAML_BYTES) throw tooLarge(shown, size);
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if (e instanceof ManifestError) throw e;
    throw new ManifestError([{ severity: 'error', summary: `cannot read ${shown}`, hint: 'Check the --file path.' }]);
  }
  return manifestFromYaml(text, { file: shown, stack });
}

/** The entry schema of a resource type in `dqform.yaml` (re-exported for tools). */
export { YAML_ENTRY_SCHEMAS };
