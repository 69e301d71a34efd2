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

/**
 * Leaves on `schema` a shortcut of its parse: `sure(value)` answers zod's output for the values it
 * is sure of (every check of the schema aside, which still runs) and undefined for the others,
 * which the lean validator then parses in full (schemas/tools/lean.ts). Kept by zod's clones
 * (`.describe`, `.refine`), as the other marks are.
 */
export function setSureOutput(schema: z.ZodType, sure: (value: unknown) => unknown): void {
  defOf(schema).dqSureOutput = sure;
}

/** The shortcut {@link setSureOutput} left on `schema`, if any. */
export function sureOutputOf(schema: z.ZodType): ((value: unknown) => unknown) | undefined {
  const f = defOf(schema).dqSureOutput;
  return typeof f === 'function' ? (f as (value: unknown) => unknown) : undefined;
}

/**
 * Leaves on the check `schema`'s last `.refine`/`.superRefine` added (its definition) a test
 * that is true only when that check surely finds nothing (and changes nothing): the lean
 * validator then skips running it for such a value (schemas/tools/lean.ts, `checksRunner`).
 */
export function setLastCheckPasses(schema: z.ZodType, passes: (value: unknown) => boolean): void {
  const checks = defOf(schema).checks as unknown[] | undefined;
  const last = checks?.[checks.length - 1];
  if (last) internalsOf(last).def.dqPasses = passes;
}

/** The marker `name` left on the schema's definition, or undefined. */
export function markOf(schema: z.ZodType, name: MarkName): unknown {
  return defOf(schema)[name];
}

/** Leaves the marker `name` on the schema's definition. */
export function setMark(schema: z.ZodType, name: MarkName, value: unknown): void {
  defOf(schema)[name] = value;
}

// ------------------------------------------------------------------------------------------
// what schemas/tools/lean.ts (the lean validator in front of zod, issue 27) compiles a schema from

type Internals = { def: Def; optin?: string; optout?: string; values?: Set<unknown>; traits: Set<string>; check: (payload: LeanPayload) => unknown };
const internalsOf = (s: unknown): Internals => (s as { _zod: Internals })._zod;

/** What zod's checks and transforms are handed: the value and the issues found so far. */
export interface LeanPayload {
  value: unknown;
  issues: unknown[];
}

/**
 * How an object treats the field when the key is absent or fails: zod's `optin` (`optional`: may be
 * absent; `defaulted`: absent is replaced) and `optout` (`optional`: the output may be undefined).
 */
export function optionality(schema: z.ZodType): { optin: 'optional' | 'defaulted' | undefined; optout: 'optional' | undefined } {
  const i = internalsOf(schema);
  return { optin: i.optin as 'optional' | 'defaulted' | undefined, optout: i.optout as 'optional' | undefined };
}

/** An object's catch-all schema (`never` for a strict object, `unknown` for a loose one), else undefined. */
export function objectCatchall(schema: z.ZodType): z.ZodType | undefined {
  const d = defOf(schema);
  return d.type === 'object' ? (d.catchall as z.ZodType | undefined) : undefined;
}

/** A record's key schema, else undefined. */
export function recordKeyOf(schema: z.ZodType): z.ZodType | undefined {
  const d = defOf(schema);
  return d.type === 'record' ? (d.keyType as z.ZodType) : undefined;
}

/** The set of values an enum, a literal (and some wrappers of them) accept (zod's `values`), else undefined. */
export function valueSet(schema: z.ZodType): ReadonlySet<unknown> | undefined {
  return internalsOf(schema).values;
}

/**
 * The variations of a schema's kind that change how it parses and that the lean validator leaves
 * to zod: coercion, a discriminated or exclusive union, an exact optional, a loose or partial
 * record, a record over enumerated keys, a schema whose class zod extends beyond its kind.
 */
export function parseVariations(schema: z.ZodType): string[] {
  const d = defOf(schema);
  const out: string[] = [];
  if (d.coerce) out.push('coerce');
  if (d.discriminator !== undefined) out.push('discriminator');
  if (d.inclusive === false) out.push('exclusive');
  if (internalsOf(schema).traits.has('$ZodExactOptional')) out.push('exact optional');
  if (d.type === 'record') {
    if (d.mode === 'loose') out.push('loose record');
    if (d.partial) out.push('partial record');
    if (internalsOf(d.keyType).values) out.push('enumerated keys');
  }
  return out;
}

/** The value a `default` or `prefault` gives for undefined, read anew on every call (zod clones it each time), else undefined. */
export function defaultGetter(schema: z.ZodType): (() => unknown) | undefined {
  const d = defOf(schema);
  return d.type === 'default' || d.type === 'prefault' ? () => d.defaultValue : undefined;
}

/** A `transform`'s function (`z.preprocess`'s input side, `.transform()`), else undefined. */
export function transformOf(schema: z.ZodType): ((value: unknown, payload: LeanPayload) => unknown) | undefined {
  const d = defOf(schema);
  return d.type === 'transform' ? (d.transform as (value: unknown, payload: LeanPayload) => unknown) : undefined;
}

/** A codec's decoding function (a `pipe` made by `z.codec`), else undefined. */
export function codecDecodeOf(schema: z.ZodType): ((value: unknown, payload: LeanPayload) => unknown) | undefined {
  const d = defOf(schema);
  return d.type === 'pipe' && typeof d.reverseTransform === 'function' ? (d.transform as (value: unknown, payload: LeanPayload) => unknown) : undefined;
}

/**
 * A sure pass of one check zod ships whose outcome is plain (a length, a bound, a regex, a safe
 * integer): true only when zod's check would find nothing and change nothing, so that skipping it
 * is exact whatever its `when`; undefined for the other checks (refinements, formats, overwrites).
 */
function surePass(c: Internals): ((v: unknown) => boolean) | undefined {
  const d = c.def;
  const t = c.traits;
  if (typeof d.dqPasses === 'function') return d.dqPasses as (v: unknown) => boolean;
  if (t.has('$ZodCheckMinLength') && typeof d.minimum === 'number') {
    const min = d.minimum;
    // a string is measured in code points: fewer than 2 x min UTF-16 units is zod's to count
    return (v) => (typeof v === 'string' ? v.length >= 2 * min : Array.isArray(v) && v.length >= min);
  }
  if (t.has('$ZodCheckMaxLength') && typeof d.maximum === 'number') {
    const max = d.maximum;
    return (v) => (typeof v === 'string' || Array.isArray(v)) && v.length <= max;
  }
  if (t.has('$ZodCheckGreaterThan') && typeof d.value === 'number') {
    const value = d.value;
    return d.inclusive ? (v) => typeof v === 'number' && v >= value : (v) => typeof v === 'number' && v > value;
  }
  if (t.has('$ZodCheckLessThan') && typeof d.value === 'number') {
    const value = d.value;
    return d.inclusive ? (v) => typeof v === 'number' && v <= value : (v) => typeof v === 'number' && v < value;
  }
  if (t.has('$ZodCheckNumberFormat') && d.format === 'safeint') return (v) => Number.isSafeInteger(v);
  if (t.has('$ZodCheckRegex') && d.pattern instanceof RegExp && !t.has('$ZodCheckLowerCase') && !t.has('$ZodCheckUpperCase')) {
    const pattern = d.pattern;
    return (v) => {
      pattern.lastIndex = 0;
      return typeof v === 'string' && pattern.test(v);
    };
  }
  return undefined;
}

/**
 * The checks zod runs after the schema's own parse (`.min`, `.regex`, `.int`, `.refine`,
 * `.superRefine`, a string format: the schema itself when it is a check); undefined when the
 * schema has none. `passes(value)`: every check surely passes (plain checks only, no payload);
 * else `run(payload)` runs them as zod does, in its order, and says whether all passed (an
 * overwrite such as `.trim()` leaves the new value in the payload).
 */
export function checksRunner(schema: z.ZodType): { passes: (value: unknown) => boolean; run: (payload: LeanPayload) => boolean } | undefined {
  const i = internalsOf(schema);
  const own = (i.def.checks as unknown[] | undefined) ?? [];
  const checks = (i.traits.has('$ZodCheck') ? [schema, ...own] : own).map(internalsOf);
  if (checks.length === 0) return undefined;
  const sure = checks.map(surePass);
  const plain = sure.every((s) => s !== undefined) ? (sure as ((v: unknown) => boolean)[]) : undefined;
  const passes = !plain
    ? () => false
    : plain.length === 1
      ? plain[0]
      : (v: unknown) => {
          // a loop, not `every` with a closure made per value
          for (let k = 0; k < plain.length; k++) if (!plain[k](v)) return false;
          return true;
        };
  const run = (payload: LeanPayload): boolean => {
    for (let k = 0; k < checks.length; k++) {
      // a check that surely finds nothing and changes nothing is skipped (exact: see surePass)
      const sp = sure[k];
      if (sp !== undefined && sp(payload.value)) continue;
      const c = checks[k];
      const when = c.def.when as ((p: LeanPayload) => boolean) | undefined;
      if (when && !when(payload)) continue;
      const r = c.check(payload);
      if (r instanceof Promise || payload.issues.length > 0) return false;
    }
    return true;
  };
  return { passes, run };
}

/**
 * What a schema's checks are (each check's definition, shallow-copied: `check` names it, e.g.
 * `min_length` with `minimum`, `string_format` with `format` and `pattern`, `greater_than` with
 * `value` and `inclusive`), the schema itself first when it is a check. For value generators.
 */
export function checkFacts(schema: z.ZodType): Record<string, unknown>[] {
  const i = internalsOf(schema);
  const own = (i.def.checks as unknown[] | undefined) ?? [];
  return (i.traits.has('$ZodCheck') ? [schema, ...own] : own).map((c) => ({ ...internalsOf(c).def }));
}
