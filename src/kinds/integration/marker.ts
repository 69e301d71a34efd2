/**
 * The identity marker an integration's platform title carries (docs/integrations.md): the
 * platform assigns integration ids and keeps no field for an as-code tool, and dqform keeps no
 * state file, so what dqform needs to find its integrations again and to prove they are its own
 * rides at the end of the title:
 *
 *     Warehouse PG [dqform:<id> password@2]
 *
 * - `<id>`: the derived id of the resource's address (a UUIDv8 carrying the namespace tag,
 *   src/engine/identity.ts): the object's id for the engine, so that it is found again, pruned
 *   only by its own namespace, and never deleted when it carries no tag. Absent for an
 *   integration adopted with an import block (its platform id is its identity).
 * - `<path>@<n>`: each secret dqform has set and its version counter (`passwordVersion`): the
 *   platform returns secrets empty, so this is the only trace of which secret was sent and when.
 */

/** The title's marker: `[dqform:<id> a@1 b.c@2]`, at the end after one space. */
const MARKER = /^([\s\S]*?) ?\[dqform(?::([0-9a-fA-F-]{36}))?((?: [A-Za-z][A-Za-z0-9.]*@[0-9]+)*)\]$/;

export interface Marker {
  /** The title without the marker. */
  title: string;
  /** The id the marker carries (dqform's identity of the object), if any. */
  id?: string;
  /** Secret path (relative to the config variant) -> version, for the secrets dqform set. */
  versions: Record<string, number>;
  /** Whether the title carries a marker at all. */
  marked: boolean;
}

/** Splits a platform title into its title and marker. */
export function parseTitle(title: unknown): Marker {
  const t = typeof title === 'string' ? title : '';
  const m = MARKER.exec(t);
  if (!m) return { title: t, versions: {}, marked: false };
  const versions: Record<string, number> = {};
  for (const part of m[3].trim().split(' ').filter(Boolean)) {
    const at = part.lastIndexOf('@');
    versions[part.slice(0, at)] = Number(part.slice(at + 1));
  }
  return { title: m[1], id: m[2]?.toLowerCase(), versions, marked: true };
}

/** The platform title of `title` with the marker of `id` and `versions` (no marker when both are empty). */
export function markedTitle(title: string, id: string | undefined, versions: Readonly<Record<string, number>>): string {
  const vs = Object.keys(versions)
    .sort()
    .map((k) => ` ${k}@${versions[k]}`)
    .join('');
  if (!id && !vs) return title;
  return `${title} [dqform${id ? `:${id}` : ''}${vs}]`;
}

/** The title a person gave (marker stripped). */
export function titleOf(title: unknown): string {
  return parseTitle(title).title;
}

/** Characters the marker adds to a title: the platform's 255 include them. */
export function markerLength(id: string | undefined, versions: Readonly<Record<string, number>>): number {
  return markedTitle('', id, versions).length;
}
