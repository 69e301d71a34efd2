/**
 * objectShapes / arrayElement boundaries: the depth guard (20 wrappers) and the openness of an
 * intersection with exactly one open side. (Mutants of src/engine/unknown-fields.ts, issue 23.)
 */
import { z } from 'zod';
import { arrayElement, objectShapes } from '../../src/engine/unknown-fields';

function wrap(s: z.ZodType, n: number, how: 'optional' | 'pipe'): z.ZodType {
  let out = s;
  for (let i = 0; i < n; i++) out = how === 'optional' ? out.optional() : out.pipe(z.any());
  return out;
}

describe('objectShapes depth guard', () => {
  const Obj = z.object({ a: z.string() });
  test('20 optional wrappers are unwrapped, 21 are not', () => {
    expect(objectShapes(wrap(Obj, 20, 'optional')).map((s) => Object.keys(s.shape))).toEqual([['a']]);
    expect(objectShapes(wrap(Obj, 21, 'optional'))).toEqual([]);
  });
  test('20 pipes are unwrapped, 21 are not', () => {
    expect(objectShapes(wrap(Obj, 20, 'pipe')).map((s) => Object.keys(s.shape))).toEqual([['a']]);
    expect(objectShapes(wrap(Obj, 21, 'pipe'))).toEqual([]);
  });
  test('a depth already past 20 gives nothing', () => {
    expect(objectShapes(Obj, 21)).toEqual([]);
    expect(objectShapes(Obj, 20).map((s) => s.open)).toEqual([false]);
  });
});

describe('objectShapes of an intersection', () => {
  test('open when only the left side is open, or only the right', () => {
    const closed = z.object({ a: z.string() });
    const open = z.looseObject({ b: z.string() });
    expect(objectShapes(z.intersection(open, closed))).toEqual([expect.objectContaining({ open: true })]);
    expect(objectShapes(z.intersection(closed, open))).toEqual([expect.objectContaining({ open: true })]);
    expect(objectShapes(z.intersection(closed, z.object({ c: z.string() })))).toEqual([expect.objectContaining({ open: false })]);
  });
});

describe('arrayElement depth guard', () => {
  const Arr = z.array(z.string());
  test('20 optional wrappers are unwrapped, 21 are not', () => {
    expect(arrayElement(wrap(Arr, 20, 'optional'))).toBeDefined();
    expect(arrayElement(wrap(Arr, 21, 'optional'))).toBeUndefined();
    expect(arrayElement(Arr, 21)).toBeUndefined();
  });
});
