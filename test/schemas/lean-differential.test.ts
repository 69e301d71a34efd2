/**
 * The lean validator (schemas/tools/lean.ts) against zod, differentially (issue 27): for every
 * schema the client parses a read response with, every desired-state schema, the manifest, the plan file and the
 * rules a preview asks about (src/client/services/previews.ts `parseRule`) and the effects it maps their
 * overviews to (src/kinds/shared/support.ts `effectsOf`),
 * seeded random values generated from the schema (through schemas/tools/zod-walk.ts) and mutations of
 * them (a key dropped, a wrong type, an extra key, null, an enum number, out of range, another
 * variant, ...) must get the same answer from both: refused by both, or accepted by both with the
 * same output (compared with key order, undefined-valued keys and frozen objects). A failure names
 * the seed (LEAN_SEED=<n> reruns it), the schema and the value.
 *
 * Run twice, as zod is set up in the CLI (`jitless`, the reference parser) and by default (the
 * generated object parsers), each in a fresh module registry so that zod reads the setting as the
 * schemas are built.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { z } from 'zod';
import { mulberry32 } from '../../src/emulator/random';

const ROOT = path.join(__dirname, '..', '..');
const SEED = Number(process.env.LEAN_SEED ?? 20261127);
/** Values per schema: this many generated and as many mutated, with zod as the CLI sets it up (a fifth of it in the other set-up). */
const PER_SCHEMA = Number(process.env.LEAN_PER_SCHEMA ?? 600);

type Walk = typeof import('../../schemas/tools/zod-walk');
type Lean = typeof import('../../schemas/tools/lean');
type Wire = typeof import('../../schemas/platform/wire');

/** A small seeded generator (src/emulator/random.ts). */
const rng = mulberry32;

/** A value's text with everything the output comparison cares about: key order, undefined keys, frozen objects. */
function canon(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  if (typeof v !== 'object' || v === null) return JSON.stringify(v);
  const frozen = Object.isFrozen(v) ? '!' : '';
  if (Array.isArray(v)) return `${frozen}[${v.map(canon).join(',')}]`;
  return `${frozen}{${Object.keys(v).map((k) => `${JSON.stringify(k)}:${canon((v as Record<string, unknown>)[k])}`).join(',')}}`;
}

const STRINGS = [
  '', 'a', 'x', 'orders', 'Team A', 'team_a', 'analytics.prod', 'ns-1', 'DQ_PROD_CLIENT_ID', 'DQ_PROD_CLIENT_SECRET', 'lower_case',
  '3f2b8c1e-9a4d-4e2b-8c1f-0a1b2c3d4e5f', '00000000-0000-0000-0000-000000000000', 'ent_3f2b8c1e-9a4d-4e2b-8c1f-0a1b2c3d4e5f',
  '2026-11-27T10:00:00Z', 'W/"abc-1"', 'SEVERITY_ERROR', 'https://example.com', 'a@b.co', '${dq_owner.team.id}', 'select 1', '  padded  ',
  'x'.repeat(70), 'table.db.schema.name', 'urn:li:dataset:1', '1', '-1', '0',
];
const NUMBERS = [0, 1, 2, 3, 5, -1, 10, 100, 1000, 1.5, 2 ** 31, 86400, 0.25];

/** Value generation from a schema, through zod-walk only. */
function generator(walk: Walk, next: () => number) {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  const chance = (p: number): boolean => next() < p;

  const json = (depth: number): unknown => {
    const r = next();
    if (depth > 2 || r < 0.3) return pick(STRINGS);
    if (r < 0.5) return pick(NUMBERS);
    if (r < 0.6) return chance(0.5);
    if (r < 0.8) return Array.from({ length: Math.floor(next() * 3) }, () => json(depth + 1));
    const o: Record<string, unknown> = {};
    for (let i = Math.floor(next() * 3); i > 0; i--) o[pick(['id', 'name', 'x', 'value'])] = json(depth + 1);
    return o;
  };

  const str = (s: z.ZodType): string => {
    const facts = walk.checkFacts(s);
    const patterns = facts.map((f) => f.pattern).filter((p): p is RegExp => p instanceof RegExp);
    const min = Math.max(0, ...facts.map((f) => (typeof f.minimum === 'number' && f.check === 'min_length' ? f.minimum : 0)));
    const fits = STRINGS.filter((x) => x.length >= min && patterns.every((p) => p.test(x)));
    if (fits.length && chance(0.9)) return pick(fits);
    return pick(STRINGS);
  };

  const num = (s: z.ZodType): number => {
    const facts = walk.checkFacts(s);
    const int = facts.some((f) => typeof f.format === 'string' && f.format.includes('int'));
    let lo = -Infinity;
    let hi = Infinity;
    for (const f of facts) {
      if (f.check === 'greater_than' && typeof f.value === 'number') lo = Math.max(lo, f.inclusive ? f.value : f.value + (int ? 1 : 0.01));
      if (f.check === 'less_than' && typeof f.value === 'number') hi = Math.min(hi, f.inclusive ? f.value : f.value - (int ? 1 : 0.01));
    }
    const fits = NUMBERS.filter((n) => n >= lo && n <= hi && (!int || Number.isInteger(n)));
    if (fits.length && chance(0.9)) return pick(fits);
    return Number.isFinite(lo) && chance(0.5) ? lo : pick(NUMBERS);
  };

  const gen = (s: z.ZodType, depth: number, full: boolean): unknown => {
    const kind = walk.kindOf(s);
    switch (kind) {
      case 'object': {
        const shape = walk.objectShape(s) as Record<string, z.ZodType>;
        const o: Record<string, unknown> = {};
        // a oneof group (withOneof's mark): mostly exactly one of its keys, as a valid value has
        const groups = (walk.markOf(s, 'dqOneof') as string[][] | undefined) ?? [];
        const chosen = new Set(groups.map((g) => pick(g)));
        const grouped = new Set(groups.flat());
        for (const [k, f] of Object.entries(shape)) {
          const optional = walk.optionality(f).optin !== undefined;
          if (grouped.has(k)) {
            if (chosen.has(k) ? chance(0.95) : chance(0.03)) o[k] = gen(f, depth + 1, full && chance(0.7));
            continue;
          }
          if (optional && depth > 5) continue;
          if (!optional || full || chance(0.5)) o[k] = gen(f, depth + 1, full && chance(0.7));
        }
        if (walk.isOpenObject(s) && chance(0.2)) o.extraKey = json(depth + 1);
        return o;
      }
      case 'array': {
        const min = walk.arrayMinLength(s);
        const n = depth > 5 ? min : min + Math.floor(next() * 3);
        return Array.from({ length: n }, () => gen(walk.arrayElementOf(s) as z.ZodType, depth + 1, full));
      }
      case 'record': {
        const o: Record<string, unknown> = {};
        const key = walk.recordKeyOf(s) as z.ZodType;
        for (let i = depth > 5 ? 0 : Math.floor(next() * 3); i > 0; i--) o[String(gen(key, depth + 1, false))] = gen(walk.recordValueOf(s) as z.ZodType, depth + 1, full);
        return o;
      }
      case 'union':
        return gen(pick(walk.unionOptions(s) as z.ZodType[]), depth, full);
      case 'intersection': {
        const sides = walk.intersectionSides(s) as { left: z.ZodType; right: z.ZodType };
        const l = gen(sides.left, depth, full);
        const r = gen(sides.right, depth, full);
        return l && r && typeof l === 'object' && typeof r === 'object' ? { ...l, ...r } : l;
      }
      case 'optional':
        return chance(0.05) ? undefined : gen(walk.innerOf(s) as z.ZodType, depth, full);
      case 'nullable':
        return chance(0.1) ? null : gen(walk.innerOf(s) as z.ZodType, depth, full);
      case 'default':
      case 'prefault':
        return chance(0.3) ? undefined : gen(walk.innerOf(s) as z.ZodType, depth, full);
      case 'nonoptional':
      case 'readonly':
      case 'catch':
        return gen(walk.innerOf(s) as z.ZodType, depth, full);
      case 'pipe': {
        const sides = walk.pipeSides(s) as { in: z.ZodType; out: z.ZodType };
        // z.preprocess: what the function reads is the output schema's shape
        return gen(walk.kindOf(sides.in) === 'transform' ? sides.out : sides.in, depth, full);
      }
      case 'lazy':
        return depth > 6 ? {} : gen(walk.lazyTarget(s) as z.ZodType, depth + 1, full);
      case 'string':
        return str(s);
      case 'number':
        return num(s);
      case 'boolean':
        return chance(0.5);
      case 'enum':
      case 'literal':
        return pick([...(walk.valueSet(s) as ReadonlySet<unknown>)]);
      case 'null':
        return null;
      case 'undefined':
        return undefined;
      default:
        return json(depth);
    }
  };

  /** Every place in `v` (objects and arrays), with a setter and a deleter. */
  const places = (v: unknown, out: { holder: Record<string, unknown> | unknown[]; key: string | number }[] = []): typeof out => {
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        out.push({ holder: v, key: i });
        places(x, out);
      });
    } else if (v && typeof v === 'object') {
      for (const k of Object.keys(v)) {
        out.push({ holder: v as Record<string, unknown>, key: k });
        places((v as Record<string, unknown>)[k], out);
      }
    }
    return out;
  };

  const WRONG: (() => unknown)[] = [() => null, () => undefined, () => 'text', () => 7, () => -3, () => 2.5, () => 1e12, () => true, () => ({}), () => [], () => [1], () => '', () => 0, () => 99, () => ({ zz: 1 })];

  /** One to three random mutations of `v` (a copy), wrapping the root when it has no inner place. */
  const mutate = (v: unknown): unknown => {
    const copy = structuredClone(v);
    const box = { root: copy } as Record<string, unknown>;
    for (let n = 1 + Math.floor(next() * 3); n > 0; n--) {
      const ps = places(box.root);
      if (ps.length === 0 || chance(0.05)) {
        box.root = pick(WRONG)();
        continue;
      }
      const p = pick(ps);
      const r = next();
      const holder = p.holder as Record<string | number, unknown>;
      if (r < 0.25 && !Array.isArray(holder)) delete holder[p.key];
      else if (r < 0.35) {
        // another key of the same object: an extra key, or a second oneof variant copied from a sibling
        if (!Array.isArray(holder)) holder[chance(0.5) ? 'unexpected' : pick(Object.keys(holder))] = holder[p.key];
      } else if (r < 0.45 && Array.isArray(holder)) holder.push(holder[p.key as number]);
      else holder[p.key] = pick(WRONG)();
    }
    return box.root;
  };

  return { gen: (s: z.ZodType, full: boolean) => gen(s, 0, full), mutate };
}

/**
 * The schemas the client parses read responses with: every `<Name>Response` (and `Empty`) the
 * hand-written services name, and every `response:` of the operation tables the derived services
 * are made from (schemas/platform/*.ts, `defineOperations`).
 */
function responseSchemaNames(): string[] {
  const names = new Set<string>();
  const dir = path.join(ROOT, 'src', 'client', 'services');
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    for (const m of fs.readFileSync(path.join(dir, f), 'utf8').matchAll(/\b([A-Z][A-Za-z0-9]*Response)\b/g)) names.add(m[1]);
  }
  const platform = path.join(ROOT, 'schemas', 'platform');
  for (const f of fs.readdirSync(platform).filter((f) => f.endsWith('.ts'))) {
    for (const m of fs.readFileSync(path.join(platform, f), 'utf8').matchAll(/\bresponse: ([A-Z][A-Za-z0-9]*Response)\b/g)) names.add(m[1]);
  }
  return [...names].sort();
}

/**
 * A copy of `v` with every object's keys in another order (seeded): the emulator answers with its
 * keys sorted, the platform in proto field order, and neither is the schemas' order everywhere.
 */
function shuffled(v: unknown, next: () => number): unknown {
  if (Array.isArray(v)) return v.map((x) => shuffled(x, next));
  if (!v || typeof v !== 'object') return v;
  const keys = Object.keys(v);
  for (let i = keys.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [keys[i], keys[j]] = [keys[j], keys[i]];
  }
  const out: Record<string, unknown> = {};
  for (const k of keys) Object.defineProperty(out, k, { value: shuffled((v as Record<string, unknown>)[k], next), enumerable: true, writable: true, configurable: true });
  return out;
}

interface Loaded {
  z: typeof import('zod');
  walk: Walk;
  lean: Lean;
  wire: Wire;
  schemas: [string, z.ZodType][];
}

/** The modules, fresh, with zod set up as asked before any schema is built. */
function load(jitless: boolean): Loaded {
  let out: Loaded | undefined;
  jest.isolateModules(() => {
    const zod = require('zod') as typeof import('zod');
    zod.config({ jitless });
    const exports: Record<string, unknown> = {};
    for (const dir of ['platform', 'model', 'tools']) {
      for (const f of fs.readdirSync(path.join(ROOT, 'schemas', dir)).filter((f) => f.endsWith('.ts'))) Object.assign(exports, require(path.join(ROOT, 'schemas', dir, f)));
    }
    const isSchema = (v: unknown): v is z.ZodType => !!v && typeof v === 'object' && typeof (v as { safeParse?: unknown }).safeParse === 'function';
    const schemas: [string, z.ZodType][] = [];
    for (const name of responseSchemaNames()) {
      const s = exports[name];
      if (!isSchema(s)) throw new Error(`the client names ${name}, which no schemas/ module exports as a schema: add it to this test's list`);
      schemas.push([`response ${name}`, s]);
    }
    schemas.push(['response Empty', (require(path.join(ROOT, 'src', 'client', 'services', '_base')) as { Empty: z.ZodType }).Empty]);
    // the rule a deploy-overview preview asks about (src/client/services/previews.ts parseRule)
    for (const name of ['DeploymentRuleWrite', 'SqlTestDeploymentRuleWrite']) schemas.push([`preview rule ${name}`, exports[name] as z.ZodType]);
    // a preview's effects (src/kinds/shared/support.ts effectsOf)
    schemas.push(['preview effects Effects', exports.Effects as z.ZodType]);
    const manifest = require(path.join(ROOT, 'schemas', 'model', 'manifest')) as typeof import('../../schemas/model/manifest');
    for (const [type, s] of Object.entries(manifest.RESOURCE_SCHEMAS)) schemas.push([`desired ${type}`, s as unknown as z.ZodType]);
    schemas.push(['manifest Manifest', manifest.Manifest]);
    schemas.push(['plan file PlanFile', (require(path.join(ROOT, 'schemas', 'model', 'plan-file')) as typeof import('../../schemas/model/plan-file')).PlanFile as unknown as z.ZodType]);
    schemas.push(['manifest DqformYaml', (require(path.join(ROOT, 'schemas', 'model', 'dqform-yaml')) as typeof import('../../schemas/model/dqform-yaml')).DqformYaml as unknown as z.ZodType]);
    out = { z: zod, walk: require(path.join(ROOT, 'schemas', 'tools', 'zod-walk')) as Walk, lean: require(path.join(ROOT, 'schemas', 'tools', 'lean')) as Lean, wire: require(path.join(ROOT, 'schemas', 'platform', 'wire')) as Wire, schemas };
  });
  return out as Loaded;
}

/** Both answers for every value: the mismatches (at most a few, with the seed) and how many each accepted. */
function differ(l: Loaded, name: string, schema: z.ZodType, seed: number, count: number): { mismatches: string[]; accepted: number; refused: number; knownAccepted: number; unknownKeyed: number } {
  const next = rng(seed);
  const g = generator(l.walk, next);
  const mismatches: string[] = [];
  let accepted = 0;
  let refused = 0;
  let knownAccepted = 0;
  let unknownKeyed = 0;
  const compare = (value: unknown, how: string): void => {
    const zr = schema.safeParse(structuredClone(value));
    const lr = l.lean.leanParse(schema, structuredClone(value));
    // the same answer when the value is handed over (`owned`: what the client does with a response)
    const or = l.lean.leanParse(schema, structuredClone(value), { owned: true });
    const text = (): string => `${name}, ${how} value (LEAN_SEED=${seed}): ${canon(value).slice(0, 600)}`;
    // leanParseKnown (resolve's one walk over a config): accepts only what the exact path accepts
    // (no key unknownKeys reports, and zod accepts), with zod's output; refusing more is allowed
    const unknown = l.wire.unknownKeys(schema, value).length > 0;
    if (unknown) unknownKeyed++;
    const kr = l.lean.leanParseKnown(schema, structuredClone(value));
    if (kr !== l.lean.LEAN_REFUSED) {
      knownAccepted++;
      if (unknown) mismatches.push(`leanParseKnown accepts a value holding a key unknownKeys reports (${l.wire.unknownKeys(schema, value).join(', ')}): ${text()}`);
      else if (!zr.success) mismatches.push(`leanParseKnown accepts what zod refuses (${zr.error.issues[0]?.message}): ${text()}`);
      else if (canon(kr) !== canon(zr.data)) mismatches.push(`outputs differ (leanParseKnown): ${text()}\n  zod:  ${canon(zr.data).slice(0, 600)}\n  lean: ${canon(kr).slice(0, 600)}`);
    }
    if (zr.success) {
      accepted++;
      if (lr === l.lean.LEAN_REFUSED) mismatches.push(`lean refuses what zod accepts: ${text()}`);
      else if (canon(lr) !== canon(zr.data)) mismatches.push(`outputs differ: ${text()}\n  zod:  ${canon(zr.data).slice(0, 600)}\n  lean: ${canon(lr).slice(0, 600)}`);
      if (or === l.lean.LEAN_REFUSED) mismatches.push(`lean (owned) refuses what zod accepts: ${text()}`);
      else if (canon(or) !== canon(zr.data)) mismatches.push(`outputs differ (owned): ${text()}\n  zod:  ${canon(zr.data).slice(0, 600)}\n  lean: ${canon(or).slice(0, 600)}`);
    } else {
      refused++;
      if (lr !== l.lean.LEAN_REFUSED) mismatches.push(`lean accepts what zod refuses (${zr.error.issues[0]?.message}): ${text()}`);
      if (or !== l.lean.LEAN_REFUSED) mismatches.push(`lean (owned) accepts what zod refuses (${zr.error.issues[0]?.message}): ${text()}`);
    }
  };
  for (let i = 0; i < count && mismatches.length < 5; i++) {
    const v = g.gen(schema, i % 4 === 0);
    compare(v, 'generated');
    const m = g.mutate(v);
    compare(m, 'mutated');
    // another key order (the output keeps zod's order: compared with key order)
    if (i % 2 === 0) compare(shuffled(coin(next) ? v : m, next), 'shuffled');
  }
  return { mismatches, accepted, refused, knownAccepted, unknownKeyed };
}

const coin = (next: () => number): boolean => next() < 0.5;

/** A seed per schema, from the run's seed and the schema's name. */
function seedOf(name: string): number {
  let h = SEED >>> 0;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619) >>> 0;
  return h;
}

describe.each([
  ['jitless (as the CLI parses)', true],
  ['generated object parsers (zod default)', false],
])('lean and zod agree, zod %s', (_label, jitless) => {
  const l = load(jitless);

  it('covers every read-response schema the client names, the desired-state schemas and the manifest', () => {
    const names = l.schemas.map(([n]) => n);
    expect(names.filter((n) => n.startsWith('response ')).length).toBeGreaterThan(40);
    expect(names).toEqual(expect.arrayContaining(['response ListOwnersResponse', 'response BatchGetSqlTestsResponse', 'response ListSavedViewsResponse', 'response BatchGetIntegrationsResponse', 'desired dq_owner', 'desired dq_monitor_deployment_rule', 'manifest Manifest', 'preview rule DeploymentRuleWrite', 'preview rule SqlTestDeploymentRuleWrite']));
  });

  it.each(l.schemas.map(([n, s]) => [n, s] as const))('%s', (name, schema) => {
    const seed = seedOf(name);
    const r = differ(l, name, schema, seed, jitless ? PER_SCHEMA : Math.ceil(PER_SCHEMA / 5));
    if (r.mismatches.length) throw new Error(`${r.mismatches.length} disagreement(s), seed ${seed}:\n${r.mismatches.join('\n')}`);
    // both sides of the line are exercised: some values accepted, some refused
    expect({ name, acceptedSome: r.accepted > 0, refusedSome: r.refused > 0 }).toEqual({ name, acceptedSome: true, refusedSome: true });
    // resolve's one walk (leanParseKnown) is exercised on both sides for the desired-state schemas
    if (name.startsWith('desired ')) expect({ name, knownAcceptsSome: r.knownAccepted > 0, unknownKeyedSome: r.unknownKeyed > 0 }).toEqual({ name, knownAcceptsSome: true, unknownKeyedSome: true });
  });
});

describe('the client\'s read (decodeRead: the response handed over, cleaned in place, lean) answers what zod answers for the cleaned value, in any key order', () => {
  const l = load(true);
  it.each(l.schemas.filter(([n]) => n.startsWith('response ')).map(([n, s]) => [n, s] as const))('%s', (name, schema) => {
    const seed = seedOf(`decodeRead ${name}`);
    const next = rng(seed);
    const g = generator(l.walk, next);
    const mismatches: string[] = [];
    let accepted = 0;
    const compare = (generated: unknown, how: string): void => {
      // a response is JSON (no undefined, no NaN): the generated value as it would come off the wire
      const text0 = JSON.stringify(generated);
      if (text0 === undefined) return;
      const value: unknown = JSON.parse(text0);
      // the reference: the value cleaned as a copy (tolerant items included), then zod
      const zr = schema.safeParse(l.wire.readClean(schema, structuredClone(value), true).value);
      const dr = l.wire.decodeRead(schema, structuredClone(value));
      const text = (): string => `${name}, ${how} value (LEAN_SEED=${SEED}): ${canon(value).slice(0, 600)}`;
      if (zr.success !== dr.success) mismatches.push(`${zr.success ? 'decodeRead refuses what zod accepts' : 'decodeRead accepts what zod refuses'}: ${text()}`);
      else if (zr.success && dr.success) {
        accepted++;
        if (canon(dr.data) !== canon(zr.data)) mismatches.push(`outputs differ: ${text()}\n  zod:        ${canon(zr.data).slice(0, 600)}\n  decodeRead: ${canon(dr.data).slice(0, 600)}`);
      }
    };
    for (let i = 0; i < PER_SCHEMA / 4 && mismatches.length < 5; i++) {
      const v = g.gen(schema, i % 4 === 0);
      compare(v, 'generated');
      compare(shuffled(v, next), 'shuffled');
      compare(shuffled(g.mutate(v), next), 'mutated and shuffled');
    }
    if (mismatches.length) throw new Error(`${mismatches.length} disagreement(s), seed ${seed}:\n${mismatches.join('\n')}`);
    expect({ name, acceptedSome: accepted > 0 }).toEqual({ name, acceptedSome: true });
  });
});

describe('what the lean compiler does not parse itself goes to zod, and is listed', () => {
  const l = load(true);
  const { z } = l;
  const { leanFallbacks, leanParse, parseFast, LEAN_REFUSED } = l.lean;

  it('hands an unsupported subtree to zod: same output, same refusal, listed with its path', () => {
    const schema = z.object({
      pair: z.tuple([z.string(), z.number().default(3)]).optional(),
      both: z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() })),
      pick: z.discriminatedUnion('k', [z.object({ k: z.literal('x'), x: z.string() }), z.object({ k: z.literal('y'), y: z.number() })]),
      n: z.coerce.number(),
    });
    expect(leanFallbacks(schema)).toEqual(['pair: tuple', 'both: intersection', 'pick: union (discriminator, exclusive)', 'n: number (coerce)']);
    const good = { pair: ['a', undefined], both: { a: 'x', b: 1, c: true }, pick: { k: 'y', y: 2, z: 0 }, n: '42' };
    expect(canon(leanParse(schema, good))).toBe(canon(schema.parse(good)));
    expect(leanParse(schema, good)).toEqual({ pair: ['a', 3], both: { a: 'x', b: 1 }, pick: { k: 'y', y: 2 }, n: 42 });
    const bad = { ...good, pick: { k: 'x', y: 2 } };
    expect(leanParse(schema, bad)).toBe(LEAN_REFUSED);
    // parseFast's refusal is zod's own, issues and messages included
    const r = parseFast(schema, bad);
    expect(r.success).toBe(false);
    expect(r.error?.issues).toEqual(schema.safeParse(bad).error?.issues);
  });

  it('a whole schema it cannot compile is zod from the root', () => {
    const schema = z.map(z.string(), z.number());
    expect(leanFallbacks(schema)).toEqual(['(root): map']);
    const m = new Map([['a', 1]]);
    expect(leanParse(schema, m)).toEqual(m);
    expect(leanParse(schema, new Map([['a', 'x']]))).toBe(LEAN_REFUSED);
  });

  it('a cyclic value (zod parses it through its memo) overflows the lean recursion and goes to zod', () => {
    type Link = { name: string; next?: Link };
    const Link: z.ZodType<Link> = z.lazy(() => z.object({ name: z.string(), next: Link.optional() }));
    const v: Link = { name: 'a' };
    v.next = v;
    expect(leanParse(Link, v)).toBe(LEAN_REFUSED);
    const r = parseFast(Link, v);
    expect(r.success).toBe(true);
    const out = r.data as Link;
    expect(out.next).toBe(out);
  });

  it('lists where the schemas under test fall back (only the plan file reason codes today: each new one shows here)', () => {
    const fallbacks = l.schemas.flatMap(([name, s]) => leanFallbacks(s).map((f) => `${name}: ${f}`));
    expect(fallbacks).toEqual(['plan file PlanFile: changes[].reasonCodes[]: union (discriminator, exclusive)']);
  });
});

describe('a value handed over (`owned`, what the client does with a response) is shared where it already is its output', () => {
  const l = load(true);
  const { z } = l;
  const { leanParse, LEAN_REFUSED } = l.lean;
  const Item = z.object({ id: z.string(), tags: z.array(z.string()).optional(), meta: z.object({ a: z.number() }).optional(), n: z.number().default(1) });
  const Page = z.object({ items: z.array(Item), byId: z.record(z.string(), Item).optional() });

  it('objects, arrays and records already in their output form are the value itself; the answer equals zod\'s', () => {
    const v = { items: [{ id: 'a', tags: ['x'], meta: { a: 1 }, n: 2 }], byId: { a: { id: 'a', n: 3 } } };
    const before = canon(v);
    const out = leanParse(Page, v, { owned: true }) as typeof v;
    expect(canon(out)).toBe(canon(Page.parse(JSON.parse(before))));
    expect(out).toBe(v);
    expect(out.items[0].meta).toBe(v.items[0].meta);
    expect(out.byId.a).toBe(v.byId.a);
    // without `owned`: a copy, as zod makes
    const copied = leanParse(Page, v) as typeof v;
    expect(copied).not.toBe(v);
    expect(canon(copied)).toBe(before);
  });

  it('what must change is copied, and only on its path: an unknown key, another key order, a default to fill in', () => {
    const keep = { a: 1 };
    const v = { items: [{ id: 'a', meta: keep, n: 1, extra: true }, { n: 1, id: 'b' }, { id: 'c' }, { id: 'd', n: 4 }], byId: undefined };
    const want = canon(Page.parse(structuredClone(v)));
    const out = leanParse(Page, v, { owned: true }) as { items: Record<string, unknown>[] };
    expect(canon(out)).toBe(want);
    expect(out).not.toBe(v);
    expect(out.items[0]).not.toBe(v.items[0]);
    expect(out.items[0].meta).toBe(keep);
    expect(Object.keys(out.items[1])).toEqual(['id', 'n']);
    expect(out.items[2]).toEqual({ id: 'c', n: 1 });
    expect(out.items[3]).toBe(v.items[3]);
  });

  it('a record of any value under string keys (the manifest\'s configs): a plain object is itself; any other answers as zod does', () => {
    const Config = z.record(z.string(), z.unknown());
    const Checked = z.record(z.string().min(2), z.unknown());
    const plain = { a: 1, b: { c: [1, 'x'] }, d: undefined, e: null };
    expect(leanParse(Config, plain, { owned: true })).toBe(plain);
    const sym = Symbol('s');
    const hidden = { a: 1 };
    Object.defineProperty(hidden, 'h', { value: 2, enumerable: false });
    class Thing {
      a = 1;
    }
    const odd: unknown[] = [{ a: 1, [sym]: 2 }, hidden, JSON.parse('{"__proto__":{"x":1},"a":1}'), Object.assign(Object.create(null) as object, { a: 1 }), new Thing(), [1], 'x', null, { a: 1, bb: 2 }];
    for (const S of [Config, Checked]) {
      for (const v of odd) {
        const zr = S.safeParse(v);
        const lr = leanParse(S, v, { owned: true });
        expect(lr === LEAN_REFUSED).toBe(!zr.success);
        if (zr.success) {
          expect(lr).toEqual(zr.data);
          expect([Reflect.ownKeys(lr as object), Object.getPrototypeOf(lr)]).toEqual([Reflect.ownKeys(zr.data), Object.getPrototypeOf(zr.data)]);
        }
      }
    }
  });

  it('a refusal is a refusal either way', () => {
    expect(leanParse(Page, { items: [{ id: 'a', n: 'x' }] }, { owned: true })).toBe(LEAN_REFUSED);
    expect(leanParse(Page, { items: [{ id: 1 }] }, { owned: true })).toBe(LEAN_REFUSED);
    expect(leanParse(Page, { items: [], byId: { a: { n: 1 } } }, { owned: true })).toBe(LEAN_REFUSED);
  });

  it('a prefault is not the value handed over: its output is a fresh copy, never the schema\'s own default (a consumer changing one output changes no later one)', () => {
    const Holder = z.object({ s: z.object({ ids: z.array(z.string()) }).prefault({ ids: [] }) });
    const first = leanParse(Holder, {}, { owned: true }) as { s: { ids: string[] } };
    expect(first).toEqual(Holder.parse({}));
    first.s.ids.push('changed');
    expect(leanParse(Holder, {}, { owned: true })).toEqual({ s: { ids: [] } });
    expect(Holder.parse({})).toEqual({ s: { ids: [] } });
  });
});

describe('the shortcuts schemas declare (protoEnum setSureOutput; required and withOneof setLastCheckPasses) answer what zod answers for edge values', () => {
  type Enum = import('../../schemas/platform/common').ProtoEnum<string>;
  // the modules fresh, zod set up as the CLI sets it up (as load does)
  let lean: Lean | undefined;
  let common: typeof import('../../schemas/platform/common') | undefined;
  let zod: typeof import('zod') | undefined;
  const exported: Record<string, unknown> = {};
  jest.isolateModules(() => {
    zod = require('zod') as typeof import('zod');
    zod.config({ jitless: true });
    for (const f of fs.readdirSync(path.join(ROOT, 'schemas', 'platform')).filter((f) => f.endsWith('.ts'))) Object.assign(exported, require(path.join(ROOT, 'schemas', 'platform', f)));
    lean = require(path.join(ROOT, 'schemas', 'tools', 'lean')) as Lean;
    common = require(path.join(ROOT, 'schemas', 'platform', 'common')) as typeof import('../../schemas/platform/common');
  });
  const { leanParse, LEAN_REFUSED } = lean as Lean;
  const { required } = common as typeof import('../../schemas/platform/common');
  const isEnum = (v: unknown): v is Enum => !!v && typeof v === 'object' && 'schema' in v && 'numbers' in v && 'names' in v && 'aliases' in v;
  const enums = Object.entries(exported).filter((e): e is [string, Enum] => isEnum(e[1]));
  // every enum's names and aliases (the names of another enum for each), numbers in and out of every table, and what is near them
  const names = [...new Set(enums.flatMap(([, e]) => [...e.values, ...Object.keys(e.aliases)]))];
  const numbers = [0, -0, 1, 2, 3, 4, 5, 7, 9, 10, 12, 20, 99, -1, 0.5, 1.5, NaN, Infinity, -Infinity, 2 ** 31, 2 ** 32, 2 ** 53 - 1, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 1e21, Number.MIN_VALUE];
  const EDGE: unknown[] = [
    ...numbers,
    ...numbers.map(String),
    ...names,
    ...names.filter((_n, i) => i % 10 === 0).map((n) => n.toLowerCase()),
    '', '-0', '01', '1.0', 'constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf',
    null, undefined, true, {}, [], [1], { 0: 'x' },
  ];
  const show = (x: unknown): string => (x === LEAN_REFUSED ? 'refused' : Object.is(x, -0) ? '-0' : (JSON.stringify(x) ?? String(x)));

  it('finds the enums', () => {
    expect(enums.length).toBeGreaterThan(20);
    expect(enums.some(([, e]) => Object.keys(e.aliases).length > 0)).toBe(true);
  });

  it('a oneof (withOneof\'s sure pass): every way of setting its keys (absent, undefined, null, a value, a wrong value), optional or not', () => {
    const { withOneof } = common as typeof import('../../schemas/platform/common');
    const { string, object, number } = zod as typeof import('zod');
    const bad: string[] = [];
    for (const optional of [false, true]) {
      const schema = withOneof({ base: string().optional() }, { a: string().nullable(), b: object({ x: number() }), c: number() }, { optional }) as unknown as z.ZodType;
      const ways: Record<string, unknown[]> = { a: [undefined, null, 'v', 3], b: [undefined, null, { x: 1 }, { x: 'no' }], c: [undefined, null, 0, 'no'] };
      for (let i = 0; i < 5 ** 3; i++) {
        const v: Record<string, unknown> = { base: 'b' };
        let rest = i;
        for (const k of ['a', 'b', 'c']) {
          const w = rest % 5;
          rest = Math.floor(rest / 5);
          if (w > 0) v[k] = ways[k][w - 1];
        }
        const zr = schema.safeParse(v);
        const want = zr.success ? show(zr.data) : 'refused';
        for (const owned of [false, true]) {
          const got = show(leanParse(schema, structuredClone(v), { owned }));
          if (got !== want) bad.push(`${optional ? 'optional ' : ''}${show(v)}${owned ? ' (owned)' : ''}: zod ${want}, lean ${got}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it('the refinements with their own test as sure pass (EntityType default, MetricIds, Query): edge values answer as zod', () => {
    const { EntityType, Query } = exported as { EntityType: z.ZodType; Query: z.ZodType };
    const { MetricIds } = exported as { MetricIds: z.ZodType };
    const [metric, other] = (exported.MetricIdEnum as Enum).values.filter((n) => !n.endsWith('_UNSPECIFIED'));
    const part = { kind: { entityTypes: { types: [{ default: 'ENTITY_TYPE_WAREHOUSE_ACCOUNT_TABLE' }] } } };
    const operands = [undefined, 'QUERY_OPERAND_AND', 'QUERY_OPERAND_OR', 'QUERY_OPERAND_EXCEPT', 'QUERY_OPERAND_UNSPECIFIED', 3, 0, 'nope', null];
    const cases: [string, z.ZodType, unknown[]][] = [
      ['EntityType', EntityType, [...EDGE.map((d) => ({ default: d })), { default: 'ENTITY_TYPE_UNSPECIFIED' }, { default: 0 }, { custom: 50001 }, { default: 'ENTITY_TYPE_WAREHOUSE_ACCOUNT_TABLE', custom: 50001 }, {}]],
      ['MetricIds', MetricIds, [[], [metric], [metric, metric], [metric, other], [other, metric, other], [metric, 'x'], ['x', 'x'], 'x', null, undefined, {}, [null], [metric, null]]],
      ['Query', Query, [...operands.flatMap((operand): unknown[] => [0, 1, 2, 3].map((n) => (operand === undefined ? { parts: Array.from({ length: n }, () => part) } : { parts: Array.from({ length: n }, () => part), operand }))), {}, { operand: 'QUERY_OPERAND_EXCEPT' }, null, [], 'q']],
    ];
    const bad: string[] = [];
    for (const [name, schema, values] of cases) {
      for (const v of values) {
        const zr = schema.safeParse(structuredClone(v));
        const want = zr.success ? show(zr.data) : 'refused';
        for (const owned of [false, true]) {
          const got = show(leanParse(schema, structuredClone(v), { owned }));
          if (got !== want) bad.push(`${name} ${show(v)}${owned ? ' (owned)' : ''}: zod ${want}, lean ${got}`);
        }
      }
      // both sides of each refinement are met
      expect(values.some((v) => schema.safeParse(v).success)).toBe(true);
      expect(values.some((v) => !schema.safeParse(v).success)).toBe(true);
    }
    expect(bad).toEqual([]);
  });

  it.each(enums.map(([n, e]) => [n, e] as const))('%s', (_name, e) => {
    const bad: string[] = [];
    for (const schema of [e.schema, required(e)] as z.ZodType[]) {
      for (const v of EDGE) {
        const zr = schema.safeParse(v);
        const want = zr.success ? show(zr.data) : 'refused';
        for (const owned of [false, true]) {
          const got = show(leanParse(schema, v, { owned }));
          if (got !== want) bad.push(`${show(v)}${owned ? ' (owned)' : ''}: zod ${want}, lean ${got}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });
});
