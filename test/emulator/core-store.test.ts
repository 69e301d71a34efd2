/**
 * Store, etag helpers and violation helpers (units), plus the 50,000-object page timing.
 *
 * @gateway-exempt pins its own encoding: asserts the emulator's exact response bodies
 */
import { z } from 'zod';
import { EmulatorStore, checkEtag, etagMatches, EmulatorError, fieldPath, runBatch, startEmulator, zodViolations, notFound } from '../../src/emulator';
import { call, coreRoutes, tokenFor } from './core-helpers';

type T = { id: string; n: number };
const fresh = () => new EmulatorStore().workspace('w').collection<T>('t');

describe('Collection', () => {
  test('put assigns W/"<id>-<version>" and clones; versions survive deletes', () => {
    const c = fresh();
    const v = { id: 'a', n: 1 };
    const s1 = c.put('a', v);
    v.n = 99;
    expect(s1).toEqual({ id: 'a', n: 1, etag: 'W/"a-1"' });
    expect(c.put('a', { id: 'a', n: 2 }).etag).toBe('W/"a-2"');
    expect(c.delete('a')).toBe(true);
    expect(c.delete('a')).toBe(false);
    expect(c.get('a')).toBeUndefined();
    expect(c.put('a', { id: 'a', n: 3 }).etag).toBe('W/"a-3"');
  });

  test('groupBy is a secondary index kept in step with writes; pageOf pages one group like page', () => {
    const c = fresh();
    for (const [id, n] of [['d', 1], ['a', 2], ['c', 1], ['b', 1]] as const) c.put(id, { id, n });
    const g = () => Object.fromEntries([...c.groupBy('n', (v) => String(v.n))].map(([k, ids]) => [k, [...ids]]));
    expect(g()).toEqual({ '1': ['b', 'c', 'd'], '2': ['a'] });
    c.put('c', { id: 'c', n: 2 });
    c.delete('d');
    expect(g()).toEqual({ '1': ['b'], '2': ['a', 'c'] });
    const two = c.groupBy('n', (v) => String(v.n)).get('2')!;
    expect(c.pageOf(two, undefined, 1)).toEqual({ items: [c.get('a')], pageInfo: { count: 1, lastId: 'a' } });
    expect(c.pageOf(two, 'a', 1)).toEqual({ items: [c.get('c')], pageInfo: { count: 1, lastId: '' } });
    expect(c.pageOf(two, undefined, 10, (v) => v.id !== 'a').items.map((v) => v.id)).toEqual(['c']);
  });

  test('groupBy is kept in step by each write, not rebuilt: a write reads the written object only (issue 27)', () => {
    const c = fresh();
    for (let i = 0; i < 200; i++) c.put(`k${String(i).padStart(3, '0')}`, { id: `k${i}`, n: i % 7 });
    let calls = 0;
    const keyOf = (v: T) => {
      calls++;
      return String(v.n);
    };
    c.groupBy('n', keyOf);
    expect(calls).toBe(200);
    calls = 0;
    c.put('k005', { id: 'k005', n: 3 }); // moves from group 5 to group 3: the old and the new object
    c.delete('k010'); // the deleted object
    c.put('new', { id: 'new', n: 1 }); // the new object
    expect(c.groupBy('n', keyOf).get('3')).toContain('k005');
    expect(c.groupBy('n', keyOf).get('5')).not.toContain('k005');
    expect(c.groupBy('n', keyOf).get('3')).not.toContain('k010');
    expect(c.groupBy('n', keyOf).get('1')).toContain('new');
    expect(calls).toBe(4);
  });

  test('groupBy equals a rebuild from scratch after seeded random puts, deletes and clears', () => {
    let seed = 27;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const keyOf = (v: T) => (v.n % 4 === 3 ? '' : String(v.n % 4));
    const rebuilt = (c: ReturnType<typeof fresh>) => {
      const m = new Map<string, string[]>();
      for (const v of c.values()) m.set(keyOf(v), [...(m.get(keyOf(v)) ?? []), v.id]);
      return m;
    };
    const c = fresh();
    for (let step = 0; step < 3000; step++) {
      const id = `id${rand(60)}`;
      const op = rand(100);
      if (op < 60) c.put(id, { id, n: rand(10) });
      else if (op < 99) c.delete(id);
      else c.clear();
      if (step % 7 === 0 || op >= 99) {
        const live = new Map([...c.groupBy('g', keyOf)].map(([k, ids]) => [k, [...ids]]));
        expect(live).toEqual(rebuilt(c));
      }
    }
  });

  test('values and ids are sorted by id whatever the insertion order', () => {
    const c = fresh();
    for (const id of ['m', 'b', 'z', 'a', 'k']) c.put(id, { id, n: 0 });
    c.delete('k');
    expect(c.ids()).toEqual(['a', 'b', 'm', 'z']);
    expect(c.values().map((v) => v.id)).toEqual(['a', 'b', 'm', 'z']);
    expect(c.count).toBe(4);
  });

  test.each([
    // [reason, ids, pageSize, expected pages]
    ['exact multiple: last page has empty lastId', ['a', 'b', 'c', 'd'], 2, [['a', 'b'], ['c', 'd']]],
    ['remainder page', ['a', 'b', 'c'], 2, [['a', 'b'], ['c']]],
    ['empty collection: one empty page', [], 5, [[]]],
    ['pageSize 0 means the default (100)', ['a', 'b'], 0, [['a', 'b']]],
  ])('page: %s', (_why, ids, size, expected) => {
    const c = fresh();
    for (const id of ids as string[]) c.put(id, { id, n: 0 });
    const pages: string[][] = [];
    let cursor: string | undefined;
    for (;;) {
      const p = c.page(cursor, size as number);
      pages.push(p.items.map((i) => i.id));
      expect(p.pageInfo.count).toBe(p.items.length);
      if (!p.pageInfo.lastId) break;
      expect(p.pageInfo.lastId).toBe(p.items[p.items.length - 1].id);
      cursor = p.pageInfo.lastId;
    }
    expect(pages).toEqual(expected);
  });

  test('page with a filter and a cursor that was deleted meanwhile', () => {
    const c = fresh();
    for (let i = 0; i < 10; i++) c.put(`k${i}`, { id: `k${i}`, n: i });
    const even = (v: T) => v.n % 2 === 0;
    const p1 = c.page(undefined, 2, even);
    expect(p1.items.map((i) => i.id)).toEqual(['k0', 'k2']);
    expect(p1.pageInfo.lastId).toBe('k2');
    c.delete('k2');
    const p2 = c.page(p1.pageInfo.lastId, 2, even);
    expect(p2.items.map((i) => i.id)).toEqual(['k4', 'k6']);
    const p3 = c.page(p2.pageInfo.lastId, 2, even);
    expect(p3.items.map((i) => i.id)).toEqual(['k8']);
    expect(p3.pageInfo.lastId).toBe('');
  });

  test('page size is capped at 1000', () => {
    const c = fresh();
    for (let i = 0; i < 1500; i++) c.put(String(i).padStart(4, '0'), { id: '', n: i });
    expect(c.page(undefined, 5000).items).toHaveLength(1000);
  });
});

describe('etag helpers', () => {
  test.each([
    ['no etag given: last writer wins', { etag: 'W/"a-2"' }, undefined, true],
    ['empty etag: last writer wins', { etag: 'W/"a-2"' }, '', true],
    ['same etag', { etag: 'W/"a-2"' }, 'W/"a-2"', true],
    ['stale etag', { etag: 'W/"a-2"' }, 'W/"a-1"', false],
    ['object gone with an etag', undefined, 'W/"a-1"', false],
  ])('%s', (_why, obj, etag, ok) => {
    expect(etagMatches(obj, etag)).toBe(ok);
    if (ok) expect(() => checkEtag(obj, etag)).not.toThrow();
    else {
      try {
        checkEtag(obj, etag, 'thing a');
        throw new Error('expected ABORTED');
      } catch (e) {
        expect(e).toBeInstanceOf(EmulatorError);
        expect((e as EmulatorError).code).toBe('ABORTED');
        expect((e as EmulatorError).httpStatus).toBe(409);
        expect((e as EmulatorError).message).toContain('thing a');
      }
    }
  });
});

describe('violations', () => {
  test('fieldPath renders protovalidate paths', () => {
    expect(fieldPath(['targets', 0, 'email', 'recipientEmails', 2])).toBe('targets[0].email.recipientEmails[2]');
    expect(fieldPath([])).toBe('');
  });

  test('zodViolations: rule id <operation>.<field>, custom rule ids, whole-object issues', () => {
    const S = z
      .object({ name: z.string().min(1), items: z.array(z.object({ v: z.number() })) })
      .superRefine((v, ctx) => {
        if (v.name === 'x') ctx.addIssue({ code: 'custom', message: 'no x', params: { ruleId: 'update_settings.at_least_one_facet' } });
      });
    const r1 = S.safeParse({ name: '', items: [{ v: 'no' }] });
    expect(r1.success).toBe(false);
    expect(zodViolations(r1.error!, 'upsert')).toEqual([
      { field: 'name', ruleId: 'upsert.name', message: expect.any(String) },
      { field: 'items[0].v', ruleId: 'upsert.items.v', message: expect.any(String) },
    ]);
    const r2 = S.safeParse({ name: 'x', items: [] });
    expect(zodViolations(r2.error!, 'upsert')).toEqual([{ field: '', ruleId: 'update_settings.at_least_one_facet', message: 'no x' }]);
    const r3 = z.string().safeParse(1);
    expect(zodViolations(r3.error!, 'op')[0].ruleId).toBe('op.invalid_type');
  });

  test('runBatch turns EmulatorErrors into per-item errors and lets bugs through', () => {
    const r = runBatch(['a', 'b'], (x) => x, (x) => {
      if (x === 'b') throw notFound('b is missing');
      return x.toUpperCase();
    });
    expect(r).toEqual({ results: [{ id: 'a', result: 'A' }], errors: [{ id: 'b', reason: 'NOT_FOUND: b is missing' }] });
    expect(() => runBatch(['a'], (x) => x, () => { throw new TypeError('bug'); })).toThrow('bug');
  });
});

test('50,000 objects: a 200-item page over HTTP (timing printed, not asserted)', async () => {
  const emu = await startEmulator({ port: 0, seed: 'empty', discoverRoutes: false, routes: coreRoutes });
  try {
    const c = emu.app.store.workspace('demo').collection<{ id: string; name: string }>('things');
    let t0 = performance.now();
    // Insert in a scrambled order to exercise the sorted index.
    for (let i = 0; i < 50_000; i++) {
      const k = (i * 7919) % 50_000;
      const id = `obj-${String(k).padStart(6, '0')}`;
      c.put(id, { id, name: `object ${k}` });
    }
    const insert = performance.now() - t0;
    expect(c.count).toBe(50_000);
    const t = await tokenFor(emu.url, 'demo-reader');
    t0 = performance.now();
    const mid = await call(emu.url, 'GET', '/test/v1/things?pageSize=200&cursor=obj-025000', { token: t });
    const pageMs = performance.now() - t0;
    expect(mid.body.things).toHaveLength(200);
    expect(mid.body.things[0].id).toBe('obj-025001');
    expect(mid.body.pageInfo.lastId).toBe('obj-025200');
    t0 = performance.now();
    for (let i = 0; i < 1000; i++) c.page(`obj-${String(i * 37).padStart(6, '0')}`, 200);
    const inProcess = (performance.now() - t0) / 1000;
    const last = await call(emu.url, 'GET', '/test/v1/things?pageSize=200&cursor=obj-049900', { token: t });
    expect(last.body.things).toHaveLength(99);
    expect(last.body.pageInfo.lastId).toBe('');
    console.log(
      `50k objects: insert ${insert.toFixed(0)} ms; 200-item page over HTTP ${pageMs.toFixed(1)} ms; in-process page ${inProcess.toFixed(3)} ms`,
    );
  } finally {
    await emu.close();
  }
});
