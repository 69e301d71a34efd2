/** schemas/tools/zod-walk.ts: the one reader of zod's internals (issue 24), level by level. */
import { z } from 'zod';
import {
  arrayElementOf,
  arrayMinLength,
  definitionKey,
  innerOf,
  intersectionSides,
  isOpenObject,
  kindOf,
  lazyTarget,
  literalValues,
  markOf,
  objectShape,
  pipeSides,
  recordValueOf,
  checksRunner,
  setLastCheckPasses,
  setMark,
  setSureOutput,
  unionOptions,
  unwrapOnce,
  WRAPPER_KINDS,
} from '../../schemas/tools/zod-walk';
import { LEAN_REFUSED, leanParse } from '../../schemas/tools/lean';

describe('zod-walk', () => {
  const obj = z.object({ a: z.string(), b: z.number().optional() });

  it('kindOf names the kind at this level', () => {
    expect([z.string(), z.number(), z.boolean(), obj, z.array(z.string()), z.string().optional(), z.lazy(() => z.string())].map(kindOf)).toEqual([
      'string',
      'number',
      'boolean',
      'object',
      'array',
      'optional',
      'lazy',
    ]);
  });

  it('innerOf unwraps each wrapper kind once, and nothing else', () => {
    const s = z.string();
    const wrapped = [s.optional(), s.nullable(), s.default('x'), s.prefault('x'), s.optional().nonoptional(), s.readonly(), s.catch('x')];
    expect(wrapped.map(kindOf)).toEqual([...WRAPPER_KINDS]);
    for (const w of wrapped.filter((x) => kindOf(x) !== 'nonoptional')) expect(innerOf(w)).toBe(s);
    expect(kindOf(innerOf(s.optional().nonoptional()) as z.ZodType)).toBe('optional');
    expect(innerOf(s)).toBeUndefined();
    expect(innerOf(obj)).toBeUndefined();
  });

  it('pipeSides, lazyTarget and unwrapOnce step inward', () => {
    const out = z.string();
    const piped = z.unknown().pipe(out);
    expect(kindOf(pipeSides(piped)?.in as z.ZodType)).toBe('unknown');
    expect(pipeSides(piped)?.out).toBe(out);
    expect(pipeSides(out)).toBeUndefined();
    expect(kindOf(unwrapOnce(piped) as z.ZodType)).toBe('unknown');
    expect(unwrapOnce(piped, { pipe: 'out' })).toBe(out);
    expect(lazyTarget(z.lazy(() => obj))).toBe(obj);
    expect(unwrapOnce(z.lazy(() => obj))).toBe(obj);
    expect(unwrapOnce(obj.optional())).toBe(obj);
    expect(lazyTarget(obj)).toBeUndefined();
    expect(unwrapOnce(obj)).toBeUndefined();
  });

  it('objectShape and isOpenObject', () => {
    expect(Object.keys(objectShape(obj) ?? {})).toEqual(['a', 'b']);
    expect(objectShape(z.string())).toBeUndefined();
    expect(isOpenObject(obj)).toBe(false);
    expect(isOpenObject(z.strictObject({ a: z.string() }))).toBe(false);
    expect(isOpenObject(z.looseObject({ a: z.string() }))).toBe(true);
    expect(isOpenObject(obj.catchall(z.number()))).toBe(true);
    expect(isOpenObject(z.string())).toBe(false);
  });

  it('arrays: element and minimum length', () => {
    const el = z.string();
    expect(arrayElementOf(z.array(el))).toBe(el);
    expect(arrayElementOf(el)).toBeUndefined();
    expect(arrayMinLength(z.array(el))).toBe(0);
    expect(arrayMinLength(z.array(el).min(2))).toBe(2);
    expect(arrayMinLength(z.array(el).nonempty())).toBe(1);
    expect(arrayMinLength(z.array(el).max(3))).toBe(0);
  });

  it('records, unions, intersections, literals', () => {
    const v = z.number();
    expect(recordValueOf(z.record(z.string(), v))).toBe(v);
    expect(recordValueOf(obj)).toBeUndefined();
    const a = z.string();
    const b = z.number();
    expect(unionOptions(z.union([a, b]))).toEqual([a, b]);
    expect(unionOptions(a)).toBeUndefined();
    expect(intersectionSides(z.intersection(a, b))).toEqual({ left: a, right: b });
    expect(intersectionSides(a)).toBeUndefined();
    expect(literalValues(z.literal(3))).toEqual([3]);
    expect(literalValues(a)).toBeUndefined();
  });

  it('markers live on the definition and survive refine; definitionKey follows the definition', () => {
    const s = z.object({ a: z.string() });
    expect(markOf(s, 'dqOneof')).toBeUndefined();
    setMark(s, 'dqOneof', [['a']]);
    expect(markOf(s, 'dqOneof')).toEqual([['a']]);
    const refined = s.refine(() => true);
    expect(markOf(refined, 'dqOneof')).toEqual([['a']]);
    expect(markOf(z.object({ a: z.string() }), 'dqOneof')).toBeUndefined();
    expect(definitionKey(s)).toBe(definitionKey(s));
    expect(definitionKey(s)).not.toBe(definitionKey(z.object({ a: z.string() })));
  });

  it('a refinement marked with a sure pass (setLastCheckPasses) is skipped for a value that passes, run for one that does not', () => {
    let runs = 0;
    const oneKey = z.object({ a: z.string().optional(), b: z.string().optional() }).superRefine((v, ctx) => {
      runs++;
      if ((v.a === undefined) === (v.b === undefined)) ctx.addIssue({ code: 'custom', message: 'exactly one of a, b' });
    });
    setLastCheckPasses(oneKey, (v) => {
      const o = v as { a?: string; b?: string };
      return (o.a === undefined) !== (o.b === undefined);
    });
    const c = checksRunner(oneKey)!;
    expect(c.passes({ a: 'x' })).toBe(true);
    expect(c.passes({})).toBe(false);
    expect(c.run({ value: {}, issues: [] })).toBe(false);
    expect(runs).toBe(1);
    // with another check after it, the marked one is still skipped where it surely passes
    const both = oneKey.refine((v) => v.a !== 'no', 'not no');
    const r = checksRunner(both)!;
    expect(r.passes({ a: 'x' })).toBe(false);
    expect(r.run({ value: { a: 'x' }, issues: [] })).toBe(true);
    expect(r.run({ value: { a: 'no' }, issues: [] })).toBe(false);
    expect(runs).toBe(1);
    // zod's own answer is unchanged
    expect(oneKey.safeParse({}).success).toBe(false);
    expect(oneKey.safeParse({ b: 'y' }).success).toBe(true);
  });

  it('a parse shortcut (setSureOutput) answers for the values it is sure of; the others, and every check, take the full parse', () => {
    let full = 0;
    const upper = z.string().transform((v) => {
      full++;
      return v.toUpperCase();
    });
    setSureOutput(upper, (v) => (v === 'x' ? 'X' : undefined));
    expect(leanParse(upper, 'x')).toBe('X');
    expect(full).toBe(0);
    expect(leanParse(upper, 'y')).toBe('Y');
    expect(full).toBe(1);
    expect(leanParse(upper, 1)).toBe(LEAN_REFUSED);
    // a refinement on a clone keeps the shortcut and still runs
    const notX = upper.refine((v) => v !== 'X', 'not x');
    expect(leanParse(notX, 'x')).toBe(LEAN_REFUSED);
    expect(full).toBe(1);
  });
});
