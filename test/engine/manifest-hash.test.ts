/**
 * The manifest hash (issue 27): the loader writes the manifest in canonical form (keys sorted
 * at every depth), so `manifestHash` serialises it with JSON.stringify alone; the hash is the
 * one it always was (sha256 of the key-sorted JSON), so a plan file saved by an earlier
 * version is still checked against the code correctly (`bind.ts` compares the two hashes).
 */
import { hash } from 'node:crypto';
import { isCanonicalJson } from '../../schemas/tools/canonical-json';
import { manifestFromTerraformJson, manifestHash } from '../../src/engine/manifest';
import { jsonPieces, mapKeysDeep, mapKeysDeepSorted, mapKeysDeepSortedOwned, snakeToCamel, sortKeysDeep } from '../../src/engine/keys';
import { terraformJson } from '../../bench/fixtures';
import { leanParse } from '../../schemas/tools/lean';
import { Manifest, ManifestResource } from '../../schemas/model/manifest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HANDLERS } from '../../src/kinds/index';
import { computePlan, type LiveState } from '../../src/engine/planner';
import { resolveManifest } from '../../src/engine/resolve';
import { handlerDesiredForms } from '../../src/engine/reconcile';

/** Every part of a Terraform JSON document the loader reads, its keys in the order cdktf writes them (not sorted). */
const doc = {
  provider: { dq: [{ namespace: 'shop', region: 'eu', credentials_from: { client_secret: 'SHOP_CLIENT_SECRET', client_id: 'SHOP_CLIENT_ID' } }] },
  resource: {
    dq_owner: {
      team: {
        title: 'Team',
        contacts: [{ email: { recipient_emails: ['b@x.io', 'a@x.io'] } }],
        '//': { metadata: { path: 'app/shop/team' } },
        lifecycle: { prevent_destroy: true, ignore_changes: ['contacts'] },
        depends_on: ['dq_domain.sales'],
      },
    },
    dq_domain: { sales: { name: 'Sales', description: 'd' } },
    dq_alert: {
      orders: {
        name: 'Orders',
        issue_lifecycle: { trigger: { resolver_ql: 'with_type("table")' }, targets: [{ slack: { channel: '#o' } }], settings: { severities: [2] } },
        lifecycle: { ignore_changes: 'all' },
      },
    },
  },
  moved: [{ from: 'dq_domain.old', to: 'dq_domain.sales' }],
  import: [{ to: 'dq_alert.orders', id: 'shop.orders' }],
  removed: [{ from: 'dq_owner.gone', lifecycle: { destroy: false } }],
};

test('the hash of a manifest is the one the earlier versions computed (pinned: made by main at bd41b50)', () => {
  const m = manifestFromTerraformJson(doc, { stack: 'shop' });
  expect(manifestHash(m)).toBe('1b8554f07c8abda730afa7cf369fbe98e4d74f10f0e4a7456f794f711884c27c');
  // and it is the sha256 of the key-sorted JSON, whatever order the manifest's keys are in
  expect(manifestHash(m)).toBe(hash('sha256', JSON.stringify(sortKeysDeep(m)), 'hex'));
});

test('the loader writes the manifest in canonical form: JSON.stringify alone is its key-sorted JSON', () => {
  // a construct path (source) and a lifecycle of both members: what the loader's resources may hold, each in sorted order as built
  const full = {
    provider: { dq: [{ namespace: 'full' }] },
    resource: { dq_owner: { a: { '//': { metadata: { path: 'app/a' } }, title: 'A', lifecycle: { prevent_destroy: true, ignore_changes: ['title'] } }, b: { title: 'B', lifecycle: { prevent_destroy: true } } } },
  };
  for (const m of [
    manifestFromTerraformJson(doc, { stack: 'shop' }),
    manifestFromTerraformJson(terraformJson('bench', 90, { changedEvery: 10 }), { stack: 'bench' }),
    manifestFromTerraformJson(JSON.parse(JSON.stringify(full)), { stack: 'full', consume: true }),
  ]) {
    // the resources (zod writes them in its schema's order), their configs and lifecycles
    expect(m.resources.filter((r) => !isCanonicalJson(r)).map((r) => r.address)).toEqual([]);
    expect(isCanonicalJson(m)).toBe(true);
    expect(JSON.stringify(m)).toBe(JSON.stringify(sortKeysDeep(m)));
  }
});

test('mapKeysDeepSorted: mapKeysDeep with each object filled in the sorted order of its new keys, the skipped keys left out at the top only', () => {
  const raw = { title: 'T', '//': { x: 1 }, contacts: [{ email: { recipient_emails: ['a'], '//': 2 } }], a_b: 1, aB: 2 };
  const out = mapKeysDeepSorted(raw, snakeToCamel, new Set(['//']));
  // the same members as mapKeysDeep's (of two keys with one new name, the later wins)
  const { '//': _meta, ...attrs } = raw;
  expect(out).toEqual(mapKeysDeep(attrs, snakeToCamel));
  expect(JSON.stringify(out)).toBe('{"aB":2,"contacts":[{"email":{"//":2,"recipientEmails":["a"]}}],"title":"T"}');
  expect(isCanonicalJson(out)).toBe(true);
  expect(mapKeysDeepSorted({ b_a: 1, a_b: 2, aB: 3 }, snakeToCamel)).toEqual({ aB: 3, bA: 1 });
  expect(mapKeysDeepSorted({ aB: 3, a_b: 2 }, snakeToCamel)).toEqual({ aB: 2 });
  expect(mapKeysDeepSorted(['x_y', null, 3], snakeToCamel)).toEqual(['x_y', null, 3]);
});

test('the loaded manifest\'s resources are their own parse output: the loader\'s parse copies none of them (issue 27)', () => {
  const m = manifestFromTerraformJson(terraformJson('bench', 90, { changedEvery: 10 }), { stack: 'bench' });
  // parsed again as the loader parses (owned), every resource, config and lifecycle is kept
  const again = leanParse(Manifest, m, { owned: true }) as Manifest;
  expect(again.resources.length).toBe(m.resources.length);
  expect(again.resources.filter((r, i) => r !== m.resources[i]).map((r) => r.address)).toEqual([]);
  // a resource without a construct path has no `source` member (an `undefined` one would be copied)
  const bare = manifestFromTerraformJson({ provider: { dq: { namespace: 'ns' } }, resource: { dq_owner: { a: { title: 'A' } } } }, { stack: 's' });
  expect('source' in bare.resources[0]).toBe(false);
  expect(leanParse(ManifestResource, bare.resources[0], { owned: true })).toBe(bare.resources[0]);
});

test('a manifest the loader did not make (keys in any order) hashes as the loader\'s: only the loader\'s own manifests skip the canonical-form check (issue 27)', () => {
  const m = manifestFromTerraformJson(terraformJson('bench', 45, { changedEvery: 10 }), { stack: 'bench' });
  // a structurally equal copy, every object's keys reversed (as a YAML front end or a library user might build it)
  const reversed = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(reversed) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reversed(x)])) : v;
  const copy = reversed(m) as Manifest;
  expect(JSON.stringify(copy)).not.toBe(JSON.stringify(m));
  expect(manifestHash(copy)).toBe(manifestHash(m));
  expect(manifestHash(m)).toBe(hash('sha256', JSON.stringify(sortKeysDeep(m)), 'hex'));
});

test('mapKeysDeepSorted remembers what it did per sequence of keys: objects of one shape, of shapes that extend one another, keys in other orders and one new name from two keys (issue 27)', () => {
  // the earlier construction, written out: convert, then fill each object in the sorted order of the new names (stable)
  const reference = (v: unknown, skip?: ReadonlySet<string>): unknown => {
    if (Array.isArray(v)) return v.map((x) => reference(x));
    if (!v || typeof v !== 'object') return v;
    const pairs = Object.keys(v)
      .filter((k) => !skip?.has(k))
      .map((k, i) => ({ name: snakeToCamel(k), k, i }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.i - b.i));
    const out: Record<string, unknown> = {};
    for (const p of pairs) out[p.name] = reference((v as Record<string, unknown>)[p.k]);
    return out;
  };
  const skip = new Set(['//', 'lifecycle']);
  const values: unknown[] = [
    { b_x: 1, a_y: 2 },
    { b_x: 1, a_y: 2, c_z: 3 },
    { b_x: 1 },
    { a_y: 2, b_x: 1 },
    { a_b: 1, aB: 2 },
    { aB: 2, a_b: 1 },
    { lifecycle: { x_y: 1 }, '//': 2, z_q: [{ b_x: 1, a_y: [{ lifecycle: 3 }] }, 'a_b', null] },
    { z_q: { lifecycle: 1, b_x: 1 } },
    [],
    'a_b',
  ];
  // twice over, so that the second pass meets every shape already remembered
  for (const v of [...values, ...values]) {
    for (const s of [undefined, skip]) {
      const got = mapKeysDeepSorted(v, snakeToCamel, s);
      expect(JSON.stringify(got)).toBe(JSON.stringify(reference(v, s)));
    }
  }
});

test('mapKeysDeepSortedOwned: what mapKeysDeepSorted makes, keeping the arrays and the objects already so of a value handed over (issue 27)', () => {
  const texts = [
    '{"title":"T","contacts":[{"email":{"recipient_emails":["a"]}}],"a_b":1,"aB":2}',
    '{"name":"N","selection":{"query":{"resolver_ql":"x"}},"tags":[["a",{"b":1}],null,3]}',
    '{"//":{"x_y":1},"lifecycle":{"a":1},"z":{"a":1,"b":[{"c":{}}]}}',
    '{"__proto__":{"a":1},"b":{"__proto__":2,"c":3}}',
    '{"10":{"a":1},"9":2,"a":{"1":1,"b":2}}',
    '{"b":1,"a":{"c":1}}',
    '[{"a":1},{"b_c":2}]',
    '"a_b"',
  ];
  const skip = new Set(['//', 'lifecycle']);
  for (const t of [...texts, ...texts]) {
    for (const s of [undefined, skip]) {
      const owned = JSON.parse(t) as unknown;
      const got = mapKeysDeepSortedOwned(owned, snakeToCamel, s);
      const want = mapKeysDeepSorted(JSON.parse(t), snakeToCamel, s);
      expect([t, JSON.stringify(got), Object.getPrototypeOf(got ?? {})]).toEqual([t, JSON.stringify(want), Object.getPrototypeOf(want ?? {})]);
      expect(got).toEqual(want);
    }
  }
  // kept: the arrays, and the objects whose keys are their new names in sorted order; copied: the others
  const v = JSON.parse('{"name":"N","sel":{"query":{"resolver_ql":"x"}},"tags":[{"a":1}]}') as { sel: { query: object }; tags: object[] };
  const [sel, query, tags, tag] = [v.sel, v.sel.query, v.tags, v.tags[0]];
  const out = mapKeysDeepSortedOwned(v, snakeToCamel) as typeof v;
  expect([out === v, out.sel === sel, out.sel.query === query, out.tags === tags, out.tags[0] === tag]).toEqual([true, true, false, true, true]);
  expect(out).toEqual({ name: 'N', sel: { query: { resolverQl: 'x' } }, tags: [{ a: 1 }] });
});

test('jsonPieces: JSON.stringify of a value in pieces, its long array a few items at a time; manifestHash hashes them (issue 27)', () => {
  const items = Array.from({ length: 10 }, (_, i) => ({ i, s: `x"${i}` }));
  const cases: Record<string, unknown>[] = [
    { a: 1, list: items, z: 'after' },
    { list: items },
    { a: '\u0000dqform:pieces\u0000', list: items },
    { a: 1, list: [items[0]], z: 2 },
    { a: 1, list: 'not an array' },
    { a: 1, list: [...items, undefined, null] },
    { b: undefined, list: items, c: [1, 2] },
  ];
  for (const v of cases) {
    for (const per of [1, 3, 10, 256]) {
      const pieces = jsonPieces(v, 'list', per);
      expect(pieces.join('')).toBe(JSON.stringify(v));
      if (Array.isArray(v.list) && v.list.length > per && !JSON.stringify(v).includes('dqform:pieces')) expect(pieces.length).toBe(4 + Math.ceil(v.list.length / per));
      else expect(pieces).toEqual([JSON.stringify(v)]);
    }
  }
  // a manifest of more resources than a piece holds hashes as its whole text does
  const m = manifestFromTerraformJson(terraformJson('bench', 600, { changedEvery: 10 }), { stack: 'bench' });
  expect(m.resources.length).toBeGreaterThan(256);
  expect(jsonPieces(m as unknown as Record<string, unknown>, 'resources').length).toBeGreaterThan(3);
  expect(manifestHash(m)).toBe(hash('sha256', JSON.stringify(m), 'hex'));
  expect(manifestHash(m)).toBe(hash('sha256', JSON.stringify(sortKeysDeep(m)), 'hex'));
});

test('the loader drops a consumed document\'s resource bodies as it converts them, and leaves a document it was lent as it was; the manifests are equal (issue 27)', () => {
  const lent = terraformJson('bench', 45, { changedEvery: 10 });
  const before = JSON.stringify(lent);
  const kept = manifestFromTerraformJson(lent, { stack: 'bench' });
  expect(JSON.stringify(lent)).toBe(before);
  const owned = JSON.parse(before) as { resource: Record<string, Record<string, unknown>> };
  const consumed = manifestFromTerraformJson(owned, { stack: 'bench', consume: true });
  expect(JSON.stringify(consumed)).toBe(JSON.stringify(kept));
  expect(manifestHash(consumed)).toBe(manifestHash(kept));
  // every body converted was let go of (its name stays, its value is gone)
  for (const byName of Object.values(owned.resource)) expect(Object.values(byName).filter((b) => b !== undefined)).toEqual([]);
});

test('a loaded manifest is only read by resolution, binding and planning: what lets manifestHash skip the canonical-form check stays true (every golden case; review of issue 27)', () => {
  const root = path.join(__dirname, '..', 'golden', 'plan');
  const cases = fs.readdirSync(root).filter((c) => fs.existsSync(path.join(root, c, 'desired.json')) && fs.existsSync(path.join(root, c, 'live.json')));
  expect(cases.length).toBeGreaterThan(5);
  const frozen = (v: unknown): void => {
    if (v && typeof v === 'object' && !Object.isFrozen(v)) {
      Object.freeze(v);
      for (const x of Object.values(v)) frozen(x);
    }
  };
  for (const c of cases) {
    const read = (f: string): unknown => JSON.parse(fs.readFileSync(path.join(root, c, f), 'utf8'));
    const m = manifestFromTerraformJson(read('desired.json'), { stack: c, consume: true });
    const text = JSON.stringify(m);
    const want = hash('sha256', JSON.stringify(sortKeysDeep(m)), 'hex');
    // a write anywhere in it throws where it is made (strict mode), instead of changing the hash unseen
    frozen(m);
    for (const offline of [false, true]) {
      const resolution = resolveManifest(m, 'demo', { offline });
      for (const t of new Set(resolution.resources.map((r) => r.type))) HANDLERS[t].bindDesired?.(resolution.resources.filter((r) => r.type === t), { workspace: 'demo', namespace: m.namespace });
      const afters = handlerDesiredForms(resolution);
      computePlan({ resolution, live: read('live.json') as LiveState, handlers: HANDLERS, manifestHash: manifestHash(m), afters });
    }
    expect([c, JSON.stringify(m)]).toEqual([c, text]);
    expect([c, manifestHash(m)]).toEqual([c, want]);
  }
});

test('jsonPieces: byte-identical to JSON.stringify for edge values (unicode, lone surrogates, -0, empty nests, toJSON, undefined, __proto__ keys)', () => {
  const parsed = JSON.parse('{"__proto__":{"x":1},"k":"v"}') as Record<string, unknown>;
  const edge: unknown[] = [
    'é日本\u{1F600}',
    '\uD800',
    'a\uDC00b',
    '\u2028\u2029\u0000\u001f"\\',
    -0,
    [-0, 0, NaN, Infinity, -Infinity],
    {},
    [],
    { a: {}, b: [], c: [[], [{}]], d: { e: { f: {} } } },
    new Date(0),
    { toJSON: () => ({ replaced: true }) },
    { u: undefined, f: () => 1, s: Symbol('s'), n: null },
    undefined,
    parsed,
    { '\u0000dqform:pieces\u0000': 1 },
  ];
  const top: Record<string, unknown>[] = [
    { before: parsed, list: edge, after: { '': -0, '\uD83D': '\uDE00' } },
    JSON.parse('{"__proto__":[1],"list":[1,2,3,4],"z":{}}') as Record<string, unknown>,
    { list: edge, toJSON: () => 'whole' },
    Object.assign(Object.create(null) as Record<string, unknown>, { list: edge, u: undefined }),
  ];
  for (const v of top) {
    for (const per of [1, 2, 5, 256]) expect(jsonPieces(v, 'list', per).join('')).toBe(JSON.stringify(v));
  }
});

test('the settle hook (a form made as each resource resolves) changes neither the frozen manifest nor the desired object it is handed (every golden case; review of f5bc039)', () => {
  const root = path.join(__dirname, '..', 'golden', 'plan');
  const cases = fs.readdirSync(root).filter((c) => fs.existsSync(path.join(root, c, 'desired.json')));
  expect(cases.length).toBeGreaterThan(5);
  const frozen = (v: unknown): void => {
    if (v && typeof v === 'object' && !Object.isFrozen(v)) {
      Object.freeze(v);
      for (const x of Object.values(v)) frozen(x);
    }
  };
  let settled = 0;
  for (const c of cases) {
    const m = manifestFromTerraformJson(JSON.parse(fs.readFileSync(path.join(root, c, 'desired.json'), 'utf8')), { stack: c, consume: true });
    const want = manifestHash(m);
    frozen(m);
    resolveManifest(m, 'demo', {
      settle: (t, d) => {
        const before = JSON.stringify(d);
        try {
          HANDLERS[t].fromDesired(d);
        } catch {
          // a handler that refuses a desired object: the planner says why (desired.ts formCollector)
        }
        expect(JSON.stringify(d)).toBe(before);
        settled++;
        return d;
      },
    });
    expect([c, manifestHash(m)]).toEqual([c, want]);
  }
  expect(settled).toBeGreaterThan(cases.length);
});
