/**
 * `dqform list` and `dqform output` (issue 26), pure: from a plan read from live (a refresh-only
 * plan: nothing previewed), the objects the namespace manages and the ids of the code's objects.
 * dqform keeps no state: live is the state, and the plan already knows which live objects are
 * this namespace's and by which address the code knows them.
 */
import type { Change, Drift, Plan } from '../../schemas/model/plan';
import type { ManagedObject, Outputs } from '../../schemas/model/listing';
import { RESOURCE_TYPES } from '../../schemas/model/manifest';
import { TYPE_PREFIX } from '../kinds/descriptors';

/** The kind `--kind` names: the type without `dq_`. */
export const kindOfType = (type: string): string => (type.startsWith(TYPE_PREFIX) ? type.slice(TYPE_PREFIX.length) : type);

/** Every kind `--kind` accepts. */
export const KINDS_LISTED: readonly string[] = RESOURCE_TYPES.map(kindOfType);

/** One object of a plan as list and output see it: where it is, whether it is live and declared. */
interface Seen {
  address: string;
  type: string;
  id: string;
  name?: string;
  /** The live object (normalised), null when it does not exist. */
  live: Record<string, unknown> | null;
  declared: boolean;
  /** The namespace manages it: not unmanaged, not forgotten, not an adoption still to apply. */
  ours: boolean;
}

const obj = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' ? (v as Record<string, unknown>) : null);

/**
 * Every object of the plan: its changes, and in a refresh-only plan its drift too (where the
 * changes that would write are moved: changed, absent, undeclared).
 */
function seen(p: Plan): Seen[] {
  const fromChange = (c: Change): Seen => ({
    address: c.address,
    type: c.type,
    id: c.id,
    name: c.name,
    live: obj(c.before),
    declared: c.action !== 'delete' && c.action !== 'unmanaged' && c.action !== 'forget',
    ours: c.action !== 'unmanaged' && c.action !== 'forget' && c.action !== 'create' && !(c.importedId !== undefined && c.action !== 'noop'),
  });
  const fromDrift = (d: Drift): Seen => ({
    address: d.address,
    type: d.type,
    id: d.id,
    name: d.name,
    live: obj(d.live),
    declared: d.difference !== 'undeclared',
    ours: d.difference !== 'absent' && d.importedId === undefined,
  });
  return [...p.changes.map(fromChange), ...p.drift.map(fromDrift)];
}

function titleOf(s: Seen): string {
  const t = s.live?.title ?? s.live?.name;
  return typeof t === 'string' ? t : (s.name ?? '');
}

const byAddress = (a: { address: string }, b: { address: string }): number => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0);

/** What the plan's namespace manages, read from live, sorted by address; `kind` keeps one kind only. */
export function managedObjects(p: Plan, kind?: string): ManagedObject[] {
  return seen(p)
    .filter((s) => s.ours && s.live !== null && (kind === undefined || kindOfType(s.type) === kind))
    .map((s) => ({ address: s.address, kind: kindOfType(s.type), id: s.id, title: titleOf(s), declared: s.declared, stack: p.stack, namespace: p.namespace }))
    .sort(byAddress);
}

/**
 * The ids of the code's objects that exist live, by address (sorted), adopted ones included (the
 * id of an import block); and the addresses declared but not created yet.
 */
export function outputsOf(p: Plan): { outputs: Outputs; absent: string[] } {
  const declared = seen(p).filter((s) => s.declared).sort(byAddress);
  const outputs: Outputs = {};
  for (const s of declared) if (s.live !== null) outputs[s.address] = s.id;
  return { outputs, absent: declared.filter((s) => s.live === null).map((s) => s.address) };
}
