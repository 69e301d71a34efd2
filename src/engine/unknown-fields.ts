/**
 * Unknown fields: zod objects strip keys they do not know, so a typo in an optional field would
 * silently vanish. This walks a value against its schema and lists every key the schema does not
 * know, at every depth, with the closest known key for a "did you mean".
 */
import { z } from 'zod';
import { unknownKeys } from '../../schemas/platform/wire';
import { closestName } from '../../schemas/tools/did-you-mean';
import { arrayElementOf, innerOf, intersectionSides, isOpenObject, kindOf, objectShape, recordValueOf, unionOptions, unwrapOnce } from '../../schemas/tools/zod-walk';

type PathSeg = string | number;
const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The object shapes a zod schema accepts at this level (unwrapping optionals, pipes, lazies...). */
export function objectShapes(schema: z.ZodType, depth = 0): { shape: Record<string, z.ZodType>; open: boolean }[] {
  if (depth > 20) return [];
  const shape = objectShape(schema);
  if (shape) return [{ shape, open: isOpenObject(schema) }];
  // wrappers, a pipe's input side, a lazy's target
  const inner = unwrapOnce(schema);
  if (inner) return objectShapes(inner, depth + 1);
  const options = unionOptions(schema);
  if (options) return options.flatMap((o) => objectShapes(o, depth + 1));
  const sides = intersectionSides(schema);
  if (sides) {
    const l = objectShapes(sides.left, depth + 1);
    const r = objectShapes(sides.right, depth + 1);
    if (!l.length || !r.length) return [];
    return [{ shape: Object.assign({}, ...l.map((x) => x.shape), ...r.map((x) => x.shape)), open: l.some((x) => x.open) || r.some((x) => x.open) }];
  }
  return [];
}
export function arrayElement(schema: z.ZodType, depth = 0): z.ZodType | undefined {
  if (depth > 20) return undefined;
  const element = arrayElementOf(schema);
  if (element) return element;
  const inner = unwrapOnce(schema);
  if (inner) return arrayElement(inner, depth + 1);
  for (const o of unionOptions(schema) ?? []) {
    const e = arrayElement(o, depth + 1);
    if (e) return e;
  }
  return undefined;
}
export function recordValue(schema: z.ZodType): z.ZodType | undefined {
  const value = recordValueOf(schema);
  if (value) return value;
  const kind = kindOf(schema);
  if (kind === 'optional' || kind === 'default') return recordValue(innerOf(schema) as z.ZodType);
  return undefined;
}

/** Keys of `value` the schema does not know, at every depth: `[path, key, known keys]`. */
export function unknownFields(schema: z.ZodType, value: unknown, path: PathSeg[] = []): { path: PathSeg[]; key: string; known: string[] }[] {
  // fast path: the compiled walk of schemas/platform/wire.ts finds nothing for almost every value
  if (path.length === 0 && unknownKeys(schema, value).length === 0) return [];
  const out: { path: PathSeg[]; key: string; known: string[] }[] = [];
  if (Array.isArray(value)) {
    const el = arrayElement(schema);
    if (el) value.forEach((v, i) => out.push(...unknownFields(el, v, [...path, i])));
    return out;
  }
  if (!isObj(value)) return out;
  const rec = recordValue(schema);
  if (rec) {
    for (const [k, v] of Object.entries(value)) out.push(...unknownFields(rec, v, [...path, k]));
    return out;
  }
  const shapes = objectShapes(schema);
  if (shapes.length === 0 || shapes.some((s) => s.open)) return out;
  // the shape that knows the most keys of the value (union members)
  const keys = Object.keys(value);
  const best = [...shapes].sort((a, b) => keys.filter((k) => !(k in a.shape)).length - keys.filter((k) => !(k in b.shape)).length)[0];
  for (const k of keys) {
    if (k in best.shape) out.push(...unknownFields(best.shape[k], value[k], [...path, k]));
    else out.push({ path, key: k, known: Object.keys(best.shape) });
  }
  return out;
}

/** The closest known key, for "did you mean" (the shared helper, schemas/tools/did-you-mean.ts). */
export function closest(key: string, known: readonly string[]): string | undefined {
  return closestName(key, known);
}

/**
 * The declared address a reference to nothing most likely meant: the closest name of the same
 * type (`dq_owner.comerce_team` -> `dq_owner.commerce_team`), else the same name under another
 * type (`dq_owner.orders` when only `dq_data_product.orders` exists), else the closest address.
 */
export function nearestAddress(type: string, name: string, declared: Iterable<string>): string | undefined {
  const addresses = [...declared].sort();
  const sameType = addresses.filter((a) => a.startsWith(`${type}.`)).map((a) => a.slice(type.length + 1));
  const byName = closestName(name, sameType);
  if (byName) return `${type}.${byName}`;
  const sameName = addresses.find((a) => a.slice(a.indexOf('.') + 1) === name);
  return sameName ?? closestName(`${type}.${name}`, addresses);
}

/**
 * Why a dotted field path (`issueLifecycle.settings.severities`) names no field of `schema`, or
 * undefined when it does: the first segment the schema does not know (with the known keys at
 * that level), or a path that goes on inside a list or a value that has no fields.
 */
export function fieldPathProblem(schema: z.ZodType, parts: readonly string[]): { at: string; key: string; known: string[]; why: 'unknown' | 'leaf' } | undefined {
  let cur: z.ZodType = schema;
  for (let i = 0; i < parts.length; i++) {
    const key = parts[i];
    const at = parts.slice(0, i).join('.');
    const shapes = objectShapes(cur);
    if (shapes.length === 0) return { at, key, known: [], why: 'leaf' };
    if (shapes.some((s) => s.open)) return undefined;
    const owner = shapes.find((s) => key in s.shape);
    if (!owner) return { at, key, known: [...new Set(shapes.flatMap((s) => Object.keys(s.shape)))].sort(), why: 'unknown' };
    cur = owner.shape[key];
  }
  return undefined;
}
