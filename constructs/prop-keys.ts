/**
 * Typos are errors in constructs too (issue 21): an L2 construct's props, and every plain object
 * nested in them (`lifecycle`, `issueLifecycle`, settings, targets, configs, ...), are checked
 * against the keys dqform knows, and an unknown key is a diagnostic naming the construct path,
 * the field and the closest known name (as YAML does). Without this, `lifecycle: {
 * preventDestory: true }` synthesised silently and the protection was absent.
 *
 * The known keys come from the zod schemas (`RESOURCE_SCHEMAS[type]`, `Lifecycle`), the ones the
 * engine validates the synthesised config with; each L2 construct only lists where its props
 * are named differently from the API fields ({@link Renames}, e.g. an ownership's `owner` for
 * `ownerId`). Values that are not plain objects (constructs, `Query` expressions, `Target.owner`
 * targets) are references or builders, not checked here.
 */
import type { IConstruct } from 'constructs';
import type { z } from 'zod';
import { Lifecycle, RESOURCE_SCHEMAS, type ResourceType } from '../schemas/model/manifest';
import { arrayElement, closest, objectShapes, recordValue } from '../src/engine/unknown-fields';
import { addLocalDiagnostic } from './internal';

/**
 * Where an L2 construct's props differ from the API's fields, by prop path (`''` for the top
 * level; `[]` for a list's items, e.g. `parts[]`): each prop name mapped to the schema path it
 * stands for (relative to that level), or `null` for a prop with no API field (not descended).
 */
export type Renames = Readonly<Record<string, Readonly<Record<string, readonly string[] | null>>>>;

/** The meta-arguments every L2 resource construct takes (cdktf's), with how each is checked. */
const META: Readonly<Record<string, z.ZodType | null>> = { lifecycle: Lifecycle, dependsOn: null };

const isPlain = (v: unknown): v is Record<string, unknown> => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};

/** The schema of a field path below `schema` (through objects and lists), if it has one. */
function schemaAt(schema: z.ZodType, path: readonly string[]): z.ZodType | undefined {
  let cur: z.ZodType | undefined = schema;
  for (const key of path) {
    if (!cur) return undefined;
    const owner: { shape: Record<string, z.ZodType> } | undefined = objectShapes(cur).find((s) => key in s.shape);
    cur = owner?.shape[key];
  }
  return cur;
}

/** One unknown key: where (the field path of the key), the key, and what is known there. */
export interface UnknownProp {
  field: string;
  key: string;
  known: string[];
}

/**
 * Unknown keys of `value` against `schema`, with the construct's `renames`. `at` is the field
 * path so far (as shown to the user), `pattern` the same with list indices as `[]`.
 */
function walk(value: unknown, schema: z.ZodType | undefined, renames: Renames, at: string, pattern: string, out: UnknownProp[], meta?: typeof META): void {
  if (Array.isArray(value)) {
    const el = schema && arrayElement(schema);
    value.forEach((v, i) => walk(v, el, renames, `${at}[${i}]`, `${pattern}[]`, out));
    return;
  }
  if (!isPlain(value)) return;
  const here = renames[pattern] ?? {};
  if (schema && !Object.keys(here).length) {
    const rec = recordValue(schema);
    if (rec) {
      for (const [k, v] of Object.entries(value)) walk(v, rec, renames, `${at}.${k}`, `${pattern}.${k}`, out);
      return;
    }
  }
  const shapes = schema ? objectShapes(schema) : [];
  if (shapes.length === 0 && !meta && !Object.keys(here).length) return;
  if (shapes.some((s) => s.open)) return;
  // the shape that knows the most keys of the value (union members)
  const keys = Object.keys(value);
  const renamedAway = new Set(Object.values(here).flatMap((p) => (p && p.length ? [p[0]] : [])));
  const knownIn = (shape: Record<string, z.ZodType>) => [...Object.keys(shape).filter((k) => !renamedAway.has(k)), ...Object.keys(here), ...Object.keys(meta ?? {})];
  const ranked = shapes.map((s) => ({ shape: s.shape, known: new Set(knownIn(s.shape)) })).sort((a, b) => keys.filter((k) => !a.known.has(k)).length - keys.filter((k) => !b.known.has(k)).length);
  const best = ranked[0] ?? { shape: {} as Record<string, z.ZodType>, known: new Set(knownIn({})) };
  const join = (base: string, k: string) => (base ? `${base}.${k}` : k);
  for (const k of keys) {
    if (value[k] === undefined) continue;
    if (meta && k in meta) {
      const m = meta[k];
      if (m) walk(value[k], m, {}, join(at, k), join(pattern, k), out);
    } else if (k in here) {
      const target = here[k];
      const first = target && target.length ? best.shape[target[0]] : undefined;
      if (target) walk(value[k], first && schemaAt(first, target.slice(1)), renames, join(at, k), join(pattern, k), out);
    } else if (best.known.has(k)) {
      walk(value[k], best.shape[k], renames, join(at, k), join(pattern, k), out);
    } else {
      out.push({ field: join(at, k), key: k, known: [...best.known].sort() });
    }
  }
}

/** The unknown props of an L2 construct of `type` (see the module comment). */
export function unknownProps(type: ResourceType, props: object, renames: Renames = {}): UnknownProp[] {
  const out: UnknownProp[] = [];
  walk(props, RESOURCE_SCHEMAS[type] as unknown as z.ZodType, renames, '', '', out, META);
  return out;
}

/** Records a diagnostic on `c` for every unknown prop (see {@link unknownProps}). */
export function checkProps(c: IConstruct, type: ResourceType, props: object, renames: Renames = {}): void {
  for (const u of unknownProps(type, props, renames)) {
    const parent = u.field.slice(0, u.field.length - u.key.length).replace(/\.$/, '');
    const guess = closest(u.key, u.known);
    addLocalDiagnostic(c, {
      field: u.field,
      summary: `unknown property "${u.key}"${parent ? ` in ${parent}` : ''}${guess ? ` (did you mean "${guess}"?)` : ''}`,
      hint: guess ? `rename it to "${guess}"` : `remove it; the known properties here are ${u.known.join(', ')}`,
    });
  }
}

/**
 * Records a diagnostic on `c` for every key of the plain object `value` that is not in `known`
 * (an option object with no zod schema: {@link DqStack}'s props, `removed()`'s options), in the
 * same words as {@link checkProps}. `at` is the field path of `value` (`''` for the top level).
 */
export function checkKeys(c: IConstruct, at: string, value: unknown, known: readonly string[]): void {
  if (!isPlain(value)) return;
  for (const key of Object.keys(value)) {
    if (known.includes(key) || value[key] === undefined) continue;
    const guess = closest(key, known);
    addLocalDiagnostic(c, {
      field: at ? `${at}.${key}` : key,
      summary: `unknown property "${key}"${at ? ` in ${at}` : ''}${guess ? ` (did you mean "${guess}"?)` : ''}`,
      hint: guess ? `rename it to "${guess}"` : `remove it; the known properties here are ${[...known].sort().join(', ')}`,
    });
  }
}
