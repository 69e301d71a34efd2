/**
 * What the plan says about live objects beyond their fields, computed from live state only
 * (pure): who manages an object ({@link managedBy}), its human name ({@link displayName}), and
 * what the platform does to other objects when one is deleted ({@link cascadeOf}): an owner's
 * ownerships are deleted with it (made in the UI or not), a domain's sub-domains lose their
 * parent, domains lose a deleted member, ownerships and product rules lose the data product
 * they select.
 */
import type { ResourceType } from '../../schemas/model/manifest';
import { Effects, type Cascade } from '../../schemas/model/plan';
import type { LiveObject } from '../kinds/shared/types';
import { bareId, idOwner, namespaceOfId } from './identity';
import { kindOf, LABEL, PRUNABLE_TYPES, REFERENCES } from '../kinds/descriptors';

type LiveState = Partial<Record<ResourceType, LiveObject[]>>;
type Json = Record<string, unknown>;

const norm = (id: unknown): string => (typeof id === 'string' ? bareId(id).toLowerCase() : '');

/** Context for names and owners: the namespace, and the live objects by kind and bare id. */
export class LiveIndex {
  private readonly byId = new Map<string, LiveObject>();
  /** Declared objects (normalised desired form) by kind and bare id: their names win over live ones. */
  private readonly declaredById = new Map<string, Json>();
  /** Namespaces known by name (configIds seen live, sibling stacks): to name the tag an id carries. */
  readonly knownNamespaces: string[];

  constructor(
    readonly live: LiveState,
    readonly workspace: string,
    readonly namespace: string,
    extraNamespaces: readonly string[] = [],
  ) {
    const names = new Set(extraNamespaces);
    for (const [type, objs] of Object.entries(live) as [ResourceType, LiveObject[]][]) {
      for (const o of objs ?? []) {
        this.byId.set(`${type}\u0000${norm(o.id)}`, o);
        if (o.configId) names.add(o.configId);
      }
    }
    names.delete(namespace);
    this.knownNamespaces = [...names].sort();
  }

  get(type: ResourceType, id: unknown): LiveObject | undefined {
    return this.byId.get(`${type}\u0000${norm(id)}`);
  }

  /** Records a declared object (its normalised desired form), so that names follow the code. */
  declare(type: ResourceType, id: string, desired: Json): void {
    this.declaredById.set(`${type}\u0000${norm(id)}`, desired);
  }

  /** The title or name of an object by id: the code's, else live's. */
  readonly titleOf = (type: ResourceType, id: unknown): string | undefined => {
    const raw = this.declaredById.get(`${type}\u0000${norm(id)}`) ?? this.get(type, id)?.raw;
    const t = raw?.title ?? raw?.name;
    return typeof t === 'string' ? t : undefined;
  };

  /**
   * How the plan names an object for a person (the change header): `alert "Orders"`, `owner
   * "Data team"`, `ownership of "Data team" over data product "Orders"`; undefined when the
   * object has no name or title.
   */
  nameOf(type: ResourceType, raw: Json | null | undefined): string | undefined {
    if (!raw) return undefined;
    if (kindOf(type)?.describe) return this.displayName(type, raw);
    const name = raw.title ?? raw.name;
    return typeof name === 'string' && name !== '' ? `${LABEL[type]} ${JSON.stringify(name)}` : undefined;
  }

  /**
   * Who manages a live object, as the plan says it: `this namespace`, `namespace "x"`, `another
   * namespace` (a tag of a namespace not known here) or `made in the UI` (kinds with configId:
   * none; the others: an id without a namespace tag, which a pinned or adopted id also is).
   */
  managedBy(type: ResourceType, o: LiveObject): string {
    if (PRUNABLE_TYPES.includes(type)) {
      if (o.configId === this.namespace) return 'this namespace';
      if (o.configId) return `namespace "${o.configId}"`;
      return 'made in the UI';
    }
    const owner = idOwner(o.id, this.workspace, this.namespace);
    if (owner === 'namespace') return 'this namespace';
    if (owner === 'none') return 'made in the UI';
    const ns = namespaceOfId(o.id, this.workspace, this.knownNamespaces);
    return ns ? `namespace "${ns}"` : 'another namespace';
  }

  /** The object's name as a user knows it: `owner "Data team"`, `ownership of "Data team" over data product "Orders"`. */
  displayName(type: ResourceType, raw: Json): string {
    const describe = kindOf(type)?.describe;
    if (describe) return describe(raw, this.titleOf);
    const name = raw.title ?? raw.name;
    return `${LABEL[type]} ${JSON.stringify(typeof name === 'string' ? name : String(raw.id ?? raw.fqn ?? ''))}`;
  }
}

/**
 * The cascade of deleting the object `id` of `type`: the live objects the platform deletes or
 * leaves dangling with it, sorted (effect, type, name, id). `deleted` holds `<type>\0<bare id>`
 * of every object the plan deletes, to mark them `alsoDeleted`. Kinds without a cascade: [].
 */
export function cascadeOf(type: ResourceType, id: string, ix: LiveIndex, deleted: ReadonlySet<string>): Cascade[] {
  const target = norm(id);
  const out: Cascade[] = [];
  const add = (effect: Cascade['effect'], t: ResourceType, o: LiveObject, name: string) => {
    if (t === type && norm(o.id) === target) return;
    out.push({ effect, type: t, id: o.id, name, managedBy: ix.managedBy(t, o), alsoDeleted: deleted.has(`${t}\u0000${norm(o.id)}`) });
  };
  for (const { from, ref } of REFERENCES) {
    if (ref.to !== type) continue;
    for (const o of ix.live[from] ?? []) {
      if (ref.ids(o.raw).some((x) => norm(x) === target)) add(ref.effect, from, o, ref.name ? ref.name(o.raw, ix.titleOf) : ix.displayName(from, o.raw));
    }
  }
  const key = (c: Cascade) => [c.effect, c.type, c.name, c.id];
  return out.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
    return 0;
  });
}

/** The {@link Effects} of a cascade (undefined when nothing goes with the delete). */
export function cascadeEffects(cascade: Cascade[]): Effects | undefined {
  return cascade.length ? Effects.parse({ source: 'cascade', cascade }) : undefined;
}
