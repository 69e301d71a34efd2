/**
 * `dq_integration` in process, exact outputs: the title marker at its boundaries (malformed
 * markers stay part of the title), the comparable forms, the handler's reads and writes against a
 * recording fake client (test/handlers/fake-client.ts), secret references (errors naming the
 * field and the source, never the value) and import rendering. Complements integration.test.ts.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Change } from '../../schemas/model/plan';
import { NotFoundError, ValidationError } from '../../src/client/errors';
import { redact } from '../../src/client/redact';
import { deriveId } from '../../src/engine/identity';
import { integrationDescriptor } from '../../src/kinds/integration/descriptor';
import { canonicalDesired, canonicalLive, integrationsHandler as h, secretNotes, secretsOf } from '../../src/kinds/integration/handler';
import { integrationImport, todoName } from '../../src/kinds/integration/import';
import { markedTitle, markerLength, parseTitle, titleOf } from '../../src/kinds/integration/marker';
import { bindSecretRefs, boundSecrets, declaredSecrets, describeRef, readSecret, setPath, withoutSecrets } from '../../src/kinds/integration/secrets';
import { validateIntegration } from '../../src/kinds/integration/validate';
import { fakeClient } from '../handlers/fake-client';
import { tsHelpers } from './fixtures/render';
import { changesOf } from '../handlers/change';

const ID = 'ae9b391a-05df-85e2-b427-760b96c722be';
const ctx = { workspace: 'demo', namespace: 'shop' };

describe('marker: parseTitle', () => {
  it('reads the id (lower-cased), every secret version, and the title before one space', () => {
    expect(parseTitle(`Orders DB [dqform:${ID.toUpperCase()} keyPair.privateKeySecret@12 password@3]`)).toEqual({
      title: 'Orders DB',
      id: ID,
      versions: { 'keyPair.privateKeySecret': 12, password: 3 },
      marked: true,
    });
    expect(parseTitle(`[dqform:${ID}]`)).toEqual({ title: '', id: ID, versions: {}, marked: true });
    expect(parseTitle(`x[dqform:${ID}]`)).toEqual({ title: 'x', id: ID, versions: {}, marked: true });
    expect(parseTitle(`two  [dqform]`)).toEqual({ title: 'two ', versions: {}, marked: true });
    expect(parseTitle('a\tb\nc [dqform t0k3n.x@0]')).toEqual({ title: 'a\tb\nc', versions: { 't0k3n.x': 0 }, marked: true });
    // the first marker-looking text is part of the title; only the last one counts
    expect(parseTitle(`A [dqform:${ID}] B [dqform password@1]`)).toEqual({ title: `A [dqform:${ID}] B`, versions: { password: 1 }, marked: true });
  });

  it.each([
    ['text after the marker', `T [dqform:${ID}] copy`],
    ['an id one digit short', `T [dqform:${ID.slice(1)}]`],
    ['an id one digit long', `T [dqform:${ID}0]`],
    ['an id that is not hex', `T [dqform:${ID.replace('a', 'g')}]`],
    ['an empty id', 'T [dqform:]'],
    ['a version without a number', 'T [dqform password@]'],
    ['a version without @', 'T [dqform password]'],
    ['a path starting with a digit', 'T [dqform 1password@1]'],
    ['a path with a dash', 'T [dqform pass-word@1]'],
    ['two spaces between parts', 'T [dqform  password@1]'],
    ['a version with a sign', 'T [dqform password@-1]'],
    ['another tool', 'T [tfform:x]'],
    ['a marker without its closing bracket', 'T [dqform'],
  ])('%s is no marker: the whole text is the title', (_why, t) => {
    expect(parseTitle(t)).toEqual({ title: t, versions: {}, marked: false });
  });

  it('a title that is not a string is empty and unmarked', () => {
    expect(parseTitle(undefined)).toEqual({ title: '', versions: {}, marked: false });
    expect(parseTitle(42)).toEqual({ title: '', versions: {}, marked: false });
    expect(parseTitle(null)).toEqual({ title: '', versions: {}, marked: false });
  });

  it('titleOf strips the marker (and keeps an unmarked title whole)', () => {
    expect(titleOf(`Warehouse [dqform:${ID} password@2]`)).toBe('Warehouse');
    expect(titleOf('Warehouse [prod]')).toBe('Warehouse [prod]');
    expect(titleOf(undefined)).toBe('');
  });
});

describe('marker: markedTitle and markerLength', () => {
  it('writes the id, then the versions in path order, after one space; nothing when both are empty', () => {
    expect(markedTitle('T', ID, {})).toBe(`T [dqform:${ID}]`);
    expect(markedTitle('T', undefined, { token: 1, accessToken: 10 })).toBe('T [dqform accessToken@10 token@1]');
    expect(markedTitle('T', '', {})).toBe('T');
    expect(markedTitle('', undefined, {})).toBe('');
  });

  it('round-trips every marker it writes', () => {
    for (const [id, versions] of [[ID, { password: 2 }], [undefined, { 'keyPair.privateKeyPassphrase': 7 }], [ID, {}]] as const) {
      expect(parseTitle(markedTitle('A [b] c', id, versions))).toEqual({ title: 'A [b] c', ...(id ? { id } : {}), versions, marked: true });
    }
  });

  it('counts the characters the marker adds', () => {
    expect(markerLength(ID, { password: 2 })).toBe(' [dqform:'.length + 36 + ' password@2]'.length);
    expect(markerLength(undefined, { token: 1 })).toBe(' [dqform token@1]'.length);
    expect(markerLength(undefined, {})).toBe(0);
  });
});

describe('descriptor', () => {
  it('describes and names an integration by its title without the marker', () => {
    expect(integrationDescriptor.describe!({ title: `Orders "DB" [dqform:${ID}]` }, () => undefined)).toBe('integration "Orders \\"DB\\""');
    expect(integrationDescriptor.namedAfter!({ title: `Orders DB [dqform:${ID} password@1]` }, () => undefined)).toBe('Orders DB');
  });
});

describe('validation', () => {
  it('the title room shrinks with each declared secret; exactly the room is fine', () => {
    const pg = (title: string, extra: Record<string, unknown> = {}) => ({ title, config: { relational: { host: 'h', password: { fromEnv: 'PW' }, ...extra } } });
    // 255 - ' [dqform:<36>]' (46) - ' password@1' (11) = 198
    expect(validateIntegration(pg('x'.repeat(198)), {})).toEqual([]);
    expect(validateIntegration(pg('x'.repeat(199)), {})).toEqual([
      { field: 'title', message: "is 199 characters; with dqform's identity marker it must fit the platform's 255, so at most 198", hint: 'Shorten the title.' },
    ]);
    // a version of 10 takes one more character
    expect(validateIntegration(pg('x'.repeat(198), { passwordVersion: 10 }), {}).map((p) => p.message)).toEqual([
      "is 198 characters; with dqform's identity marker it must fit the platform's 255, so at most 197",
    ]);
    expect(validateIntegration({ title: 'x'.repeat(209) }, {})).toEqual([]);
  });

  it('a marker by hand and a nested version counter without its secret are named exactly', () => {
    expect(validateIntegration({ title: 'T [dqform password@1]', config: { snowflake: { account: 'a', keyPair: { privateKeySecretVersion: 2 } } } }, {})).toEqual([
      { field: 'title', message: 'ends with a [dqform...] marker, which dqform writes itself', hint: 'Give the title without the bracketed marker.' },
      {
        field: 'config.snowflake.keyPair.privateKeySecretVersion',
        message: 'privateKeySecretVersion is set, but privateKeySecret is not',
        hint: 'Give privateKeySecret: { fromEnv: NAME } (or { fromFile: PATH }), or drop privateKeySecretVersion.',
      },
    ]);
    expect(validateIntegration({ title: 'T', config: 'x' }, {})).toEqual([]);
    // a variant set to null, or a config given as a list, has nothing to check
    expect(validateIntegration({ title: 'T', config: { relational: null } }, {})).toEqual([]);
    expect(validateIntegration({ title: 'T', config: [{ relational: { passwordVersion: 2 } }] }, {})).toEqual([]);
  });
});

describe('comparable forms', () => {
  it('live: the marker versions beside the fields, zero ports and empty objects dropped, arrays kept', () => {
    const live = {
      id: 'p1',
      title: `W [dqform:${ID} keyPair.privateKeySecret@2]`,
      disabled: true,
      config: { snowflake: { account: 'acc', port: 0, warehouse: '', keyPair: { privateKeySecret: '', publicKey: 'pk' }, options: {}, hosts: [{ a: 0, b: 'x' }], nested: { inner: { n: 1 } } } },
    };
    expect(canonicalLive(live)).toEqual({
      config: { snowflake: { account: 'acc', hosts: [{ b: 'x' }], keyPair: { privateKeySecretVersion: 2, publicKey: 'pk' }, nested: { inner: { n: 1 } } } },
      enabled: false,
      title: 'W',
    });
    expect(h.fromLive(live)).toEqual(canonicalLive(live));
  });

  it('live without a config, or with none of its variants set, compares as an empty config', () => {
    expect(canonicalLive({ title: 'T', disabled: false })).toEqual({ config: {}, enabled: true, title: 'T' });
    expect(canonicalLive({ title: 'T', config: {} })).toEqual({ config: {}, enabled: true, title: 'T' });
    expect(canonicalLive({ title: 'T', config: 'x', disabled: 'yes' })).toEqual({ config: {}, enabled: true, title: 'T' });
  });

  it('desired: every declared secret at its version (default 1), no reference; enabled unless false', () => {
    const d = { title: 'W', enabled: false, config: { snowflake: { account: 'acc', keyPair: { privateKeySecret: { fromFile: 'k.pem' }, privateKeySecretVersion: 3, privateKeyPassphrase: { fromEnv: 'PP' } }, password: { fromEnv: 'PW' } } } };
    expect(canonicalDesired(d)).toEqual({
      config: { snowflake: { account: 'acc', keyPair: { privateKeyPassphraseVersion: 1, privateKeySecretVersion: 3 }, passwordVersion: 1 } },
      enabled: false,
      title: 'W',
    });
    expect(h.fromDesired(d)).toEqual(canonicalDesired(d));
    expect(canonicalDesired({})).toEqual({ config: {}, enabled: true, title: '' });
    expect(canonicalDesired({ title: 'T', enabled: true, config: { relational: { host: 'h' } } })).toEqual({ config: { relational: { host: 'h' } }, enabled: true, title: 'T' });
  });

  it('secretsOf reads only numeric versions of secret fields, at any depth', () => {
    const c = { config: { snowflake: { passwordVersion: 2, schemaVersion: 5, tokenVersion: 'x', tokenCounter: 3, keyPair: { privateKeySecretVersion: 4 }, Version: 1 } } };
    expect(secretsOf(c)).toEqual({ password: 2, 'keyPair.privateKeySecret': 4 });
    expect(secretsOf({ config: {} })).toEqual({});
    expect(secretsOf(null)).toEqual({});
    expect(secretsOf({ config: 'x' })).toEqual({});
  });

  it('replaceReasons names both variants, none when a side has none', () => {
    expect(h.replaceReasons!({ config: {} }, { config: { relational: {} } })).toEqual(['the config variant is fixed at create (none -> relational): a new integration replaces it']);
    expect(h.replaceReasons!({ config: { relational: {} } }, {})).toEqual(['the config variant is fixed at create (relational -> none): a new integration replaces it']);
    expect(h.replaceReasons!({ config: { relational: { a: 1 } } }, { config: { relational: { a: 2 } } })).toEqual([]);
  });

  it('secretNotes: several secrets in path order, a secret new in this update is rotated, delete has none', () => {
    const before = { config: { snowflake: { passwordVersion: 1 } } };
    const after = { config: { snowflake: { passwordVersion: 1, keyPair: { privateKeySecretVersion: 1 } } } };
    expect(secretNotes({ action: 'update', before, after })).toEqual([
      { code: 'secret', field: 'config.snowflake.keyPair.privateKeySecret', state: 'rotated' },
      { code: 'secret', field: 'config.snowflake.password', state: 'unchanged' },
    ]);
    expect(secretNotes({ action: 'delete', before: after, after: null })).toEqual([]);
    expect(secretNotes({ action: 'create', before: null, after }).map((n) => (n as { state: string }).state)).toEqual(['set', 'set']);
    expect(h.notes!({ action: 'replace', before, after } as Change)).toEqual([
      { code: 'secret', field: 'config.snowflake.keyPair.privateKeySecret', state: 'replaced' },
      { code: 'secret', field: 'config.snowflake.password', state: 'replaced' },
    ]);
  });
});

describe('secrets', () => {
  it('declaredSecrets: references only (not strings), nested paths, versions default 1, in path order', () => {
    const v = { user: 'u', password: { fromEnv: 'PW' }, passwordVersion: 4, token: 'literal', keyPair: { privateKeySecret: { fromFile: 'k' }, privateKeySecretVersion: 'x' }, other: { deep: { accessToken: { fromEnv: 'AT' } } } };
    expect(declaredSecrets(v)).toEqual([
      { path: 'keyPair.privateKeySecret', ref: { fromFile: 'k' }, version: 1 },
      { path: 'other.deep.accessToken', ref: { fromEnv: 'AT' }, version: 1 },
      { path: 'password', ref: { fromEnv: 'PW' }, version: 4 },
    ]);
    expect(declaredSecrets('x')).toEqual([]);
    expect(declaredSecrets([{ password: { fromEnv: 'PW' } }])).toEqual([]);
  });

  it('withoutSecrets drops secrets and their counters at any depth (in arrays too), nothing else', () => {
    expect(withoutSecrets({ password: 'p', passwordVersion: 2, schemaVersion: 3, tokenCounter: 4, Version: 1, host: 'h', list: [{ token: 't', n: 1 }, 'x'], keyPair: { privateKeySecret: {}, privateKeySecretVersion: 1, publicKey: 'k' } })).toEqual({
      schemaVersion: 3,
      tokenCounter: 4,
      Version: 1,
      host: 'h',
      list: [{ n: 1 }, 'x'],
      keyPair: { publicKey: 'k' },
    });
    expect(withoutSecrets(null)).toBeNull();
  });

  it('setPath makes the objects on the way, replacing a non-object', () => {
    const o: Record<string, unknown> = { a: 'x', k: { keep: 1 } };
    setPath(o, 'a.b.c', 1);
    setPath(o, 'k.v', 2);
    setPath(o, 'top', 3);
    expect(o).toEqual({ a: { b: { c: 1 } }, k: { keep: 1, v: 2 }, top: 3 });
  });

  it('describeRef names the variable or the file, never a value', () => {
    expect(describeRef({ fromEnv: 'PG_PW' })).toBe('environment variable PG_PW');
    expect(describeRef({ fromFile: 'secrets/pg pw' })).toBe('file "secrets/pg pw"');
  });

  describe('readSecret', () => {
    let dir: string;
    beforeAll(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-secret-exact-'));
    });
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('from a file: one trailing newline (LF or CRLF) dropped, inner and other whitespace kept', () => {
      fs.writeFileSync(path.join(dir, 'crlf'), 'Crlf-Value-9911\r\n');
      fs.writeFileSync(path.join(dir, 'two'), 'Two-Lines-7733\n\n');
      fs.writeFileSync(path.join(dir, 'inner'), 'In\nner-7744\n');
      fs.writeFileSync(path.join(dir, 'sp'), ' Spaced-Value-4422 ');
      expect(readSecret({ fromFile: path.join(dir, 'crlf') }, 'w', {})).toBe('Crlf-Value-9911');
      expect(readSecret({ fromFile: path.join(dir, 'two') }, 'w', {})).toBe('Two-Lines-7733\n');
      expect(readSecret({ fromFile: path.join(dir, 'inner') }, 'w', {})).toBe('In\nner-7744');
      expect(readSecret({ fromFile: path.join(dir, 'sp') }, 'w', {})).toBe(' Spaced-Value-4422 ');
      expect(redact('x Crlf-Value-9911 y')).toBe('x [REDACTED] y');
    });

    it('errors name the field and the source exactly, never a value', () => {
      const where = 'dq_integration.pg: config.relational.password';
      expect(() => readSecret({ fromEnv: 'EMPTY_PW' }, where, { EMPTY_PW: '' })).toThrow(
        new Error(`${where}: environment variable EMPTY_PW is not set; set it to the secret before apply (dqform reads it only then)`),
      );
      fs.writeFileSync(path.join(dir, 'empty'), '\n');
      const empty = path.join(dir, 'empty');
      expect(() => readSecret({ fromFile: empty }, where, {})).toThrow(new Error(`${where}: file ${JSON.stringify(empty)} is empty`));
      const missing = path.join(dir, 'missing');
      expect(() => readSecret({ fromFile: missing }, where, {})).toThrow(
        new Error(`${where}: cannot read file ${JSON.stringify(missing)} (ENOENT); give the path of the file holding the secret (relative to the current directory)`),
      );
      // a directory cannot be read as a file
      expect(() => readSecret({ fromFile: dir }, where, {})).toThrow(`${where}: cannot read file ${JSON.stringify(dir)} (EISDIR)`);
    });

    it('reads process.env by default', () => {
      process.env.DQFORM_TEST_SECRET_EXACT = 'Proc-Env-Value-3131';
      try {
        expect(readSecret({ fromEnv: 'DQFORM_TEST_SECRET_EXACT' }, 'w')).toBe('Proc-Env-Value-3131');
      } finally {
        delete process.env.DQFORM_TEST_SECRET_EXACT;
      }
    });
  });

  it('bound references are per namespace and address; an unbound address is an error saying how to apply', () => {
    bindSecretRefs(
      [
        { address: 'dq_integration.a', desired: { config: { relational: { password: { fromEnv: 'A_PW' } } } } },
        { address: 'dq_integration.b', desired: { config: 'x' } },
        { address: 'dq_integration.c', desired: { config: { relational: undefined, snowflake: { token: { fromEnv: 'C_T' }, tokenVersion: 2 } } } },
      ],
      'ns-bound',
    );
    expect(boundSecrets('ns-bound', 'dq_integration.a')).toEqual([{ path: 'password', ref: { fromEnv: 'A_PW' }, version: 1 }]);
    expect(boundSecrets('ns-bound', 'dq_integration.b')).toEqual([]);
    expect(boundSecrets('ns-bound', 'dq_integration.c')).toEqual([{ path: 'token', ref: { fromEnv: 'C_T' }, version: 2 }]);
    expect(() => boundSecrets('other-ns', 'dq_integration.a')).toThrow(
      new Error(
        "dq_integration.a: the secrets' references are not known to this process; dqform sends secrets only while applying a plan it made from the code (run dqform apply with the code, or apply a saved plan: it plans again)",
      ),
    );
  });
});

describe('handler reads', () => {
  const mine = deriveId('demo', 'shop', 'dq_integration', 'mine');
  const theirs = deriveId('demo', 'other', 'dq_integration', 'theirs');
  const listed = [
    { id: 'p-3', title: `Mine [dqform:${mine.toUpperCase()} password@1]`, etag: 'W/"p-3-1"', config: {} },
    { id: 'p-2', title: `Theirs [dqform:${theirs}]`, config: {} },
    { id: 'P-1', title: 'Made in the UI', config: {} },
    { id: 'p-4', title: 'Also UI', config: {} },
    { id: 'p-5', title: `Asked [dqform:${ID}]`, config: {} },
  ];

  it('keeps the namespace\'s markers, marker ids asked for, and unmarked ones asked for by platform id; sorted by key', async () => {
    const { client, calls } = fakeClient({ 'integrations.list': listed });
    const live = await h.read(client, { ...ctx, keys: ['p-1', ID.toUpperCase(), 'p-2'], owns: (id) => id === mine });
    expect(live.map((o) => [o.key, o.id, o.etag])).toEqual(
      [
        ['P-1', 'P-1', undefined],
        [ID, ID, undefined],
        [mine, mine, 'W/"p-3-1"'],
      ].sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1)),
    );
    expect(calls).toEqual([{ op: 'integrations.list', args: [] }]);
  });

  it('without owns, only what is asked for', async () => {
    const { client } = fakeClient({ 'integrations.list': listed });
    expect((await h.read(client, { ...ctx, keys: [mine] })).map((o) => o.key)).toEqual([mine]);
    expect(await h.read(client, { ...ctx, keys: [] })).toEqual([]);
  });

  it('listAll answers every integration, keyed by its marker id or its platform id', async () => {
    const { client } = fakeClient({ 'integrations.list': listed });
    expect((await h.listAll!(client, async () => [])).map((o) => o.key)).toEqual([mine, theirs, 'P-1', 'p-4', ID]);
  });
});

describe('handler writes (recording fake client)', () => {
  const pgId = deriveId('demo', 'shop', 'dq_integration', 'pg');
  const desired = (passwordVersion?: number, extra: Record<string, unknown> = {}) => ({
    title: 'Warehouse PG',
    ...extra,
    config: { relational: { host: 'db', port: 5432, password: { fromEnv: 'MUTK_PG_PW' }, ...(passwordVersion ? { passwordVersion } : {}) } },
  });
  const change = changesOf('dq_integration.pg', pgId);
  const env = { MUTK_PG_PW: 'Pg-Secret-Value-8080' };
  beforeEach(() => {
    Object.assign(process.env, env);
    h.bindDesired!([{ address: 'dq_integration.pg', desired: desired(2) }], ctx);
  });
  afterEach(() => {
    delete process.env.MUTK_PG_PW;
  });

  it('create sends the title with its marker and every secret, then disables when enabled is false', async () => {
    const { client, calls } = fakeClient({ 'integrations.create': { id: 'p-new' } });
    await h.create(client, change('create', h.fromDesired(desired(2, { enabled: false }))), ctx);
    expect(calls).toEqual([
      { op: 'integrations.create', args: [{ title: `Warehouse PG [dqform:${pgId} password@2]`, config: { relational: { host: 'db', port: 5432, password: 'Pg-Secret-Value-8080' } } }] },
      { op: 'integrations.disable', args: ['p-new'] },
    ]);
  });

  it('create of an enabled integration does not disable it; an upper-case derived id is written lower-case', async () => {
    const { client, calls } = fakeClient({ 'integrations.create': { id: 'p-new' } });
    await h.create(client, change('create', h.fromDesired(desired(2)), { id: pgId.toUpperCase() }), ctx);
    expect(calls.map((c) => c.op)).toEqual(['integrations.create']);
    expect((calls[0].args[0] as { title: string }).title).toBe(`Warehouse PG [dqform:${pgId} password@2]`);
  });

  it.each([
    ['a random (v4) id', '0a000000-0000-4000-8000-0000000000aa'],
    ['a derived id with a bad variant', pgId.slice(0, 19) + 'c' + pgId.slice(20)],
    ['a derived id with a prefix', `x${pgId}`],
    ['a derived id with a suffix', `${pgId}0`],
    ['a platform id', 'p-1'],
  ])('create refuses %s: the platform assigns ids', async (_why, id) => {
    const { client, calls } = fakeClient();
    await expect(h.create(client, change('create', h.fromDesired(desired(2)), { id }), ctx)).rejects.toThrow(
      new Error(`dq_integration.pg: no integration ${JSON.stringify(id)} exists to write, and the platform assigns integration ids: drop the pinned id to create a new integration`),
    );
    expect(calls).toEqual([]);
  });

  it('create refuses a plan whose secret version differs from the code, naming both; and a missing variable names the field', async () => {
    const { client, calls } = fakeClient({ 'integrations.create': { id: 'p-new' } });
    await expect(h.create(client, change('create', h.fromDesired(desired(3))), ctx)).rejects.toThrow(
      new Error("dq_integration.pg: the code's password is at version 2, the plan's at 3: plan again"),
    );
    await expect(h.create(client, change('create', { title: 'Warehouse PG', config: { relational: { host: 'db' } } }), ctx)).rejects.toThrow(
      new Error("dq_integration.pg: the code's password is at version 2, the plan's at none: plan again"),
    );
    delete process.env.MUTK_PG_PW;
    const err = await h.create(client, change('create', h.fromDesired(desired(2))), ctx).catch((e: Error) => e);
    expect((err as Error).message).toBe('dq_integration.pg: config.relational.password: environment variable MUTK_PG_PW is not set; set it to the secret before apply (dqform reads it only then)');
    expect(calls).toEqual([]);
  });

  it('update: a title change keeps the secret (not sent) and the marker id of the live title, with the plan etag', async () => {
    const live = { id: 'p-7', title: `Warehouse PG [dqform:${pgId} password@2]` };
    const { client, calls } = fakeClient({ 'integrations.batchGet': { 'p-7': live }, 'integrations.list': [live] });
    await h.read(client, { ...ctx, keys: [pgId] }); // learns marker id -> platform id
    calls.length = 0;
    const before = h.fromDesired(desired(2));
    await h.update(client, change('update', h.fromDesired(desired(2, { title: 'Warehouse' })), { before, etag: 'W/"p-7-3"' }), ctx);
    expect(calls).toEqual([
      { op: 'integrations.batchGet', args: [['p-7']] },
      { op: 'integrations.update', args: ['p-7', { title: `Warehouse [dqform:${pgId} password@2]`, config: { relational: { host: 'db', port: 5432 } } }, 'W/"p-7-3"'] },
    ]);
  });

  it('update: a raised version sends the secret again', async () => {
    h.bindDesired!([{ address: 'dq_integration.pg', desired: desired(3) }], ctx);
    const live = { id: 'p-7', title: `Warehouse PG [dqform:${pgId} password@2]` };
    const { client, calls } = fakeClient({ 'integrations.batchGet': { 'p-7': live }, 'integrations.list': [live] });
    await h.read(client, { ...ctx, keys: [pgId] });
    calls.length = 0;
    await h.update(client, change('update', h.fromDesired(desired(3)), { before: h.fromDesired(desired(2)), etag: 'W/"p-7-3"' }), ctx);
    expect(calls[1]).toEqual({ op: 'integrations.update', args: ['p-7', { title: `Warehouse PG [dqform:${pgId} password@3]`, config: { relational: { host: 'db', port: 5432, password: 'Pg-Secret-Value-8080' } } }, 'W/"p-7-3"'] });
  });

  it('update: only enabled changed is an Enable or Disable, no Update; an adopted integration keeps an unmarked title id', async () => {
    const adopted = { id: 'ui-1', title: 'Warehouse PG' };
    const { client, calls } = fakeClient({ 'integrations.batchGet': { 'ui-1': adopted } });
    const on = h.fromDesired(desired(2));
    const off = h.fromDesired(desired(2, { enabled: false }));
    await h.update(client, change('update', off, { id: 'ui-1', before: on }), ctx);
    await h.update(client, change('update', on, { id: 'ui-1', before: off }), ctx);
    await h.update(client, change('update', on, { id: 'ui-1', before: on }), ctx);
    expect(calls.map((c) => [c.op, ...c.args])).toEqual([
      ['integrations.batchGet', ['ui-1']],
      ['integrations.disable', 'ui-1'],
      ['integrations.batchGet', ['ui-1']],
      ['integrations.enable', 'ui-1'],
      ['integrations.batchGet', ['ui-1']],
    ]);
    // a title change of an adopted one writes no id into the marker, only the versions
    await h.update(client, change('update', h.fromDesired(desired(2, { title: 'New' })), { id: 'ui-1', before: on }), ctx);
    expect(calls[calls.length - 1]).toEqual({ op: 'integrations.update', args: ['ui-1', { title: 'New [dqform password@2]', config: { relational: { host: 'db', port: 5432 } } }, null] });
  });

  it('update: a change with no before compares against nothing, so it writes; a gone integration is an error naming it', async () => {
    const { client, calls } = fakeClient({ 'integrations.batchGet': { 'ui-2': { id: 'ui-2', title: 'X' } } });
    await h.update(client, change('update', h.fromDesired(desired(2)), { id: 'ui-2', before: null }), ctx);
    expect(calls.map((c) => c.op)).toEqual(['integrations.batchGet', 'integrations.update']);
    expect(calls[1].args[1]).toEqual({ title: 'Warehouse PG [dqform password@2]', config: { relational: { host: 'db', port: 5432, password: 'Pg-Secret-Value-8080' } } });
    const gone = fakeClient({ 'integrations.batchGet': {} });
    await expect(h.update(gone.client, change('update', h.fromDesired(desired(2)), { id: 'ui-3' }), ctx)).rejects.toThrow(new Error('dq_integration.pg: integration ui-3 is gone (deleted since the plan)'));
    expect(gone.calls.map((c) => c.op)).toEqual(['integrations.batchGet']);
  });

  it('delete: the platform id and the plan etag; NOT_FOUND is success, other errors are not', async () => {
    const { client, calls } = fakeClient({
      'integrations.delete': new NotFoundError({ method: 'DELETE', path: '/x', status: 404 }),
      'integrations.list': [{ id: 'p-8', title: `Warehouse PG [dqform:${pgId}]` }],
    });
    await h.read(client, { ...ctx, keys: [pgId] }); // learns marker id -> platform id
    calls.length = 0;
    await h.delete(client, change('delete', null, { id: 'ui-9', etag: 'W/"ui-9-1"' }), ctx);
    // a marked integration is deleted by its platform id (the marker id, in any case, is the engine's)
    await h.delete(client, change('replace', h.fromDesired(desired(2)), { id: pgId.toUpperCase(), etag: 'W/"x"' }), ctx);
    expect(calls).toEqual([
      { op: 'integrations.delete', args: ['ui-9', 'W/"ui-9-1"'] },
      { op: 'integrations.delete', args: ['p-8', 'W/"x"'] },
    ]);
    const bad = fakeClient({ 'integrations.delete': new ValidationError({ method: 'DELETE', path: '/x', status: 400 }) });
    await expect(h.delete(bad.client, change('delete', null, { id: 'ui-9' }), ctx)).rejects.toBeInstanceOf(ValidationError);
  });

  it('delete for a replace of an adopted integration is refused before any call', async () => {
    const { client, calls } = fakeClient();
    await expect(h.delete(client, change('replace', h.fromDesired(desired(2)), { id: 'ui-9' }), ctx)).rejects.toThrow(
      new Error(
        'dq_integration.pg: integration ui-9 was adopted with an import block (its title carries no dqform id), so a new one cannot take its place: delete it in the platform and drop the import block (and pinned id) so that dqform creates its own',
      ),
    );
    expect(calls).toEqual([]);
  });
});

describe('import rendering', () => {
  it('todoName: camelCase split, non-alphanumerics collapsed, edges trimmed, at most 120 characters', () => {
    expect(todoName('  my-DB 2 ', 'password')).toBe('TODO_MY_DB_2_PASSWORD');
    expect(todoName('Ünïcode!', 'accessToken')).toBe('TODO_N_CODE_ACCESS_TOKEN');
    expect(todoName('x'.repeat(200), 'token')).toBe(`TODO_${'X'.repeat(115)}`);
    expect(todoName('a', 'b')).toHaveLength(8);
  });

  it('fromLive: stored secret strings and marker-listed secrets become references; versions other than 1 kept; no marker, no secret', () => {
    const raw = {
      id: 'p1',
      title: `Snow [dqform:${ID} keyPair.privateKeySecret@1 password@4 token@2]`,
      disabled: false,
      config: { snowflake: { account: 'acc', password: '', accessToken: '', keyPair: { publicKey: 'pk' }, list: [1] } },
    };
    expect(integrationImport.fromLive!(raw)).toEqual({
      title: 'Snow',
      config: {
        snowflake: {
          accessToken: { fromEnv: 'TODO_SNOW_ACCESS_TOKEN' },
          account: 'acc',
          keyPair: { privateKeySecret: { fromEnv: 'TODO_SNOW_KEY_PAIR_PRIVATE_KEY_SECRET' }, publicKey: 'pk' },
          list: [1],
          password: { fromEnv: 'TODO_SNOW_PASSWORD' },
          passwordVersion: 4,
          token: { fromEnv: 'TODO_SNOW_TOKEN' },
          tokenVersion: 2,
        },
      },
    });
    // a secret field the platform answered as a non-string, without a marker entry, is left out
    expect(integrationImport.fromLive!({ title: 'UI', config: { relational: { host: 'h', password: null } } })).toEqual({ title: 'UI', config: { relational: { host: 'h' } } });
    expect(integrationImport.fromLive!({ title: 'UI', disabled: true, config: 'x' })).toEqual({ title: 'UI', enabled: false });
    expect(integrationImport.fromLive!({ title: 'UI', config: {} })).toEqual({ title: 'UI' });
  });

  it('fromLive: fields in name order, marker-listed secrets missing from the read after them in path order; version 1 and unlisted secrets carry no counter', () => {
    const out = integrationImport.fromLive!({
      title: 'S [dqform token@2 clientSecret@1 password@1]',
      config: { relational: { user: 'u', password: '', host: 'h', keyPair: { privateKeySecret: '' } } },
    });
    expect(out).toStrictEqual({
      title: 'S',
      config: {
        relational: {
          host: 'h',
          keyPair: { privateKeySecret: { fromEnv: 'TODO_S_KEY_PAIR_PRIVATE_KEY_SECRET' } },
          password: { fromEnv: 'TODO_S_PASSWORD' },
          user: 'u',
          clientSecret: { fromEnv: 'TODO_S_CLIENT_SECRET' },
          token: { fromEnv: 'TODO_S_TOKEN' },
          tokenVersion: 2,
        },
      },
    });
    expect(Object.keys((out.config as { relational: object }).relational)).toEqual(['host', 'keyPair', 'password', 'user', 'clientSecret', 'token', 'tokenVersion']);
  });

  it('fromLive: a marker-listed nested secret under a non-object is written in a new object', () => {
    expect(integrationImport.fromLive!({ title: `S [dqform keyPair.privateKeySecret@3]`, config: { snowflake: { keyPair: 'x' } } })).toEqual({
      title: 'S',
      config: { snowflake: { keyPair: { privateKeySecret: { fromEnv: 'TODO_S_KEY_PAIR_PRIVATE_KEY_SECRET' }, privateKeySecretVersion: 3 } } },
    });
  });

  it('ts: each lone { fromEnv } becomes Secret.fromEnv (Secret imported); other objects stay data', () => {
    const { h: helpers, used } = tsHelpers([]);
    const c = { title: 'Snow', config: { snowflake: { account: 'acc', password: { fromEnv: 'TODO_SNOW_PASSWORD' }, other: { fromEnv: 'X', extra: 1 }, n: { fromEnv: 3 } } } };
    expect(integrationImport.ts!(c, helpers)).toEqual({
      config: { snowflake: { account: 'acc', password: { code: "Secret.fromEnv('TODO_SNOW_PASSWORD')" }, other: { fromEnv: 'X', extra: 1 }, n: { fromEnv: 3 } } },
      title: 'Snow',
    });
    expect(used).toEqual(['Secret']);
    const none = tsHelpers([]);
    expect(integrationImport.ts!({ title: 'T', config: 'x' }, none.h)).toEqual({ config: 'x', title: 'T' });
    expect(none.used).toEqual([]);
  });
});
