/**
 * Resolution: from a manifest and the workspace to resources with ids, fqns, references
 * replaced and desired configs validated. Pure: no I/O. Every problem is collected.
 */
import { z } from 'zod';
import type { Manifest, ManifestResource, ResourceType, Lifecycle } from '../../schemas/model/manifest';
import { RESOURCE_SCHEMAS } from '../../schemas/model/manifest';
import type { Diagnostic } from '../../schemas/model/plan';
import { checkResolverQlText, ResolverQlError } from '../../schemas/tools/resolverql';
import { ALIAS_USES, deprecatedEnums } from '../../schemas/platform/wire';
import { LEAN_REFUSED, leanParseKnown, parseFast } from '../../schemas/tools/lean';
import { bareId, defaultFqn, deriveId, ENTITY_ID_PREFIX, idOwner, namespaceOfId, parseAddress } from './identity';
import { camelToSnake } from './keys';
import { loaderWarnings } from './loader-warnings';
import { closest, fieldPathProblem, nearestAddress, unknownFields } from './unknown-fields';
import { closestName } from '../../schemas/tools/did-you-mean';
import { textFieldProblems, textHasProblem } from '../../schemas/tools/text-checks';
import { isFqnKeyed, kindOf, KINDS, UUID_KINDS, type KindDescriptor } from '../kinds/descriptors';
import { configProblems } from '../kinds/validation';

export interface ResolvedResource {
  address: string;
  type: ResourceType;
  name: string;
  /** Platform id: derived, pinned, or adopted through an import block. Alerts: see `fqn`. */
  id: string;
  /** Alerts only: the fqn that addresses them. */
  fqn?: string;
  /** The validated desired config, references resolved (parsed with RESOURCE_SCHEMAS[type]). */
  desired: Record<string, unknown>;
  lifecycle: Lifecycle;
  source?: string;
  /** Addresses this one refers to or explicitly depends on. */
  dependsOn: string[];
  movedFrom?: string;
  /** Live id (or fqn for alerts) adopted through an import block. */
  importedId?: string;
}

export interface RemovedResource {
  address: string;
  type: ResourceType;
  id: string;
  fqn?: string;
  /** The id was given in the removed block (not derived from the address). */
  explicitId?: boolean;
  /** false: stop managing the object and leave it in place (`lifecycle { destroy = false }`). */
  destroy: boolean;
}

/** Another stack of the same app, as far as identity goes: checked for objects both declare. */
export interface SiblingStack {
  stack: string;
  namespace: string;
  manifest: Manifest;
}

export interface ResolveOptions {
  /** The other stacks of the app (cdktf.out): two stacks must not declare the same object. */
  siblings?: readonly SiblingStack[];
  /**
   * The workspace is a stand-in (offline `validate`): ids are still derived consistently, but
   * which namespace a pinned id's tag belongs to cannot be told, so that check is skipped.
   */
  offline?: boolean;
  /**
   * Called with each resource once its desired object is made (src/cli/desired.ts: its
   * normalised form, made there and then): the object it answers becomes the resource's
   * `desired`. It must answer an object with the same members (only their order may differ), or
   * the desired object itself.
   */
  settle?: (type: ResourceType, desired: Record<string, unknown>) => Record<string, unknown>;
}

/** One resource's identity: its derived, pinned or imported id (alerts: the fqn). */
interface Identity {
  r: ManifestResource;
  /** `r.type`: an identity is what a reference to `r` resolves against. */
  type: ResourceType;
  id: string;
  fqn?: string;
  movedFrom?: string;
  importedId?: string;
  /** The id (or fqn) was pinned in the config. */
  pinned: boolean;
}

export interface Resolution {
  workspace: string;
  namespace: string;
  stack: string;
  resources: ResolvedResource[];
  removed: RemovedResource[];
  diagnostics: Diagnostic[];
}

const REF = /\$\{([a-z][a-z0-9_]*)\.([^.}\s]+)\.([a-z_]+)\}/g;

/** The form of a reference's attribute value. */
function refValue(target: { type: ResourceType; id: string; fqn?: string }, attr: string): string | undefined {
  if (attr === 'id') return isFqnKeyed(target.type) ? target.fqn : target.id;
  if (attr === 'entity_id') {
    const p = ENTITY_ID_PREFIX[target.type];
    return p ? `${p}${target.id}` : undefined;
  }
  if (attr === 'fqn' && isFqnKeyed(target.type)) return target.fqn;
  return undefined;
}

function fieldPath(path: PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

/** Resolves identity, references and validation for every resource of the manifest. */
export function resolveManifest(manifest: Manifest, workspace: string, opts: ResolveOptions = {}): Resolution {
  // first, the loader's warnings (a resource of another provider...): shown with the resolution's
  const diags: Diagnostic[] = loaderWarnings(manifest);
  const { namespace } = manifest;
  // 1. identities
  // the identities themselves by address (what a reference reads: type, id, fqn)
  const idents = new Map<string, { type: ResourceType; id: string; fqn?: string }>();
  const pre = identitiesOf(manifest, workspace, diags);
  for (const p of pre) idents.set(p.r.address, p);
  holdsIdentityInfo(pre, diags);
  if (!opts.offline) foreignTags(pre, workspace, namespace, opts.siblings ?? [], diags);
  if (opts.siblings?.length) sharedWithSiblings(manifest, pre, workspace, opts.siblings, diags);
  // 2. duplicates
  duplicateIdentities(pre, diags);
  // 3. references, validation
  const resources: ResolvedResource[] = [];
  for (const p of pre) {
    const { config, deps } = resolveReferences(p.r, idents, diags);
    const valid = validatedConfig(p, config, diags);
    if (!valid) continue;
    const desired = opts.settle ? opts.settle(p.r.type, valid) : valid;
    resources.push({
      address: p.r.address,
      type: p.r.type,
      name: p.r.name,
      id: p.id,
      fqn: p.fqn,
      desired,
      lifecycle: p.r.lifecycle,
      source: p.r.source,
      dependsOn: deps === undefined ? [] : [...deps].filter((d) => d !== p.r.address).sort(),
      movedFrom: p.movedFrom,
      importedId: p.importedId,
    });
  }
  // 4. cycles through a parent field (domains' parentId)
  for (const k of KINDS) if (k.parentField) parentCycles(k, resources, diags);
  // 5. removed declarations
  const removed = removedDeclarations(manifest, workspace);
  // 6. dependency cycles (explicit depends_on and references)
  dependencyCycles(resources, diags);
  resources.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  return { workspace, namespace, stack: manifest.stack, resources, removed, diagnostics: diags };
}

/** Two declarations with one id (or fqn): an error on the second. */
function duplicateIdentities(pre: readonly Identity[], diags: Diagnostic[]): void {
  // by type, then by id (a kind keyed by fqn: by fqn); no key string made per resource
  const seen = new Map<ResourceType, Map<string | undefined, string>>();
  for (const p of pre) {
    const byFqn = isFqnKeyed(p.r.type);
    let ofType = seen.get(p.r.type);
    if (ofType === undefined) seen.set(p.r.type, (ofType = new Map()));
    const key = byFqn ? p.fqn : p.id;
    const other = ofType.get(key);
    if (other) {
      diags.push({
        severity: 'error',
        summary: `${byFqn ? `fqn "${p.fqn}"` : `id ${p.id}`} is declared twice (${other} and ${p.r.address})`,
        address: p.r.address,
        source: p.r.source,
        hint: 'Pin a different id or fqn on one of them.',
      });
    } else ofType.set(key, p.r.address);
  }
}

/** The config of `r` with its references (`${dq_x.name.id}`) replaced by their values, and the addresses it refers to. */
function resolveReferences(r: ManifestResource, idents: ReadonlyMap<string, { type: ResourceType; id: string; fqn?: string }>, diags: Diagnostic[]): { config: Record<string, unknown>; deps: Set<string> | undefined } {
  // made when there is one (most resources depend on nothing: no set and no arrays for them)
  let deps = r.dependsOn.length ? new Set(r.dependsOn) : undefined;
  // most configs hold no reference: one scan, and no path, closure or copy made for them
  if (!holdsReference(r.config)) return { config: r.config, deps };
  // Where `walk` is (keys from the config's root): text only when a reference is reported.
  const at: (string | number)[] = [];
  const resolveStr = (s: string): string =>
    !s.includes('${') ? s : s.replace(REF, (whole, type: string, name: string, attr: string) => {
      const addr = `${type}.${name}`;
      const target = idents.get(addr);
      const v = target ? refValue(target, attr) : undefined;
      if (!target || v === undefined) {
        const near = target ? undefined : nearestAddress(type, name, idents.keys());
        const attrNear = target ? closestName(attr, ['id', 'entity_id', 'fqn'].filter((a) => refValue(target, a) !== undefined)) : undefined;
        diags.push({
          severity: 'error',
          summary: target
            ? `reference ${whole} names an attribute dqform does not know${attrNear ? ` (did you mean .${attrNear}?)` : ''}`
            : `reference ${whole} points to nothing${near ? ` (did you mean \${${near}.${attr}}?)` : ''}`,
          address: r.address,
          source: r.source,
          field: fieldPath(at),
          hint: target ? 'Use .id or .entity_id.' : `Declare ${addr} in this stack, or remove the reference (references across stacks are not supported).`,
        });
        return whole;
      }
      (deps ??= new Set()).add(addr);
      return v;
    });
  const config = walkStrings(r.config, resolveStr, at) as Record<string, unknown>;
  // read after the walk: the resolver adds to it
  return { config, deps };
}

/** True when a string in `v` (at any depth) holds `${`: {@link walkStrings} with the resolver could change it. */
function holdsReference(v: unknown): boolean {
  if (typeof v === 'string') return v.includes('${');
  if (v === null || typeof v !== 'object') return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (holdsReference(v[i])) return true;
    return false;
  }
  for (const k in v) if (holdsReference((v as Record<string, unknown>)[k])) return true;
  return false;
}

/**
 * `v` with `f` applied to every string in it, copy on write: a value holding no changed string
 * is kept as it is (the config is only read). `at` holds the keys from the root down to the
 * string `f` is called on.
 */
function walkStrings(v: unknown, f: (s: string) => string, at: (string | number)[]): unknown {
  if (typeof v === 'string') return f(v);
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      at.push(i);
      const x = walkStrings(v[i], f, at);
      at.pop();
      if (x !== v[i]) (out ??= v.slice())[i] = x;
    }
    return out ?? v;
  }
  if (v && typeof v === 'object') {
    let out: Record<string, unknown> | undefined;
    for (const k in v) {
      const y = (v as Record<string, unknown>)[k];
      at.push(k);
      const x = walkStrings(y, f, at);
      at.pop();
      if (x !== y) (out ??= { ...(v as Record<string, unknown>) })[k] = x;
    }
    return out ?? v;
  }
  return v;
}

/** The desired object of a resolved config, or undefined when it has unknown fields or fails its schema (errors in `diags`). */
function validatedConfig(p: Identity, config: Record<string, unknown>, diags: Diagnostic[]): Record<string, unknown> | undefined {
  const r = p.r;
  const schema = RESOURCE_SCHEMAS[r.type] as unknown as z.ZodType<Record<string, unknown>>;
  ignoreChangesProblems(r, schema, diags);
  const aliasUses = ALIAS_USES.count;
  // one walk for almost every config: the parse refusing any undeclared key; else the exact path
  // below (unknownKeys, then parseFast, with their messages)
  const known = leanParseKnown(schema, config);
  if (known !== LEAN_REFUSED) return checkedDesired(p, schema, config, known as Record<string, unknown>, aliasUses, diags);
  const unknown = unknownFields(schema, config);
  for (const u of unknown) {
    const field = fieldPath([...u.path, u.key]);
    const near = closest(u.key, u.known);
    diags.push({
      severity: 'error',
      summary: `${field}: unknown field "${u.key}"${near ? ` (did you mean "${near}"?)` : ''}`,
      address: r.address,
      source: r.source,
      field,
      hint: `Remove it or correct its name in ${r.source ?? r.address}; known fields here: ${u.known.join(', ')}.`,
    });
  }
  if (unknown.length) return undefined;
  const parsed = parseFast(schema, config);
  if (!parsed.success) {
    for (const i of parsed.error.issues) {
      const field = fieldPath(i.path);
      diags.push({
        severity: 'error',
        summary: `${field ? `${field}: ` : ''}${i.message}`,
        address: r.address,
        source: r.source,
        field: field || undefined,
        hint: `Fix the ${field ? `"${field.split('.').map(camelToSnake).join('.')}" attribute` : 'resource'} in ${r.source ?? r.address}.`,
      });
    }
    return undefined;
  }
  return checkedDesired(p, schema, config, parsed.data, aliasUses, diags);
}

/** `desired` (the parse of `config`), its deprecated spellings and the checks zod does not make reported in `diags`. */
function checkedDesired(p: Identity, schema: z.ZodType<Record<string, unknown>>, config: Record<string, unknown>, desired: Record<string, unknown>, aliasUses: number, diags: Diagnostic[]): Record<string, unknown> {
  if (ALIAS_USES.count !== aliasUses) deprecatedSpellings(p.r, schema, config, diags);
  desiredProblems(p, desired, diags);
  return desired;
}

/** Warnings for deprecated enum spellings in a config. */
function deprecatedSpellings(r: ManifestResource, schema: z.ZodType<Record<string, unknown>>, config: Record<string, unknown>, diags: Diagnostic[]): void {
  for (const d of deprecatedEnums(schema, config)) {
    diags.push({
      severity: 'warning',
      summary: `${d.field}: "${d.old}" is a deprecated spelling; write "${d.now}"`,
      address: r.address,
      source: r.source,
      field: d.field,
      hint: `Replace "${d.old}" with "${d.now}" in ${r.source ?? r.address} (the platform's own name; the old spelling still works for now).`,
    });
  }
}

/** What the schema does not check of a desired object: the kind's config rules, ResolverQL, RRULEs, time zones, cron. */
function desiredProblems(p: Identity, desired: Record<string, unknown>, diags: Diagnostic[]): void {
  const r = p.r;
  for (const v of configProblems(r.type, desired, { fqn: p.fqn })) {
    diags.push({ severity: 'error', summary: `${v.field}: ${v.message}`, address: r.address, source: r.source, field: v.field, hint: v.hint });
  }
  // one walk for almost every config: which of the two walks below can find anything
  const ruleSchedule = kindOf(r.type)?.ruleSchedule === true;
  const texts = textsToCheck(desired, ruleSchedule);
  if (texts === 0) return;
  if (texts & QL_PROBLEM) checkResolverQl(
    desired,
    '',
    (field, message) => diags.push({ severity: 'error', summary: `${field}: ${message}`, address: r.address, source: r.source, field, hint: 'Fix the ResolverQL text.' }),
    (field, message) =>
      diags.push({
        severity: 'warning',
        summary: `${field}: ${message}`,
        address: r.address,
        source: r.source,
        field,
        hint: 'dqform cannot check this function offline; the platform does (plan previews it, apply refuses what the platform refuses). Check the spelling if it is not a platform function.',
      }),
  );
  // RRULEs (a SQL-test rule's with an inline DTSTART:), time zones, cron: caught here (validate, plan), not by the server at apply
  if (texts & GRAMMAR_PROBLEM) for (const t of textFieldProblems(desired, '', { ruleSchedule })) {
    diags.push({ severity: 'error', summary: `${t.field}: ${t.summary}`, address: r.address, source: r.source, field: t.field, hint: `Fix it in ${r.source ?? r.address}: ${t.hint}.` });
  }
}

/** The manifest's `removed` declarations with the ids they name. */
function removedDeclarations(manifest: Manifest, workspace: string): RemovedResource[] {
  const { namespace } = manifest;
  return manifest.removed.map((x) => {
    const a = parseAddress(x.from)!;
    const type = a.type as ResourceType;
    if (isFqnKeyed(type)) {
      const fqn = x.id ?? defaultFqn(namespace, a.name);
      return { address: x.from, type, id: fqn, fqn, explicitId: x.id !== undefined, destroy: x.destroy };
    }
    const id = x.id !== undefined ? canonicalId(type, x.id) : deriveId(workspace, namespace, type, a.name);
    return { address: x.from, type, id, explicitId: x.id !== undefined, destroy: x.destroy };
  });
}

/** Dependency cycles (explicit depends_on and references): an error naming the chain. */
function dependencyCycles(resources: readonly ResolvedResource[], diags: Diagnostic[]): void {
  // a resource that depends on nothing is on no cycle: only the others are walked (most
  // resources of a plan depend on nothing: no map entry and no visit for them, issue 27)
  const byAddr = new Map<string, ResolvedResource>();
  for (const r of resources) if (r.dependsOn.length > 0) byAddr.set(r.address, r);
  if (byAddr.size === 0) return;
  const state = new Map<string, 1 | 2>();
  // the addresses from the walk's start down to the resource being visited (one array, pushed and popped)
  const stack: string[] = [];
  const visit = (r: ResolvedResource): void => {
    if (state.get(r.address) === 2) return;
    if (state.get(r.address) === 1) {
      const chain = [...stack.slice(stack.indexOf(r.address)), r.address];
      diags.push({ severity: 'error', summary: `dependency cycle: ${chain.join(' -> ')}`, address: r.address, source: r.source, hint: 'Break the loop: a resource cannot (indirectly) depend on itself.' });
      return;
    }
    state.set(r.address, 1);
    stack.push(r.address);
    for (const d of r.dependsOn) {
      const dep = byAddr.get(d);
      if (dep) visit(dep);
    }
    stack.pop();
    state.set(r.address, 2);
  };
  for (const r of resources) if (r.dependsOn.length > 0) visit(r);
}

/**
 * `lifecycle.ignore_changes` must name fields the resource has: a misspelt or stale name would
 * silently ignore nothing (and the change it was meant to hold back would apply).
 */
function ignoreChangesProblems(r: ManifestResource, schema: z.ZodType, diags: Diagnostic[]): void {
  const ignore = r.lifecycle.ignoreChanges;
  if (!Array.isArray(ignore)) return;
  ignore.forEach((p, i) => {
    const parts = p.split('.');
    const problem = parts.some((x) => x === '') ? { at: '', key: p, known: [], why: 'unknown' as const } : fieldPathProblem(schema, parts);
    if (!problem) return;
    const written = parts.map(camelToSnake).join('.');
    const near = problem.why === 'unknown' ? closest(problem.key, problem.known) : undefined;
    diags.push({
      severity: 'error',
      summary:
        problem.why === 'unknown'
          ? `lifecycle.ignore_changes[${i}]: "${written}" is not a field of ${r.type}${problem.at ? ` (no "${camelToSnake(problem.key)}" in ${problem.at.split('.').map(camelToSnake).join('.')})` : ''}${near ? `; did you mean "${[...problem.at.split('.').filter(Boolean), near].map(camelToSnake).join('.')}"?` : ''}`
          : `lifecycle.ignore_changes[${i}]: "${written}" goes inside ${problem.at.split('.').map(camelToSnake).join('.')}, which has no fields to ignore separately`,
      address: r.address,
      source: r.source,
      field: `lifecycle.ignore_changes[${i}]`,
      hint: problem.known.length ? `Name a field of ${r.type}${problem.at ? ` under ${problem.at.split('.').map(camelToSnake).join('.')}` : ''}: ${problem.known.map(camelToSnake).join(', ')}.` : 'Ignore the whole field instead.',
    });
  });
}

/**
 * Finds `resolverQl` strings anywhere in a desired config and reports parse errors (`report`)
 * and functions dqform does not know (`warn`: the platform checks them).
 */
function checkResolverQl(v: unknown, path: string, report: (field: string, message: string) => void, warn: (field: string, message: string) => void = () => {}): void {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (v[i] && typeof v[i] === 'object') checkResolverQl(v[i], `${path}[${i}]`, report, warn);
    return;
  }
  if (!v || typeof v !== 'object') return;
  // a member's path is built only for a ResolverQL text or an object to descend into
  for (const k in v) {
    const x = (v as Record<string, unknown>)[k];
    if (k === 'resolverQl' && typeof x === 'string') {
      const problem = resolverQlProblem(x);
      if (problem === undefined) continue;
      const p = path ? `${path}.${k}` : k;
      if (problem.error !== undefined) report(p, problem.error);
      for (const w of problem.warnings) warn(p, w);
    } else if (x && typeof x === 'object') checkResolverQl(x, path ? `${path}.${k}` : k, report, warn);
  }
}

/** {@link textsToCheck}: a ResolverQL text with a parse error or a warning. */
const QL_PROBLEM = 1;
/** {@link textsToCheck}: a text `textFieldProblems` reports (schemas/tools/text-checks.ts `textHasProblem`). */
const GRAMMAR_PROBLEM = 2;

/**
 * What {@link checkResolverQl} and `textFieldProblems` can find in a desired config, in one walk
 * over the members they walk (objects' keys, at any depth, through arrays): {@link QL_PROBLEM}
 * when a `resolverQl` text has a problem, {@link GRAMMAR_PROBLEM} when an RRULE, time zone or
 * cron text has one (`ruleSchedule`: the kind's, kinds/descriptors.ts).
 */
function textsToCheck(v: unknown, ruleSchedule: boolean): number {
  let found = 0;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (v[i] && typeof v[i] === 'object') found |= textsToCheck(v[i], ruleSchedule);
    return found;
  }
  if (!v || typeof v !== 'object') return 0;
  for (const k in v) {
    const x = (v as Record<string, unknown>)[k];
    if (typeof x === 'string') {
      if (k === 'resolverQl') {
        if (resolverQlProblem(x) !== undefined) found |= QL_PROBLEM;
      } else if (textHasProblem(k, x, ruleSchedule)) found |= GRAMMAR_PROBLEM;
    } else if (x && typeof x === 'object') found |= textsToCheck(x, ruleSchedule);
  }
  return found;
}

/**
 * Memo of ResolverQL parse results (the parser is a pure function of the text; a manifest repeats
 * the same few texts across thousands of resources): the error message, or null when it parses.
 */
const qlProblems = new Map<string, { error?: string; warnings: string[] } | null>();
const QL_CACHE_MAX = 10_000;

/** The parse error and the unknown-function warnings of a ResolverQL text, or undefined when it is clean. Other errors are thrown. */
function resolverQlProblem(text: string): { error?: string; warnings: string[] } | undefined {
  let problem = qlProblems.get(text);
  if (problem === undefined) {
    try {
      const { warnings } = checkResolverQlText(text);
      problem = warnings.length ? { warnings: warnings.map((w) => w.message) } : null;
    } catch (e) {
      if (!(e instanceof ResolverQlError)) throw e;
      problem = { error: e.message, warnings: [] };
    }
    if (qlProblems.size >= QL_CACHE_MAX) qlProblems.clear();
    qlProblems.set(text, problem);
  }
  return problem ?? undefined;
}

export type { ManifestResource };

/** Errors for objects of kind `k` that are their own ancestor through `k.parentField`. */
function parentCycles(k: KindDescriptor, resources: readonly ResolvedResource[], diags: Diagnostic[]): void {
  const field = k.parentField as string;
  const prefix = k.identity.entityIdPrefix ?? '';
  const byRef = new Map<string, ResolvedResource>();
  for (const r of resources) if (r.type === k.type) byRef.set(r.id, r);
  for (const r of resources) {
    if (r.type !== k.type) continue;
    const chain = [r.address];
    let cur: ResolvedResource | undefined = r;
    while (cur) {
      const raw = cur.desired[field] as string | undefined;
      const parent = prefix && raw?.startsWith(prefix) ? raw.slice(prefix.length) : raw;
      if (!parent) break;
      const next = byRef.get(parent);
      if (!next) break;
      chain.push(next.address);
      if (next === r) {
        diags.push({ severity: 'error', summary: `${k.label} cycle: ${chain.join(' -> ')}`, address: r.address, source: r.source, field, hint: `A ${k.label} cannot be its own ancestor; break the loop.` });
        break;
      }
      if (chain.length > byRef.size + 1) break;
      cur = next;
    }
  }
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The canonical form of a caller-chosen id: the bare, lower-case UUID (`owner-<uuid>` accepted). */
function canonicalId(type: ResourceType, id: string): string {
  return UUID_KINDS.includes(type) ? bareId(id).toLowerCase() : id;
}

/** A pinned `id`, canonicalised; a malformed one is reported and ignored. */
function normalisePinnedId(r: ManifestResource, diags: Diagnostic[]): string | undefined {
  const raw = r.config.id;
  if (typeof raw !== 'string' || raw.includes('${')) return undefined;
  const id = canonicalId(r.type, raw);
  if (UUID_KINDS.includes(r.type) && !UUID_RE.test(id)) {
    diags.push({
      severity: 'error',
      summary: `id: "${raw}" is not a UUID`,
      address: r.address,
      source: r.source,
      field: 'id',
      hint: 'Pin a UUID (the platform lets the caller choose it), or drop id to let dqform derive one.',
    });
    return undefined;
  }
  return id;
}

/** Every resource's identity: pinned, imported (import block), carried by a moved block, or derived. */
function identitiesOf(manifest: Manifest, workspace: string, diags: Diagnostic[]): Identity[] {
  const { namespace } = manifest;
  const movedTo = new Map(manifest.moved.map((m) => [m.to, m.from]));
  const importTo = new Map(manifest.imports.map((i) => [i.to, i.id]));
  const anyMoved = movedTo.size > 0;
  const anyImport = importTo.size > 0;
  return manifest.resources.map((r) => {
    const from = anyMoved ? movedTo.get(r.address) : undefined;
    const fromName = from ? parseAddress(from)?.name : undefined;
    if (from && parseAddress(from)?.type !== r.type) {
      diags.push({ severity: 'error', summary: `moved block changes the type (${from} -> ${r.address})`, address: r.address, hint: 'A moved block keeps the resource type.' });
    }
    const identityName = fromName ?? r.name;
    const pinnedId = normalisePinnedId(r, diags);
    const importedId = anyImport ? importTo.get(r.address) : undefined;
    const byFqn = isFqnKeyed(r.type);
    if (byFqn) {
      const pinnedFqn = typeof r.config.fqn === 'string' ? r.config.fqn : undefined;
      const fqn = pinnedFqn ?? defaultFqn(namespace, identityName);
      return { r, type: r.type, id: importedId ?? fqn, fqn, movedFrom: from, importedId, pinned: pinnedFqn !== undefined };
    }
    const id = pinnedId ?? importedId ?? deriveId(workspace, namespace, r.type, identityName);
    return { r, type: r.type, id, fqn: undefined, movedFrom: from, importedId, pinned: pinnedId !== undefined };
  });
}

/**
 * dqform keeps no state: an import or moved block (or a pin) is what holds an identity. One
 * info line per plan lists the blocks that do, instead of a warning per resource.
 */
function holdsIdentityInfo(pre: readonly Identity[], diags: Diagnostic[]): void {
  const held = pre.filter((p) => (p.importedId || p.movedFrom) && !p.pinned);
  if (held.length === 0) return;
  const imports = held.filter((p) => p.importedId).length;
  const moved = held.length - imports;
  const what = [moved ? `${moved} moved` : '', imports ? `${imports} import` : ''].filter(Boolean).join(' and ');
  const pin = (p: Identity) => (isFqnKeyed(p.r.type) ? `fqn = ${JSON.stringify(p.importedId ?? p.fqn)}` : `id = ${JSON.stringify(p.importedId ?? p.id)}`);
  diags.push({
    severity: 'info',
    summary: `${what} block(s) hold the identity of ${held.length === 1 ? 'their object' : 'their objects'}: keep them, or pin the id/fqn (dqform keeps no state; without either, a later plan replaces the object)`,
    detail: held
      .map((p) => `${p.r.address}: ${p.importedId ? `imported ${JSON.stringify(p.importedId)}` : `moved from ${p.movedFrom}`}, or pin ${pin(p)}`)
      .sort()
      .join('; '),
  });
}

/**
 * A pinned or imported id that carries another namespace's tag belongs to that namespace's
 * stack: declaring it here too would make two stacks fight over one object.
 */
function foreignTags(pre: readonly Identity[], workspace: string, namespace: string, siblings: readonly SiblingStack[], diags: Diagnostic[]): void {
  for (const p of pre) {
    if (isFqnKeyed(p.r.type) || !(p.pinned || p.importedId)) continue;
    const id = bareId(p.importedId ?? p.id).toLowerCase();
    if (idOwner(id, workspace, namespace) !== 'other') continue;
    const ns = namespaceOfId(id, workspace, siblings.map((s) => s.namespace));
    const sib = siblings.find((s) => s.namespace === ns);
    const theirs = sib ? `namespace "${ns}" (stack "${sib.stack}" of this app)` : 'another namespace';
    diags.push({
      severity: 'error',
      summary: `${p.importedId ? 'imported' : 'pinned'} id ${JSON.stringify(id)} carries the tag of ${theirs}, not of namespace "${namespace}" (this stack): two stacks would manage one object`,
      address: p.r.address,
      source: p.r.source,
      field: p.importedId ? undefined : 'id',
      hint: `An object belongs to the namespace its id is tagged with. Manage it in ${sib ? `stack "${sib.stack}"` : 'the stack of that namespace'}, or drop the ${p.importedId ? 'import block' : 'pinned id'} so that this stack creates its own object.`,
    });
  }
}

/** Two stacks of one app must not share a namespace or declare the same object. */
function sharedWithSiblings(manifest: Manifest, pre: readonly Identity[], workspace: string, siblings: readonly SiblingStack[], diags: Diagnostic[]): void {
  const keyOf = (p: Identity) => `${p.r.type}\u0000${isFqnKeyed(p.r.type) ? (p.importedId ?? p.fqn) : bareId(p.importedId ?? p.id).toLowerCase()}`;
  const mine = new Map(pre.map((p) => [keyOf(p), p]));
  for (const s of [...siblings].sort((a, b) => (a.stack < b.stack ? -1 : 1))) {
    if (s.stack === manifest.stack) continue;
    if (s.namespace === manifest.namespace) {
      diags.push({
        severity: 'error',
        summary: `stacks "${manifest.stack}" and "${s.stack}" both use namespace "${manifest.namespace}": each would delete what only the other declares`,
        hint: 'Give every stack its own namespace.',
      });
      continue;
    }
    for (const q of identitiesOf(s.manifest, workspace, [])) {
      const p = mine.get(keyOf(q));
      if (!p) continue;
      const what = isFqnKeyed(p.r.type) ? `alert fqn ${JSON.stringify(p.importedId ?? p.fqn)}` : `${p.r.type.replace(/^dq_/, '').replace(/_/g, ' ')} ${JSON.stringify(bareId(p.importedId ?? p.id).toLowerCase())}`;
      diags.push({
        severity: 'error',
        summary: `${p.r.address} (stack "${manifest.stack}", namespace "${manifest.namespace}") and ${q.r.address} (stack "${s.stack}", namespace "${s.namespace}") declare the same ${what}: two stacks would fight over it`,
        address: p.r.address,
        source: p.r.source,
        hint: 'Declare it in one stack only; in the other, drop it (removed { from, id, lifecycle { destroy = false } } leaves it in place).',
      });
    }
  }
}
