/**
 * The one reader of zod's private internals (issue 24): every walker of a schema's structure
 * (the wire conventions in schemas/platform/wire.ts, the unknown-field walk in src/engine/unknown-fields.ts,
 * the enum and oneof markers of schemas/platform/common.ts, the provider schema of
 * constructs/codegen/provider-schema.ts) asks here, so that a zod upgrade changing its `_zod.def`
 * layout is fixed in this file only. test/repo/zod-internals.test.ts keeps it so.
 *
 * Each function looks at one level of a schema; walking (which wrappers to strip, how deep) is the
 * caller's.
 */
import type { z } from 'zod';

type Def = Record<string, unknown> & { type: string };
const defOf = (s: unknown): Def => (s as { _zod: { def: Def } })._zod.def;

/** zod's name of the schema's kind at this level: `object`, `optional`, `pipe`, `array`, ... */
export function kindOf(schema: z.ZodType): string {
  return defOf(schema).type;
}

/**
 * The wrappers that hold one inner schema (`innerType`): the value is the inner schema's, perhaps
 * absent, null, defaulted or caught.
 */
export const WRAPPER_KINDS: readonly string[] = ['optional', 'nullable', 'default', 'prefault', 'nonoptional', 'readonly', 'catch'];

/** The schema a wrapper (one of {@link WRAPPER_KINDS}) holds, else undefined. */
export function innerOf(schema: z.ZodType): z.ZodType | undefined {
  const d = defOf(schema);
  return WRAPPER_KINDS.includes(d.type) ? (d.innerType as z.ZodType) : undefined;
}

/** A pipe's two sides (`in` reads the input, `out` gives the output), else undefined. */
export function pipeSides(schema: z.ZodType): { in: z.ZodType; out: z.ZodType } | undefined {
  const d = defOf(schema);
  return d.type === 'pipe' ? { in: d.in as z.ZodType, out: d.out as z.ZodType } : undefined;
}

/** The schema a `z.lazy` stands for (its getter called), else undefined. */
export function lazyTarget(schema: z.ZodType): z.ZodType | undefined {
  const d = defOf(schema);
  return d.type === 'lazy' ? (d.getter as () => z.ZodType)() : undefined;
}

/**
 * One step inward through a wrapper, a pipe (its input side, or its output side with
 * `pipe: 'out'`) or a lazy; undefined when the schema is none of these.
 */
export function unwrapOnce(schema: z.ZodType, opts: { pipe?: 'in' | 'out' } = {}): z.ZodType | undefined {
  const p = pipeSides(schema);
  if (p) return opts.pipe === 'out' ? p.out : p.in;
  return innerOf(schema) ?? lazyTarget(schema);
}

/** An object's shape (key -> schema), else undefined. */
export function objectShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  const d = defOf(schema);
  return d.type === 'object' ? (d.shape as Record<string, z.ZodType>) : undefined;
}

/** Whether an object takes keys beyond its shape (a catchall other than `never`: `looseObject`, `catchall`). */
export function isOpenObject(schema: z.ZodType): boolean {
  const d = defOf(schema);
  if (d.type !== 'object') return false;
  const catchall = d.catchall as z.ZodType | undefined;
  return catchall !== undefined && kindOf(catchall) !== 'never';
}

/** An array's element schema, else undefined. */
export function arrayElementOf(schema: z.ZodType): z.ZodType | undefined {
  const d = defOf(schema);
  return d.type === 'array' ? (d.element as z.ZodType) : undefined;
}

/** An array's minimum length (`.min(n)`, `.nonempty()`), 0 when it has none. */
export function arrayMinLength(schema: z.ZodType): number {
  const checks = (defOf(schema).checks as { _zod: { def: { check: string; minimum?: number } } }[] | undefined) ?? [];
  return checks.find((c) => c._zod.def.check === 'min_length')?._zod.def.minimum ?? 0;
}

/** A record's value schema, else undefined. */
export function recordValueOf(schema: z.ZodType): z.ZodType | undefined {
  const d = defOf(schema);
  return d.type === 'record' ? (d.valueType as z.ZodType) : undefined;
}

/** A union's options, else undefined. */
export function unionOptions(schema: z.ZodType): readonly z.ZodType[] | undefined {
  const d = defOf(schema);
  return d.type === 'union' ? (d.options as z.ZodType[]) : undefined;
}

/** An intersection's two sides, else undefined. */
export function intersectionSides(schema: z.ZodType): { left: z.ZodType; right: z.ZodType } | undefined {
  const d = defOf(schema);
  return d.type === 'intersection' ? { left: d.left as z.ZodType, right: d.right as z.ZodType } : undefined;
}

/** A literal's values, else undefined. */
export function literalValues(schema: z.ZodType): readonly unknown[] | undefined {
  const d = defOf(schema);
  return d.type === 'literal' ? (d.values as unknown[]) : undefined;
}

/**
 * An identity of the schema's definition, for caches: zod's clones that keep the definition
 * (what the markers below live on) share it.
 */
export function definitionKey(schema: z.ZodType): object {
  return defOf(schema);
}

/**
 * dqform's markers on a schema's definition: `dqEnum` (a protoEnum codec's table,
 * schemas/platform/common.ts), `dqOneof` (a message's oneof groups), `dqTolerant` (the item schema a
 * `tolerant` list item wraps, schemas/platform/wire.ts). They survive zod's clones (`.refine`,
 * `.superRefine`), which copy the definition.
 */
export type MarkName = 'dqEnum' | 'dqOneof' | 'dqTolerant';

/** The marker `name` left on the schema's definition, or undefined. */
export function markOf(schema: z.ZodType, name: MarkName): unknown {
  return defOf(schema)[name];
}

/** Leaves the marker `name` on the schema's definition. */
export function setMark(schema: z.ZodType, name: MarkName, value: unknown): void {
  defOf(schema)[name] = value;
}
