/**
 * Loads the manifest from CDKTF synth output (`cdk.tf.json`). The engine reads this JSON only,
 * never construct objects, so any front end that writes it (or the YAML loader, which builds
 * the same `Manifest`) shares plan and apply.
 */
import { createHash, hash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Manifest, ManifestResource, RESOURCE_SCHEMAS, RESOURCE_TYPES, type ResourceType } from '../../schemas/model/manifest';
import type { Diagnostic } from '../../schemas/model/plan';
import { jsonPieces, mapKeysDeepSorted, mapKeysDeepSortedOwned, snakeToCamel, stableStringify } from './keys';
import { parseAddress } from './identity';
import { TYPE_PREFIX } from '../kinds/descriptors';
import { parseFast } from '../../schemas/tools/lean';
import { listedStacks, ManifestError } from './listed-stacks';
import { withLoaderWarnings } from './loader-warnings';

export { listedStacks, ManifestError };


const META_KEYS = new Set(['//', 'lifecycle', 'depends_on', 'provider', 'count', 'for_each', 'provisioner', 'connection']);

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

type Report = (summary: string, extra?: Partial<Diagnostic>) => void;

/**
 * Turns a Terraform JSON document into a manifest. Collects every problem and throws one
 * {@link ManifestError}. `file` names the source in messages. Warnings without an error go with
 * the manifest (./loader-warnings.ts): resolution shows them. `consume`: the document is the
 * loader's own (fresh from `JSON.parse`), so each resource body is let go of once converted
 * (less of it lives long enough to be promoted to V8's old generation, issue 27); otherwise the
 * document is left as it was.
 */
export function manifestFromTerraformJson(doc: unknown, opts: { stack: string; file?: string; consume?: boolean }): Manifest {
  const diags: Diagnostic[] = [];
  const where = opts.file ?? `stack ${opts.stack}`;
  const err: Report = (summary, extra = {}) => diags.push({ severity: 'error', summary, ...extra });
  if (!isObj(doc)) throw new ManifestError([{ severity: 'error', summary: `${where}: not a Terraform JSON object`, hint: 'Re-run `dqform synth`.' }]);

  const providers = isObj(doc.provider) ? doc.provider : {};
  const dq = Array.isArray(providers.dq) ? providers.dq : isObj(providers.dq) ? [providers.dq] : [];
  const provider = (dq[0] ?? {}) as Json;
  const namespace = typeof provider.namespace === 'string' ? provider.namespace : '';
  if (!namespace) {
    err(`${where}: the stack has no namespace`, { hint: 'Declare the stack with `new DqStack(app, id, { namespace })` (provider "dq" needs a namespace).' });
  }
  const resources = tfResources(doc, diags, err, opts.consume === true);
  const { moved, imports, removed } = tfBlocks(doc, resources, err);
  const manifest = {
    formatVersion: 1 as const,
    stack: opts.stack,
    namespace,
    region: typeof provider.region === 'string' ? provider.region : undefined,
    baseUrl: typeof provider.base_url === 'string' ? provider.base_url : undefined,
    grpcEndpoint: typeof provider.grpc_endpoint === 'string' ? provider.grpc_endpoint : undefined,
    credentialsFrom: credentialsFromJson(provider.credentials_from),
    resources,
    moved,
    imports,
    removed,
  };
  // built here and held by no one else: the parse keeps what already is its own output
  const parsed = parseFast(Manifest, manifest, { owned: true });
  if (!parsed.success) {
    for (const i of parsed.error.issues) err(`${where}: ${i.path.join('.')}: ${i.message}`);
  }
  if (diags.some((d) => d.severity === 'error')) throw new ManifestError(diags);
  const m = inCanonicalOrder(parsed.data as Manifest, resources);
  CANONICAL.add(m);
  return withLoaderWarnings(m, diags);
}

/**
 * The manifests this loader made: in canonical form by construction (keys sorted at every
 * depth, test/engine/manifest-hash.test.ts), and only read after (no engine code writes to a
 * manifest), so {@link manifestHash} serialises them without walking them first to check.
 */
const CANONICAL = new WeakSet<Manifest>();

/** The `resource` block's dqform resources, by type and name (other providers' types: a warning). */
function tfResources(doc: Json, diags: Diagnostic[], err: Report, consume: boolean): ManifestResource[] {
  const resources: ManifestResource[] = [];
  const resBlock = isObj(doc.resource) ? doc.resource : {};
  for (const type of Object.keys(resBlock).sort()) {
    const byName = resBlock[type];
    if (!type.startsWith(TYPE_PREFIX)) {
      foreignResources(type, byName, diags);
      continue;
    }
    if (!(RESOURCE_TYPES as string[]).includes(type)) {
      err(`unknown resource type ${type}`, { address: type, hint: `dqform manages ${RESOURCE_TYPES.join(', ')}.` });
      continue;
    }
    if (!isObj(byName)) {
      err(`resource.${type} must be an object of named resources`, { address: type });
      continue;
    }
    for (const name of Object.keys(byName).sort()) {
      const raw = byName[name];
      if (!isObj(raw)) err('resource body must be an object', { address: `${type}.${name}` });
      else resources.push(tfResource(type as ResourceType, name, raw, err, consume));
      if (consume) byName[name] = undefined;
    }
  }
  return resources;
}

/** How many addresses a warning about another provider's resources lists before "and N more". */
const FOREIGN_LISTED = 5;

/**
 * One warning per type of another provider (dqform ignores its resources): how many, their
 * addresses (sorted; at most {@link FOREIGN_LISTED}, then "and N more"), the first one's
 * construct path. One line per type, not per resource: a stack of many makes few lines.
 */
function foreignResources(type: string, byName: unknown, diags: Diagnostic[]): void {
  const hint = `dqform plans and applies dq_* resources only: deploy ${type} with its own provider (cdktf deploy). Nothing to do if that is intended.`;
  if (!isObj(byName)) {
    diags.push({ severity: 'warning', summary: `resource type ${type} is not dqform's and is ignored`, address: type, hint });
    return;
  }
  const names = Object.keys(byName).sort();
  if (names.length === 0) return;
  const first = byName[names[0]];
  const meta = isObj(first) && isObj(first['//']) && isObj((first['//'] as Json).metadata) ? ((first['//'] as Json).metadata as Json) : {};
  const source = typeof meta.path === 'string' ? { source: meta.path } : {};
  const listed = names.slice(0, FOREIGN_LISTED).map((n) => `${type}.${n}`).join(', ');
  const more = names.length > FOREIGN_LISTED ? ` and ${names.length - FOREIGN_LISTED} more` : '';
  const what = names.length === 1 ? `1 resource of type ${type} is not dqform's and is ignored` : `${names.length} resources of type ${type} are not dqform's and are ignored`;
  diags.push({ severity: 'warning', summary: `${what}: ${listed}${more}`, address: type, ...source, hint });
}

/** One resource body: its attributes in camelCase, construct path, lifecycle and depends_on. */
function tfResource(type: ResourceType, name: string, raw: Json, err: Report, owned: boolean): ManifestResource {
  const address = `${type}.${name}`;
  const meta = isObj(raw['//']) && isObj((raw['//'] as Json).metadata) ? ((raw['//'] as Json).metadata as Json) : {};
  const source = typeof meta.path === 'string' ? meta.path : undefined;
  for (const k of ['count', 'for_each', 'provisioner', 'connection']) {
    if (k in raw) err(`"${k}" is not supported by dqform`, { address, source, field: k, hint: 'Declare one construct per object.' });
  }
  // one copy of the attributes, camelCased and key-sorted (the manifest hash's canonical order);
  // of the loader's own document, its arrays and the objects already so are kept, not copied
  const config = (owned ? mapKeysDeepSortedOwned : mapKeysDeepSorted)(raw, snakeToCamel, META_KEYS) as Json;
  const lc = isObj(raw.lifecycle) ? raw.lifecycle : {};
  const ignore = lc.ignore_changes;
  if (ignore !== undefined && !Array.isArray(ignore) && ignore !== 'all' && ignore !== 'ALL') {
    err('lifecycle.ignore_changes must be a list of attribute names, or "all"', { address, source, field: 'lifecycle.ignore_changes', hint: `Write ignore_changes: [${JSON.stringify(ignore)}].` });
  }
  if (Array.isArray(ignore) && ignore.some((p) => typeof p !== 'string')) {
    err('lifecycle.ignore_changes must list attribute names as strings', { address, source, field: 'lifecycle.ignore_changes' });
  }
  // members only when set, keys in sorted order: the manifest's canonical form (manifestHash)
  const lifecycle: ManifestResource['lifecycle'] = {};
  if (ignore === 'all' || ignore === 'ALL') lifecycle.ignoreChanges = 'all';
  else if (Array.isArray(ignore)) lifecycle.ignoreChanges = ignore.map((p) => String(p).split('.').map(snakeToCamel).join('.'));
  if (lc.prevent_destroy === true) lifecycle.preventDestroy = true;
  const dependsOn = Array.isArray(raw.depends_on) ? raw.depends_on.map(String) : [];
  // in sorted order, `source` only when known: the resource is its own parse output (no copy)
  return source === undefined ? { address, config, dependsOn, lifecycle, name, type } : { address, config, dependsOn, lifecycle, name, source, type };
}

/**
 * `m` with the keys of its top level, resources, lifecycles, import and removed blocks in sorted order
 * (zod writes its output in the schema's order): the configs and the credentials are sorted by
 * the loader already, so the whole
 * manifest is in canonical form and {@link manifestHash} serialises it with JSON.stringify
 * alone. Objects already in order are kept; nothing deeper is copied.
 */
function inCanonicalOrder(m: Manifest, built: readonly ManifestResource[]): Manifest {
  // the resources as the loader built them (the parse kept every one: the same array), each with
  // its lifecycle, are in sorted order already (tfResource): not looked at again
  const resources =
    m.resources === built
      ? m.resources
      : m.resources.map((r) => {
          const lifecycle = sortedShallow(r.lifecycle);
          return sortedShallow(lifecycle === r.lifecycle ? r : { ...r, lifecycle });
        });
  return sortedShallow({ ...m, resources, imports: m.imports.map((i) => sortedShallow(i)), removed: m.removed.map((r) => sortedShallow(r)) });
}

function sortedShallow<T extends object>(o: T): T {
  const keys = Object.keys(o);
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++) if (keys[i - 1] > keys[i]) sorted = false;
  if (sorted) return o;
  const out: Record<string, unknown> = {};
  for (const k of keys.sort()) out[k] = (o as Record<string, unknown>)[k];
  return out as T;
}

/** The `moved`, `import` and `removed` blocks, checked against the declared resources. */
function tfBlocks(doc: Json, resources: readonly ManifestResource[], err: Report) {
  const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObj) : isObj(v) ? [v] : []);
  const moved = list(doc.moved).map((m) => ({ from: String(m.from ?? ''), to: String(m.to ?? '') }));
  const imports = list(doc.import).map((m) => ({ to: String(m.to ?? ''), id: String(m.id ?? '') }));
  const removed = list(doc.removed).map((m) => ({
    from: String(m.from ?? ''),
    destroy: isObj(m.lifecycle) ? m.lifecycle.destroy !== false : true,
    ...(typeof m.id === 'string' && m.id ? { id: m.id } : {}),
  }));
  const seenRemoved = new Set<string>();
  for (const r of removed) {
    if (seenRemoved.has(r.from)) err(`${r.from} is declared removed twice`, { address: r.from, hint: 'Keep one removed declaration per address.' });
    seenRemoved.add(r.from);
  }
  const addresses = new Set(resources.map((r) => r.address));
  for (const m of moved) {
    if (!parseAddress(m.from) || !parseAddress(m.to)) err(`moved block needs "from" and "to" addresses; got ${JSON.stringify(m)}`);
    else if (!addresses.has(m.to)) err(`moved block points to ${m.to}, which is not declared`, { address: m.to, hint: 'Move to an address that exists in this stack.' });
    else if (addresses.has(m.from)) err(`moved block moves from ${m.from}, which is still declared`, { address: m.from, hint: 'Remove the old construct or the moved block.' });
  }
  for (const i of imports) {
    if (!addresses.has(i.to)) err(`import block targets ${i.to}, which is not declared`, { address: i.to, hint: 'Declare the construct the object is imported into.' });
    if (!i.id) err(`import block for ${i.to} has no id`, { address: i.to });
  }
  for (const r of removed) {
    const a = parseAddress(r.from);
    if (!a || !(RESOURCE_TYPES as string[]).includes(a.type)) err(`removed block needs a dq_* address; got "${r.from}"`);
    else if (addresses.has(r.from)) err(`${r.from} is declared and removed at once`, { address: r.from, hint: 'Delete the construct, or drop the removed declaration.' });
  }
  return { moved, imports, removed };
}

/** `provider.dq.credentials_from` ({ client_id, client_secret }: variable names) as the manifest's `credentialsFrom`. */
function credentialsFromJson(v: unknown): unknown {
  if (v === undefined || v === null) return undefined;
  if (!isObj(v)) return v; // the schema says what is wrong
  return mapKeysDeepSorted(v, snakeToCamel);
}


/** Reads `cdktf.out/stacks/<stack>/cdk.tf.json` (or a file path) into a manifest. */
export function loadSynthOutput(dirOrFile: string, stack?: string): Manifest {
  let file = dirOrFile;
  let stackName = stack;
  if (fs.existsSync(dirOrFile) && fs.statSync(dirOrFile).isDirectory()) {
    const stacksDir = path.join(dirOrFile, 'stacks');
    const stacks = listedStacks(dirOrFile).stacks;
    if (!stackName) {
      if (stacks.length !== 1) {
        throw new ManifestError([
          {
            severity: 'error',
            summary: stacks.length === 0 ? `no synthesised stacks in ${dirOrFile}` : `several stacks in ${dirOrFile}: ${stacks.join(', ')}`,
            hint: stacks.length === 0 ? 'Run `dqform synth` first.' : `Choose one with --stack (e.g. --stack ${stacks[0]}), or run every stack in turn with --all-stacks.`,
          },
        ]);
      }
      stackName = stacks[0];
    } else if (!stacks.includes(stackName)) {
      // a name, never a path: `--stack ../../x` (or a plan file's stack) must not read desired
      // state from outside the synth output
      throw new ManifestError([
        {
          severity: 'error',
          summary: `no stack ${JSON.stringify(stackName)} in ${dirOrFile}${stacks.length ? ` (it holds ${stacks.join(', ')})` : ''}`,
          hint: stacks.length ? `Name one of the synthesised stacks with --stack (e.g. --stack ${stacks[0]}).` : 'Run `dqform synth` first.',
        },
      ]);
    }
    file = path.join(stacksDir, stackName, 'cdk.tf.json');
  }
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new ManifestError([{ severity: 'error', summary: `cannot read ${file}`, hint: 'Run `dqform synth` first, or check --stack.' }]);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new ManifestError([{ severity: 'error', summary: `${file} is not valid JSON: ${(e as Error).message}`, hint: 'Re-run `dqform synth`; do not edit synth output by hand.' }]);
  }
  // the text (MBs at 10,000 objects) let go of before the conversion: a scavenge meanwhile would
  // promote it to the old generation, which no full GC collects before a plan ends (issue 27)
  text = '';
  return manifestFromTerraformJson(doc, { stack: stackName ?? path.basename(path.dirname(file)), file, consume: true });
}

/**
 * The other stacks in a synth output directory besides `stack`, for the checks that span an
 * app (two stacks declaring one object, or sharing a namespace). A stack that does not load is
 * left out: its own plan reports why.
 */
export function loadSiblingStacks(dir: string, stack: string): { stack: string; namespace: string; manifest: Manifest }[] {
  const out: { stack: string; namespace: string; manifest: Manifest }[] = [];
  let names: string[];
  try {
    names = listedStacks(dir).stacks;
  } catch (e) {
    if (!(e instanceof ManifestError)) throw e;
    return []; // the stack's own load reports it
  }
  for (const name of names) {
    if (name === stack) continue;
    try {
      const manifest = loadSynthOutput(dir, name);
      out.push({ stack: name, namespace: manifest.namespace, manifest });
    } catch (e) {
      if (!(e instanceof ManifestError)) throw e;
    }
  }
  return out;
}

/** sha256 of the manifest's canonical JSON: a plan records which manifest it came from. */
export function manifestHash(m: Manifest): string {
  if (!CANONICAL.has(m)) return hash('sha256', stableStringify(m), 'hex');
  // JSON.stringify(m) hashed in pieces: no MB-sized string made (it would stay until a full GC)
  const h = createHash('sha256');
  for (const p of jsonPieces(m as unknown as Record<string, unknown>, 'resources')) h.update(p);
  return h.digest('hex');
}

export { RESOURCE_SCHEMAS };
