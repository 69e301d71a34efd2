/**
 * Normalisation shared by the handlers: both the live read and the desired config are brought
 * to one comparable form so that a plan right after an apply is empty.
 *
 * - protojson omits zero values: `false`, `""`, `0`-valued enums (`*_UNSPECIFIED`), `[]` and
 *   `null` are dropped on both sides; empty objects are kept (oneof markers like `{ stream: {} }`).
 * - server-computed fields are dropped (the `drop` list of each kind).
 * - ResolverQL is compared in canonical form: a live `renderedResolverQl` (or `resolverQl`) and a
 *   desired `resolverQl` both go through `canonicalResolverQl`; the translated `query` the server
 *   stores next to a `resolverQl` is dropped.
 * - unordered lists (e-mail recipients, severities, metric ids, states, ...) are sorted.
 * - keys are sorted, so JSON comparison and patches are deterministic.
 */
import { canonicalResolverQl } from '../../schemas/resolverql';
import { createHash } from 'node:crypto';

/** Lists whose order carries no meaning. */
export const UNORDERED_KEYS = new Set([
  'recipientEmails',
  'userEmails',
  'severities',
  'metricIds',
  'states',
  'values',
  'acceptedValues',
  'targets',
  'contacts',
  'annotations',
  'metricOptions',
]);

/** Canonical ResolverQL, or the text unchanged when our parser does not understand it. */
export function canonicalOrSelf(text: string): string {
  try {
    return canonicalResolverQl(text);
  } catch {
    return text.trim();
  }
}

function stable(v: unknown): string {
  return JSON.stringify(v, (_k, x) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, (x as Record<string, unknown>)[k]])) : x,
  );
}

/**
 * Normalises a value: drops `drop` keys at the top level and zero values everywhere, sorts
 * unordered lists and keys, canonicalises ResolverQL.
 */
export function normalise(value: Record<string, unknown>, drop: readonly string[] = []): Record<string, unknown> {
  const top: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (!drop.includes(k)) top[k] = v;
  return norm(top, '') as Record<string, unknown>;
}

function isZero(v: unknown): boolean {
  return v === undefined || v === null || v === false || v === '' || (Array.isArray(v) && v.length === 0) || (typeof v === 'string' && /_UNSPECIFIED$/.test(v));
}

function norm(v: unknown, key: string): unknown {
  if (Array.isArray(v)) {
    const items = v.map((x) => norm(x, ''));
    return UNORDERED_KEYS.has(key) ? [...items].sort((a, b) => (stable(a) < stable(b) ? -1 : stable(a) > stable(b) ? 1 : 0)) : items;
  }
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    const ql = typeof o.renderedResolverQl === 'string' && o.renderedResolverQl ? o.renderedResolverQl : typeof o.resolverQl === 'string' ? o.resolverQl : undefined;
    for (const k of Object.keys(o).sort()) {
      if (k === 'renderedResolverQl') continue;
      if (k === 'query' && ql !== undefined) continue;
      let x = o[k];
      if (k === 'resolverQl' && ql !== undefined) x = canonicalOrSelf(ql);
      x = norm(x, k);
      if (isZero(x)) continue;
      out[k] = x;
    }
    if (ql !== undefined && out.resolverQl === undefined) out.resolverQl = canonicalOrSelf(ql);
    return sortObj(out);
  }
  return v;
}

function sortObj(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o).sort()) out[k] = o[k];
  return out;
}

/** sha256 of a value's canonical JSON. */
export function fingerprint(v: unknown): string {
  return createHash('sha256').update(stable(v)).digest('hex').slice(0, 32);
}

/** Strips an `owner-`/`domain-`/`dataproduct-` prefix from an id. */
export function bare(id: unknown): unknown {
  return typeof id === 'string' ? id.replace(/^(owner|domain|dataproduct)-(?=[0-9a-f]{8}-)/i, '') : id;
}
