/**
 * The resolution cache (issue 27, src/cli/desired.ts, src/engine/resolution-cache.ts), in
 * process against an emulator: over seeded random synth outputs (one to three stacks, references,
 * moved/import/removed blocks, integrations with secret references, mistakes) and YAML
 * workspaces, edited between runs, `plan` (text and `--format json`) and `validate` print the
 * same bytes with the cache cold, warm, turned off (`--no-cache`, `DQFORM_NO_CACHE=1`) and after
 * its entries are corrupted; an edited input never reads a stale entry. Also: a warm run does read
 * its entry, the directory and files are private, a directory that cannot be used is silent, the
 * entries hold no secret value, and the store is bounded.
 *
 * @gateway-exempt the cache holds desired state, resolved before any request: the wire encoding is not involved
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SCOPES } from '../../schemas/platform/common';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { main } from '../../src/cli/main';
import { cacheDirOf, cacheKey, MAX_ENTRIES, ResolutionCache } from '../../src/engine/resolution-cache';
import { RESOLUTION_CACHE_FORMAT } from '../../schemas/model/resolution-cache';
import { canonicalTexts, jsonSafe, prepareStack } from '../../src/cli/desired';
import { fingerprint } from '../../src/kinds/shared/normalise';
import { loadStack, siblingsOf } from '../../src/cli/runtime';
import { mulberry32 } from '../../src/emulator/random';

let emu: RunningEmulator;
const CLIENT = 'cache-writer';
const SECRET = 'cache-S3cret-5b7d';
const PASSWORD = 'pg-Passw0rd-for-cache-91ac';
const temps: string[] = [];

beforeAll(async () => {
  // apply reads a secret from the process's environment (src/kinds/integration/secrets.ts)
  process.env.PG_PASSWORD = PASSWORD;
  emu = await startEmulator({ port: 0, seed: 'demo' });
  emu.app.addCredential(CLIENT, SECRET, SCOPES);
  emu.app.addCredential('other-writer', 'other-S3cret-77', SCOPES);
});
afterAll(async () => {
  delete process.env.PG_PASSWORD;
  await emu.close();
  for (const t of temps) fs.rmSync(t, { recursive: true, force: true });
});

function tempDir(what: string): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), `dqform-${what}-`));
  temps.push(d);
  return d;
}

/** A seeded generator (mulberry32). */
function rng(seed: number) {
  const next = mulberry32(seed);
  return { next, int: (n: number) => Math.floor(next() * n), chance: (p: number) => next() < p, pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)] };
}
type Rng = ReturnType<typeof rng>;
type Json = Record<string, unknown>;

interface Run {
  code: number;
  out: string;
  err: string;
}

async function dq(cwd: string, args: string[], env: Record<string, string | undefined>): Promise<Run> {
  let out = '';
  let err = '';
  const code = await main(args, { out: (s) => (out += `${s}\n`), err: (s) => (err += `${s}\n`), env: { DQ_BASE_URL: emu.url, DQ_CLIENT_ID: CLIENT, DQ_CLIENT_SECRET: SECRET, PG_PASSWORD: PASSWORD, ...env }, cwd, isTty: false });
  return { code, out, err };
}

/** One stack's resource blocks, Terraform JSON (snake_case). */
function stackResources(r: Rng, ns: string, v: number): Json {
  const owners: Json = {};
  const alerts: Json = {};
  const tests: Json = {};
  const products: Json = {};
  const ownerships: Json = {};
  const integrations: Json = {};
  const nOwners = 1 + r.int(4);
  for (let i = 0; i < nOwners; i++) {
    owners[`o${i}`] = {
      title: `Owner ${ns} ${i}${r.chance(0.2) ? ` v${v}` : ''}`,
      ...(r.chance(0.3) ? { description: r.pick([`team ${i}`, '']) } : {}),
      // what the planner normalises (the cache keeps it normalised): unordered lists, zero values
      ...(r.chance(0.4) ? { contacts: [{ email: { recipient_emails: r.pick([['b@example.com', 'a@example.com'], ['a@example.com'], ['c@example.com', 'a@example.com', 'b@example.com']]) } }] } : {}),
      ...(r.chance(0.15) ? { lifecycle: { ignore_changes: r.pick([['title'], ['contacts'], 'all']) } } : {}),
    };
  }
  for (let i = 0; i < r.int(3); i++) products[`p${i}`] = { title: `Product ${i}`, priority: r.pick(['PRIORITY_P1', 'PRIORITY_P2', 'PRIORITY_P3']) };
  for (let i = 0; i < r.int(3); i++) {
    ownerships[`own${i}`] = { owner_id: `\${dq_owner.o${r.int(nOwners + (r.chance(0.1) ? 2 : 0))}.id}`, selection: { query: { resolver_ql: r.pick(['with_tag("pii")', 'with_name("orders")', 'with_typ("table")']) } } };
  }
  for (let i = 0; i < r.int(4); i++) {
    alerts[`a${i}`] = {
      name: `Alert ${i}${r.chance(0.3) ? ` v${v}` : ''}`,
      issue_lifecycle: { trigger: { resolver_ql: r.pick(['with_type("table")', 'and(with_type("table"),with_name("orders"))', 'with_type(']) }, targets: [{ slack: { channel: `#a${i}` } }], settings: { severities: r.chance(0.3) ? ['SEVERITY_WARNING', 'SEVERITY_ERROR'] : [r.pick([2, 3, 'SEVERITY_ERROR', 'SEVERITY_EROR'])] } },
    };
  }
  for (let i = 0; i < r.int(3); i++) {
    tests[`t${i}`] = {
      name: `Test ${i}`,
      platform: { warehouse_account: { account: 'acme-retail', database: 'wh-prod' } },
      recurrence_rule: r.pick(['FREQ=DAILY', 'FREQ=WEEKLY;BYDAY=MO', 'FREQ=DAILY;BYHOUR=25']),
      sql_expression: `select * from mart.t${i} where id is null`,
      ...(r.chance(0.1) ? { unknown_field: 1 } : {}),
    };
  }
  if (r.chance(0.4)) integrations.pg = { title: `PG ${ns}`, config: { relational: { host: 'db.example.com', port: 5432, user: 'dq', password: { from_env: 'PG_PASSWORD' }, password_version: 1 + (v % 2) } } };
  const out: Json = { dq_owner: owners };
  if (Object.keys(products).length) out.dq_data_product = products;
  if (Object.keys(ownerships).length) out.dq_ownership = ownerships;
  if (Object.keys(alerts).length) out.dq_alert = alerts;
  if (Object.keys(tests).length) out.dq_sql_test = tests;
  if (Object.keys(integrations).length) out.dq_integration = integrations;
  return out;
}

/** A random synth output of one to three stacks, version `v` (edits move it on). */
function synthOutput(r: Rng, v: number): Record<string, Json> {
  const names = ['shop', 'billing', 'ops'].slice(0, 1 + r.int(3));
  const stacks: Record<string, Json> = {};
  for (const name of names) {
    // now and then two stacks share a namespace (an error of both)
    const ns = r.chance(0.1) ? names[0] : name;
    const provider: Json = { namespace: ns };
    if (name !== names[0] && r.chance(0.4)) provider.credentials_from = { client_id: 'OTHER_CLIENT_ID', client_secret: 'OTHER_CLIENT_SECRET' };
    const doc: Json = { provider: { dq: [provider] }, resource: stackResources(r, ns, v) };
    if (r.chance(0.3)) doc.removed = [{ from: 'dq_owner.gone', lifecycle: { destroy: r.chance(0.5) } }];
    if (r.chance(0.3)) doc.moved = [{ from: 'dq_owner.old0', to: 'dq_owner.o0' }];
    stacks[name] = doc;
  }
  return stacks;
}

function writeSynth(dir: string, stacks: Record<string, Json>): void {
  fs.rmSync(path.join(dir, 'cdktf.out'), { recursive: true, force: true });
  for (const [name, doc] of Object.entries(stacks)) {
    fs.mkdirSync(path.join(dir, 'cdktf.out', 'stacks', name), { recursive: true });
    fs.writeFileSync(path.join(dir, 'cdktf.out', 'stacks', name, 'cdk.tf.json'), JSON.stringify(doc, null, 2));
  }
  fs.writeFileSync(path.join(dir, 'cdktf.out', 'manifest.json'), JSON.stringify({ stacks: Object.fromEntries(Object.keys(stacks).map((s) => [s, {}])) }));
}

/** A random YAML workspace (JSON is YAML), version `v`. */
function yamlWorkspace(r: Rng, v: number): string {
  const owners: Json = {};
  for (let i = 0; i < 1 + r.int(4); i++) owners[`o${i}`] = { title: `Owner ${i}${r.chance(0.3) ? ` v${v}` : ''}` };
  const alerts: Json = {};
  for (let i = 0; i < r.int(3); i++) {
    alerts[`a${i}`] = { name: `Alert ${i}`, issueLifecycle: { trigger: r.pick(['with_type("table")', 'with_typ("table")']), targets: [{ owner: 'o0' }], settings: { severities: [r.pick(['SEVERITY_ERROR', 'SEVERITY_WARNING'])] } } };
  }
  const doc: Json = { namespace: r.pick(['yaml-a', 'yaml-b']), owners };
  if (Object.keys(alerts).length) doc.alerts = alerts;
  if (r.chance(0.15)) doc.owners = { ...owners, bad: { title: 'Bad', colour: 'red' } };
  return JSON.stringify(doc, null, 2);
}

/** Breaks every entry of the cache directory, each in one of several ways. */
function corrupt(dir: string, r: Rng): number {
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.entry')) : [];
  for (const f of files) {
    const p = path.join(dir, f);
    const buf = fs.readFileSync(p);
    switch (r.int(5)) {
      case 0:
        fs.writeFileSync(p, buf.subarray(0, r.int(buf.length))); // truncated
        break;
      case 1: {
        const i = buf.indexOf(10) + 1 + r.int(Math.max(1, buf.length - buf.indexOf(10) - 1));
        if (i < buf.length) buf[i] = buf[i] ^ 0x20; // one flipped bit in the body
        fs.writeFileSync(p, buf);
        break;
      }
      case 2:
        fs.writeFileSync(p, buf.toString('utf8').replace(`"dqformCache":${RESOLUTION_CACHE_FORMAT}`, '"dqformCache":0')); // another format
        break;
      case 3:
        fs.writeFileSync(p, '{"not":"an entry"}\n[]');
        break;
      default:
        fs.writeFileSync(p, '');
    }
  }
  return files.length;
}

/** Every way one command's output is compared: exit code, stdout and stderr. */
const outputs = async (cwd: string, args: string[][], env: Record<string, string | undefined>) => {
  const out: Run[] = [];
  for (const a of args) out.push(await dq(cwd, a, env));
  return out;
};

const SEEDS = [11, 23, 37, 41, 59, 61];

describe.each(SEEDS)('seed %i: plans byte-identical with the cache cold, warm, off and corrupted', (seed) => {
  it('over a random workspace and three rounds of edits', async () => {
    const r = rng(seed);
    const yaml = seed % 3 === 0;
    const cwd = tempDir('cache-ws');
    const cacheDir = path.join(tempDir('cache-dir'), 'dqform');
    const commands = yaml
      ? [['plan', '--file', 'dqform.yaml'], ['plan', '--file', 'dqform.yaml', '--format', 'json'], ['validate', '--file', 'dqform.yaml']]
      : [['plan', '--all-stacks'], ['plan', '--all-stacks', '--format', 'json'], ['validate', '--all-stacks']];
    let otherClient = r.chance(0.5) ? 'other-writer' : undefined;
    for (let round = 0; round < 3; round++) {
      if (yaml) fs.writeFileSync(path.join(cwd, 'dqform.yaml'), yamlWorkspace(r, round));
      else writeSynth(cwd, synthOutput(rng(seed * 100 + (round === 2 && r.chance(0.5) ? 1 : round)), round));
      if (r.chance(0.5)) otherClient = otherClient ? undefined : 'other-writer';
      const env = { DQFORM_CACHE_DIR: cacheDir, OTHER_CLIENT_ID: otherClient, OTHER_CLIENT_SECRET: otherClient ? 'other-S3cret-77' : undefined };
      if (round === 0 && !yaml) await dq(cwd, ['apply', '--all-stacks', '--auto-approve'], env);
      // the reference: no cache at all
      const off = await outputs(cwd, commands.map((c) => [...c, '--no-cache']), env);
      expect(off[0].out + off[0].err).toMatch(/Plan: \d|No changes|Error: /);
      // warm from the rounds before (an edited input must not read their entries), then warm
      const stale = await outputs(cwd, commands, env);
      const warm = await outputs(cwd, commands, env);
      expect(fs.readdirSync(cacheDir).filter((f) => f.endsWith('.entry')).length).toBeGreaterThan(0);
      const byEnv = await outputs(cwd, commands, { ...env, DQFORM_NO_CACHE: '1' });
      expect(corrupt(cacheDir, r)).toBeGreaterThan(0);
      const corrupted = await outputs(cwd, commands, env);
      const rewritten = await outputs(cwd, commands, env);
      // a cold cache in a fresh directory
      const cold = await outputs(cwd, commands, { ...env, DQFORM_CACHE_DIR: path.join(tempDir('cache-cold'), 'c') });
      for (const got of [stale, warm, byEnv, corrupted, rewritten, cold]) expect(got).toEqual(off);
    }
  }, 120_000);
});

/** A one-stack synth output in a fresh directory. */
function oneStack(title: string): string {
  const cwd = tempDir('cache-one');
  writeSynth(cwd, {
    one: {
      provider: { dq: [{ namespace: 'cache-one' }] },
      resource: {
        dq_owner: { team: { title } },
        dq_integration: { pg: { title: 'PG', config: { relational: { host: 'db.example.com', port: 5432, user: 'dq', password: { from_env: 'PG_PASSWORD' }, password_version: 1 } } } },
      },
    },
  });
  return cwd;
}

/** The cache's entries: name -> [head, body]. */
function entries(dir: string): Map<string, [Json, string]> {
  const out = new Map<string, [Json, string]>();
  for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.entry'))) {
    const text = fs.readFileSync(path.join(dir, f), 'utf8');
    const nl = text.indexOf('\n');
    out.set(f, [JSON.parse(text.slice(0, nl)) as Json, text.slice(nl + 1)]);
  }
  return out;
}

it('a warm run resolves from its entry: an entry rewritten (with a valid checksum) is what the plan shows', async () => {
  const cwd = oneStack('Team from the code');
  const cacheDir = path.join(tempDir('cache-planted'), 'dqform');
  const env = { DQFORM_CACHE_DIR: cacheDir };
  const first = await dq(cwd, ['plan'], env);
  expect(first.out).toContain('Team from the code');
  const resolution = [...entries(cacheDir)].find(([, [, body]]) => body.includes('"resources"'))!;
  const [name, [head, body]] = resolution;
  // the title is in the resolution and in the planner's normalised form of it: both planted
  const planted = body.replaceAll('Team from the code', 'Team from the cache');
  const sha = require('node:crypto').hash('sha256', planted, 'hex') as string;
  fs.writeFileSync(path.join(cacheDir, name), `${JSON.stringify({ ...head, sha256: sha, bytes: Buffer.byteLength(planted) })}\n${planted}`);
  expect((await dq(cwd, ['plan'], env)).out).toContain('Team from the cache');
  // --no-cache, and the variable, read the code
  expect((await dq(cwd, ['plan', '--no-cache'], env)).out).toContain('Team from the code');
  expect((await dq(cwd, ['plan'], { ...env, DQFORM_NO_CACHE: 'true' })).out).toContain('Team from the code');
  // a changed input is another key: the code again
  fs.writeFileSync(path.join(cwd, 'cdktf.out', 'stacks', 'one', 'cdk.tf.json'), fs.readFileSync(path.join(cwd, 'cdktf.out', 'stacks', 'one', 'cdk.tf.json'), 'utf8').replace('Team from the code', 'Team edited'));
  expect((await dq(cwd, ['plan'], env)).out).toContain('Team edited');
  // two entries per input (the stack's head, its resolution in the workspace); none for the runs without cache
  expect(entries(cacheDir).size).toBe(4);
});

it('a warm plan takes the normalised desired objects from its entry: it does not normalise the desired side again', async () => {
  const cwd = oneStack('Team from the code');
  const cacheDir = path.join(tempDir('cache-forms'), 'dqform');
  const env = { DQFORM_CACHE_DIR: cacheDir };
  const cold = await dq(cwd, ['plan'], env);
  const [name, [head, body]] = [...entries(cacheDir)].find(([, [, b]]) => b.includes('"resources"'))!;
  const entry = JSON.parse(body) as { resolution: { resources: { type: string; desired: Json }[] }; desiredForms: Json[] };
  const i = entry.resolution.resources.findIndex((r) => r.type === 'dq_owner');
  // the form is the planner's: keys sorted, as the handler normalises it; a desired object that
  // is its form but for key order is not kept twice (the owner's), one that is not is (the
  // integration's secret reference)
  expect(entry.desiredForms[i]).toEqual({ title: 'Team from the code' });
  expect(entry.resolution.resources[i].desired).toBeNull();
  const pg = entry.resolution.resources.findIndex((r) => r.type === 'dq_integration');
  expect(entry.resolution.resources[pg].desired).toMatchObject({ config: { relational: { password: { fromEnv: 'PG_PASSWORD' } } } });
  expect(JSON.stringify(entry.desiredForms[pg])).not.toContain('PG_PASSWORD');
  entry.desiredForms[i] = { title: 'Team from the forms' };
  const planted = JSON.stringify(entry);
  const sha = require('node:crypto').hash('sha256', planted, 'hex') as string;
  fs.writeFileSync(path.join(cacheDir, name), `${JSON.stringify({ ...head, sha256: sha, bytes: Buffer.byteLength(planted) })}\n${planted}`);
  const warm = await dq(cwd, ['plan'], env);
  expect(warm.out).toContain('Team from the forms');
  expect(warm.out).not.toContain('Team from the code');
  // without the cache, the code's: what the cold run showed
  expect(await dq(cwd, ['plan', '--no-cache'], env)).toEqual(cold);
});

it("a warm plan takes an unchanged object's liveHash from its entry: the fingerprint of its desired form, kept beside it", async () => {
  // a namespace of its own: the emulator is shared with the other tests
  const cwd = tempDir('cache-fp');
  writeSynth(cwd, { one: { provider: { dq: [{ namespace: 'cache-fingerprints' }] }, resource: { dq_owner: { team: { title: 'Team kept' } } } } });
  const cacheDir = path.join(tempDir('cache-fingerprints'), 'dqform');
  const env = { DQFORM_CACHE_DIR: cacheDir };
  expect((await dq(cwd, ['apply', '--auto-approve'], env)).code).toBe(0);
  const cold = await dq(cwd, ['plan', '--format', 'json'], env);
  const noop = (r: Run) => (JSON.parse(r.out) as { changes: { address: string; action: string; liveHash?: string }[] }).changes.find((c) => c.address === 'dq_owner.team')!;
  expect(noop(cold).action).toBe('noop');
  const [name, [head, body]] = [...entries(cacheDir)].find(([, [, b]]) => b.includes('"resources"'))!;
  const entry = JSON.parse(body) as { resolution: { resources: { address: string }[] }; desiredFingerprints: string[] };
  const i = entry.resolution.resources.findIndex((r) => r.address === 'dq_owner.team');
  // the fingerprint kept is the one the plan computes from the live form
  expect(entry.desiredFingerprints[i]).toBe(noop(cold).liveHash);
  entry.desiredFingerprints[i] = 'f'.repeat(32);
  const planted = JSON.stringify(entry);
  const sha = require('node:crypto').hash('sha256', planted, 'hex') as string;
  fs.writeFileSync(path.join(cacheDir, name), `${JSON.stringify({ ...head, sha256: sha, bytes: Buffer.byteLength(planted) })}\n${planted}`);
  expect(noop(await dq(cwd, ['plan', '--format', 'json'], env)).liveHash).toBe('f'.repeat(32));
  expect(await dq(cwd, ['plan', '--format', 'json', '--no-cache'], env)).toEqual(cold);
});

it('keeps its directory private (0700, files 0600), holds no secret value, and is silent where it cannot write', async () => {
  const cwd = oneStack('Private team');
  const base = tempDir('cache-private');
  const cacheDir = path.join(base, 'deep', 'dqform');
  const env = { DQFORM_CACHE_DIR: cacheDir };
  const reference = await dq(cwd, ['plan', '--no-cache'], env);
  expect(await dq(cwd, ['plan'], env)).toEqual(reference);
  const applied = await dq(cwd, ['apply', '--auto-approve'], env);
  expect([applied.code, applied.err]).toEqual([0, expect.stringContaining('reading back the 2 object(s) written')]);
  if (process.platform !== 'win32') {
    expect(fs.statSync(cacheDir).mode & 0o777).toBe(0o700);
    for (const f of fs.readdirSync(cacheDir)) expect([f, fs.statSync(path.join(cacheDir, f)).mode & 0o777]).toEqual([f, 0o600]);
  }
  // the password was read (apply sent it) and never written to the cache, nor the client secret
  const stored = emu.app.store.workspace('demo').collection('integrations').filter(() => true);
  expect(JSON.stringify(stored)).toContain(PASSWORD);
  const all = [...entries(cacheDir).values()].map(([h, b]) => JSON.stringify(h) + b).join('\n');
  expect(all).toContain('PG_PASSWORD');
  for (const secret of [PASSWORD, SECRET]) expect(all.includes(secret)).toBe(false);
  // a cache "directory" that is a file, or under one: no cache, no message, the same plan
  const file = path.join(base, 'a-file');
  fs.writeFileSync(file, 'x');
  const after = await dq(cwd, ['plan', '--no-cache'], env);
  for (const dir of [file, path.join(file, 'dqform')]) expect(await dq(cwd, ['plan'], { DQFORM_CACHE_DIR: dir })).toEqual(after);
  // a directory of ours that others can write to is closed first (its entries could be planted)
  const shared = path.join(base, 'shared');
  fs.mkdirSync(shared, { mode: 0o777 });
  fs.chmodSync(shared, 0o777);
  expect(await dq(cwd, ['plan'], { DQFORM_CACHE_DIR: shared })).toEqual(after);
  expect(fs.statSync(shared).mode & 0o077).toBe(0);
  // another user's directory is not used at all (only root can make one here)
  if (process.getuid?.() === 0) {
    const foreign = path.join(base, 'foreign');
    fs.mkdirSync(foreign, { mode: 0o700 });
    fs.chownSync(foreign, 54321, 54321);
    expect(await dq(cwd, ['plan'], { DQFORM_CACHE_DIR: foreign })).toEqual(after);
    expect(fs.readdirSync(foreign)).toEqual([]);
  }
});

it('the cache directory: DQFORM_CACHE_DIR, else $XDG_CACHE_HOME/dqform, else ~/.cache/dqform', () => {
  expect(cacheDirOf({ DQFORM_CACHE_DIR: '/c/own', XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe(path.resolve('/c/own'));
  expect(cacheDirOf({ XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe(path.join('/x', 'dqform'));
  expect(cacheDirOf({ XDG_CACHE_HOME: 'relative', HOME: '/h' })).toBe(path.join('/h', '.cache', 'dqform'));
  expect(cacheDirOf({ HOME: '/h' })).toBe(path.join('/h', '.cache', 'dqform'));
});

it('is bounded: past MAX_ENTRIES, the least recently used entries go', () => {
  const dir = path.join(tempDir('cache-bound'), 'dqform');
  const cache = new ResolutionCache(dir);
  const keys = Array.from({ length: MAX_ENTRIES }, (_, i) => cacheKey([`k${i}`]));
  const t0 = Date.now() / 1000 - 10_000;
  keys.forEach((k, i) => {
    cache.write(k, JSON.stringify({ i }));
    fs.utimesSync(path.join(dir, `${k}.entry`), t0 + i, t0 + i);
  });
  expect(fs.readdirSync(dir).length).toBe(MAX_ENTRIES);
  // reading the oldest makes it the most recently used
  expect(cache.read(keys[0])).toEqual({ i: 0 });
  const more = Array.from({ length: 5 }, (_, i) => cacheKey([`more${i}`]));
  for (const k of more) cache.write(k, '{}');
  const left = new Set(fs.readdirSync(dir));
  expect(left.size).toBe(MAX_ENTRIES);
  expect([0, 1, 5, 6, MAX_ENTRIES - 1].map((i) => left.has(`${keys[i]}.entry`))).toEqual([true, false, false, true, true]);
  for (const k of more) expect(left.has(`${k}.entry`)).toBe(true);
});

it('caches only values that JSON gives back as they are', () => {
  expect(jsonSafe({ a: [1, 'x', null, { b: true }], c: undefined })).toBe(true);
  for (const v of [{ a: NaN }, { a: Infinity }, { a: -0 }, [undefined], { a: new Date(0) }, { a: new Map() }, JSON.parse('{"__proto__":1}') as unknown, { toJSON: () => 1 }, { f: () => 1 }]) expect(jsonSafe(v)).toBe(false);
});

it("writes a plan's entry in pieces, byte for byte JSON.stringify of its body; each form's text made once, for its fingerprint too", () => {
  const cwd = oneStack('Pieces');
  const cacheDir = path.join(tempDir('cache-pieces'), 'dqform');
  const env = { DQFORM_CACHE_DIR: cacheDir };
  const src = { kind: 'synth' as const, dir: path.join(cwd, 'cdktf.out') };
  const io = { out: () => undefined, err: () => undefined, env, cwd, isTty: false };
  const stack = prepareStack(env, cwd, src, undefined, { loadStack: () => loadStack(io, src, undefined), siblingsOf: (m) => siblingsOf(src, m, env) });
  const resolution = stack.resolve('demo');
  const forms = stack.desiredForms(resolution)!;
  expect(stack.desiredFingerprints(resolution)).toEqual(forms.map((f) => fingerprint(f)));
  // made as each resource was resolved: a desired object that is its form but for key order is the form, as a warm run has it
  const owner = resolution.resources.findIndex((r) => r.type === 'dq_owner');
  const pg = resolution.resources.findIndex((r) => r.type === 'dq_integration');
  expect([resolution.resources[owner].desired === forms[owner], resolution.resources[pg].desired === forms[pg]]).toEqual([true, false]);
  expect(resolution.resources[pg].desired).toMatchObject({ config: { relational: { password: { fromEnv: 'PG_PASSWORD' } } } });
  const [[head, body]] = [...entries(cacheDir).values()].filter(([, b]) => b.includes('"desiredForms"'));
  expect(body).toBe(JSON.stringify(JSON.parse(body)));
  expect(head.bytes).toBe(Buffer.byteLength(body));
  const entry = JSON.parse(body) as { resolution: { resources: { desired: unknown }[] }; desiredForms: unknown[]; desiredFingerprints: string[] };
  expect(entry.desiredForms).toEqual(forms);
  // the entry's `desired: null` (the form stands for it) is set for the writing only: the resolution answered keeps every desired object
  expect([entry.resolution.resources[owner].desired, entry.resolution.resources[pg].desired === null]).toEqual([null, false]);
  expect(resolution.resources.filter((r) => !r.desired || typeof r.desired !== 'object')).toEqual([]);
  expect(entry.desiredFingerprints).toEqual(forms.map((f) => fingerprint(f)));
  // the store: pieces make the entry their concatenation makes
  const store = new ResolutionCache(path.join(tempDir('cache-pieces-store'), 'dqform'));
  const [a, b] = [cacheKey(['a']), cacheKey(['b'])];
  store.write(a, ['{"x":', '[1,"é",', '{}]', '}']);
  store.write(b, '{"x":[1,"é",{}]}');
  const text = (k: string) => fs.readFileSync(path.join(store.dir, `${k}.entry`), 'utf8').replace(k, '');
  expect(text(a)).toBe(text(b));
  expect(store.read(a)).toEqual({ x: [1, 'é', {}] });
});

it("writes a form's text for the entry only when it is its canonical JSON and JSON gives it back as it is", () => {
  expect(canonicalTexts([{ a: 1, b: [{ c: 'x' }, null], d: undefined }, {}, []])).toEqual(['{"a":1,"b":[{"c":"x"},null]}', '{}', '[]']);
  expect(canonicalTexts([])).toEqual([]);
  for (const v of [{ b: 1, a: 2 }, { a: { d: 1, c: 2 } }, { a: NaN }, { a: -0 }, { a: Infinity }, [undefined], { a: new Date(0) }, JSON.parse('{"__proto__":1}') as unknown, { toJSON: () => 1 }, { f: () => 1 }]) {
    expect(canonicalTexts([{ ok: true }, v])).toBeUndefined();
  }
});

it('an entry made with other values of the variables that choose the sibling stacks is not used', async () => {
  const cwd = tempDir('cache-env');
  const owner = { dq_owner: { team: { title: 'T' } } };
  writeSynth(cwd, {
    a: { provider: { dq: [{ namespace: 'cache-env' }] }, resource: owner },
    b: { provider: { dq: [{ namespace: 'cache-env', credentials_from: { client_id: 'OTHER_CLIENT_ID', client_secret: 'OTHER_CLIENT_SECRET' } }] }, resource: owner },
  });
  const cacheDir = path.join(tempDir('cache-env-dir'), 'dqform');
  // b acts with the same client as a: one platform, one namespace: an error; with another client, none
  const same = { DQFORM_CACHE_DIR: cacheDir, OTHER_CLIENT_ID: CLIENT, OTHER_CLIENT_SECRET: SECRET };
  const other = { DQFORM_CACHE_DIR: cacheDir, OTHER_CLIENT_ID: 'other-writer', OTHER_CLIENT_SECRET: 'other-S3cret-77' };
  const shared = /both use namespace "cache-env"/;
  for (const env of [same, other, same, other]) {
    const r = await dq(cwd, ['validate', '--stack', 'a'], env);
    expect([r.code, shared.test(r.out + r.err)]).toEqual(env === same ? [1, true] : [0, false]);
  }
});

it('writes no entry when the files change between reading them for the key and loading them', () => {
  const cwd = oneStack('Before');
  const cacheDir = path.join(tempDir('cache-race'), 'dqform');
  const env = { DQFORM_CACHE_DIR: cacheDir };
  const file = path.join(cwd, 'cdktf.out', 'stacks', 'one', 'cdk.tf.json');
  const original = fs.readFileSync(file, 'utf8');
  const src = { kind: 'synth' as const, dir: path.join(cwd, 'cdktf.out') };
  const io = { out: () => undefined, err: () => undefined, env, cwd, isTty: false };
  const loaders = (edit: boolean) => ({
    loadStack: () => {
      // an edit lands after the key was computed, before the load
      if (edit) fs.writeFileSync(file, original.replace('Before', 'During'));
      return loadStack(io, src, undefined);
    },
    siblingsOf: (m: Parameters<typeof siblingsOf>[1]) => siblingsOf(src, m, env),
  });
  const raced = prepareStack(env, cwd, src, undefined, loaders(true));
  expect(JSON.stringify(raced.resolve('demo').resources)).toContain('During');
  expect(fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir) : []).toEqual([]);
  // the original bytes again: resolved from them, not from what the raced run saw
  fs.writeFileSync(file, original);
  expect(JSON.stringify(prepareStack(env, cwd, src, undefined, loaders(false)).resolve('demo').resources)).toContain('Before');
  expect(fs.readdirSync(cacheDir)).toHaveLength(2);
  expect(JSON.stringify(prepareStack(env, cwd, src, undefined, loaders(false)).resolve('demo').resources)).toContain('Before');
});
