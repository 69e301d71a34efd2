/**
 * Terraform's plan modes and flags, as pure phases of the planner:
 *
 * - **destroy** (`dqform destroy`, `plan --destroy`): the plan deletes everything the namespace
 *   owns (configId = namespace; an id carrying the namespace tag), as if the code declared
 *   nothing. Deletions of declared objects are named by their declarations, and
 *   `lifecycle.preventDestroy` refuses them ({@link destroyDeclared}).
 * - **--target ADDR**: only the targeted changes and the changes of what they depend on (in a
 *   destroy plan: what depends on them, which must go too) ({@link narrowToTargets}).
 * - **--replace ADDR**: a declared object that exists is destroyed and created anew (in the
 *   planner; reason code `replace-requested`).
 * - **--refresh-only**: nothing is proposed; how live state differs from the code is listed as
 *   drift ({@link asRefreshOnly}). dqform keeps no state file, so "changed outside dqform"
 *   means "live differs from the code".
 *
 * An address that neither the code nor live state knows is an error with a "did you mean"
 * ({@link checkRequestedAddresses}).
 */
import * as jsonpatch from 'fast-json-patch';
import { RESOURCE_TYPES, type ResourceType } from '../../schemas/model/manifest';
import { isFqnKeyed, TAG_PRUNED_TYPES } from '../kinds/descriptors';
import type { Change, Diagnostic, Drift, PatchOp, PlanRequest, Reason } from '../../schemas/model/plan';
import type { LiveObject } from '../kinds/shared/types';
import { bareId, carriesTag } from './identity';
import type { ResolvedResource, Resolution } from './resolve';
import { closest } from './unknown-fields';
import { because } from './reasons';
import { DqformError } from '../../schemas/tools/errors';

type LiveState = Partial<Record<ResourceType, LiveObject[]>>;

/** A live key as the planner compares it: alerts by fqn, the other kinds by bare id, lower case. */
const keyOf = (type: string, id: string) => `${type}\u0000${isFqnKeyed(type) ? id : bareId(id).toLowerCase()}`;

/**
 * A text that is not the address of a dqform resource (`--target`, `--replace`, `dqform output`):
 * the CLI adds the flag and the pointer to the command's help (a `UsageError` of its own).
 */
export class AddressError extends DqformError {
  static override readonly code: string = 'usage.address';
  override readonly name = 'AddressError';
}

/**
 * A resource address given on the command line, in its canonical form: `dq_alert.orders`, or
 * `dq_alert["shop.retired"]` for an object the code does not declare (also accepted:
 * `dq_alert['shop.retired']` and `dq_alert[shop.retired]`, which shells make easier to type).
 * Throws an {@link AddressError} with a message for the user when it is not an address of a dqform kind.
 */
export function canonicalAddress(text: string): string {
  const t = text.trim();
  const m = /^([A-Za-z][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_-]*)|\[(.*)\])$/s.exec(t);
  if (!m) {
    throw new AddressError(`"${text}" is not a resource address: write TYPE.NAME (dq_alert.orders), or TYPE["KEY"] (dq_alert["shop.retired"]) for an object the code does not declare`);
  }
  const [, type, name, bracket] = m;
  if (!(RESOURCE_TYPES as readonly string[]).includes(type)) {
    const guess = closest(type, RESOURCE_TYPES);
    throw new AddressError(`"${text}": ${type} is not a dqform resource type${guess ? `; did you mean ${guess}?` : ''} (types: ${RESOURCE_TYPES.join(', ')})`);
  }
  if (name !== undefined) return `${type}.${name}`;
  let key = bracket.trim();
  if (/^"(?:[^"\\]|\\.)*"$/s.test(key)) {
    try {
      key = JSON.parse(key) as string;
    } catch {
      throw new AddressError(`"${text}": the key in brackets is not a valid quoted string`);
    }
  } else if (/^'[^']*'$/.test(key)) key = key.slice(1, -1);
  if (key === '') throw new AddressError(`"${text}": the key in brackets is empty`);
  return `${type}[${JSON.stringify(key)}]`;
}

/**
 * Destroy plans: deletions of objects the code declares take the declaration's address and
 * source; a declared object with `lifecycle.preventDestroy` makes the plan an error (pushed to
 * `guards`: it holds only if the deletion stays in the plan after --target); a declared
 * object the namespace does not own by its marks (an id pinned or adopted without the namespace
 * tag) is left in place, with a warning. `resolution` is the full one (with the declarations).
 */
export function destroyDeclared(changes: Change[], resolution: Resolution, live: LiveState, diags: Diagnostic[], guards: Diagnostic[]): void {
  const declared = new Map<string, ResolvedResource>();
  for (const r of resolution.resources) declared.set(keyOf(r.type, r.importedId ?? r.id), r);
  for (const c of changes) {
    if (c.action !== 'delete') continue;
    const r = declared.get(keyOf(c.type, c.id));
    if (!r) continue;
    c.address = r.address;
    if (r.source) c.source = r.source;
    Object.assign(c, because({ code: 'destroy', namespace: resolution.namespace }));
    if (r.lifecycle.preventDestroy) {
      guards.push({
        severity: 'error',
        summary: `lifecycle.preventDestroy forbids destroying this object, and this plan destroys everything namespace "${resolution.namespace}" owns`,
        address: r.address,
        source: r.source,
        hint: 'Destroy the other objects with --target, or drop preventDestroy deliberately first.',
      });
    }
  }
  const liveKeys = new Set(Object.entries(live).flatMap(([type, objs]) => (objs ?? []).flatMap((o) => [keyOf(type, o.key), keyOf(type, o.id)])));
  for (const r of resolution.resources) {
    const id = r.importedId ?? r.id;
    if (!TAG_PRUNED_TYPES.includes(r.type) || carriesTag(id, resolution.workspace, resolution.namespace) || !liveKeys.has(keyOf(r.type, id))) continue;
    diags.push({
      severity: 'warning',
      summary: `stays in place: destroy deletes only what namespace "${resolution.namespace}" owns, and this object's id ${id} carries no namespace tag (pinned or adopted)`,
      address: r.address,
      source: r.source,
      detail: 'dqform cannot tell such an id from an object made in the UI, and never deletes those.',
      hint: 'Delete it in the platform itself if it must go.',
    });
  }
}

/**
 * Every address given with --target or --replace must be one the code declares (or removes), or
 * one of the plan's live objects; --replace only one the code declares. Errors (with a "did you
 * mean") go to `diags`. `changes`: the plan's changes before targeting; `liveRead` false: live
 * state was not read, so live objects' addresses are not checked.
 */
export function checkRequestedAddresses(request: PlanRequest, resolution: Resolution, changes: readonly Change[], diags: Diagnostic[], liveRead = true): void {
  // nothing asked for (almost every plan): no sets of every address to build
  if (request.targets.length === 0 && request.replace.length === 0) return;
  const declared = new Set(resolution.resources.map((r) => r.address));
  const known = new Set([...declared, ...resolution.removed.map((r) => r.address), ...changes.map((c) => c.address)]);
  const unknown = (flag: string, address: string) => {
    if (!liveRead && address.includes('[')) return; // a live object's address: live state was not read
    const guess = suggestion(address, [...known].sort(), changes);
    diags.push({
      severity: 'error',
      summary: `${flag} ${address}: neither the code nor live state has an object at this address`,
      address,
      hint: guess
        ? `Did you mean ${guess}?`
        : 'Give the address as the plan prints it: TYPE.NAME for an object the code declares, TYPE["KEY"] for one it does not (run dqform plan to see them).',
    });
  };
  for (const t of request.targets) if (!known.has(t)) unknown('--target', t);
  for (const a of request.replace) {
    if (!known.has(a)) unknown('--replace', a);
    else if (!declared.has(a)) {
      const c = changes.find((x) => x.address === a);
      diags.push({
        severity: 'error',
        summary: `--replace ${a}: only an object the code declares can be replaced${c ? ` (this plan ${c.action === 'delete' ? 'destroys it' : c.action === 'unmanaged' || c.action === 'forget' ? 'does not manage it' : 'leaves it'})` : ' (it is declared removed)'}`,
        address: a,
        hint: 'Declare it in the code to replace it, or drop --replace.',
      });
    }
  }
}

/** The closest known address, or the address of the object whose name or id the text names. */
function suggestion(address: string, known: readonly string[], changes: readonly Change[]): string | undefined {
  const m = /^([a-z_]+)\[(".*")\]$/.exec(address);
  if (m) {
    const key = (JSON.parse(m[2]) as string).toLowerCase();
    const byName = changes.find((c) => c.type === m[1] && (c.id.toLowerCase() === key || c.fqn?.toLowerCase() === key || (c.name !== undefined && /"(.*)"$/.exec(c.name)?.[1].toLowerCase() === key)));
    if (byName) return byName.address;
  }
  return closest(address, known);
}

/**
 * The changes a targeted plan keeps: those of the targets (and of the --replace addresses), and
 * of everything they depend on, transitively; in a destroy plan, of everything that depends on
 * them instead (it must be destroyed first).
 */
export function narrowToTargets(changes: readonly Change[], request: PlanRequest, resolution: Resolution): Change[] {
  const byAddress = new Map(resolution.resources.map((r) => [r.address, r]));
  const keep = new Set<string>();
  const queue = [...request.targets, ...request.replace];
  while (queue.length) {
    const a = queue.pop()!;
    if (keep.has(a)) continue;
    keep.add(a);
    if (!request.destroy) queue.push(...(byAddress.get(a)?.dependsOn ?? []));
  }
  if (request.destroy) {
    for (let grew = true; grew; ) {
      grew = false;
      for (const r of resolution.resources) {
        if (!keep.has(r.address) && r.dependsOn.some((d) => keep.has(d))) {
          keep.add(r.address);
          grew = true;
        }
      }
    }
  }
  return changes.filter((c) => keep.has(c.address));
}

/** The warning every targeted plan carries (Terraform's "Resource targeting is in effect"). */
export function targetingWarning(request: PlanRequest): Diagnostic {
  const targets = [...new Set(request.targets)].sort();
  const one = targets.length === 1;
  return {
    severity: 'warning',
    summary: `resource targeting is in effect: this plan holds only the changes of ${targets.join(', ')} and of what ${one ? 'it' : 'they'} ${request.destroy ? `${one ? 'is' : 'are'} depended on by` : `depend${one ? 's' : ''} on`}`,
    detail: 'It may not hold every change the code asks for. --target is for exceptional situations, such as recovering from an error or a mistake, not for routine use.',
    hint: 'Run dqform plan without --target afterwards to see what else differs.',
  };
}

/**
 * Refresh-only: moves every change that would write out of `changes` and returns how live
 * differs from the code ({@link Drift}): a create is `absent` live, a delete `undeclared`, an
 * update or replace `changed` (its patch from the code to live). What remains in `changes`
 * (unchanged, not managed here, forgotten) writes nothing.
 */
export function asRefreshOnly(changes: Change[]): Drift[] {
  const drift: Drift[] = [];
  const keep: Change[] = [];
  for (const c of changes) {
    if (c.action === 'noop' || c.action === 'unmanaged' || c.action === 'forget') keep.push(c);
    else drift.push(driftOf(c));
  }
  changes.splice(0, changes.length, ...keep);
  return drift;
}

/** The drift a change that writes stands for, seen from the code towards live state. */
function driftOf(c: Change): Drift {
  const base = {
    address: c.address,
    type: c.type,
    name: c.name,
    id: c.id,
    fqn: c.fqn,
    source: c.source,
    movedFrom: c.movedFrom,
    importedId: c.importedId,
    sensitive: c.sensitive,
    etag: c.etag,
    liveHash: c.liveHash,
  };
  if (c.action === 'create') return { ...base, difference: 'absent', remedy: 'create', code: c.after, live: null, patch: [], ...because({ code: 'drift-absent' }) };
  if (c.action === 'delete') return { ...base, difference: 'undeclared', remedy: 'delete', code: null, live: c.before, patch: [], ...(c.reasonCodes ? { reasonCodes: c.reasonCodes } : {}) };
  const patch = jsonpatch.compare((c.after ?? {}) as object, (c.before ?? {}) as object) as PatchOp[];
  // the plan's replace reasons speak of the code's change; import and move notes still hold
  const kept: Reason[] = (c.reasonCodes ?? []).filter((r) => r.code === 'imported' || r.code === 'claims' || r.code === 'moved');
  // what a normal apply does about it: update in place, or (a field fixed at create) replace
  if (c.action === 'replace') kept.push({ code: 'drift-replaced' });
  return { ...base, difference: 'changed', remedy: c.action === 'replace' ? 'replace' : 'update', code: c.after, live: c.before, patch, ...because(...kept) };
}
