/** `Integration` and `Secret` (issue 25): secrets synthesise as references, never values; a literal or a typo fails synth naming the field. */
import type { App } from 'cdktf';
import { DqStack, Integration, Secret } from '../../constructs';
import { synth, synthError } from './synth';

const stack = (app: App) => new DqStack(app, 's', { namespace: 'ns' });
/** Lets a deliberately wrong value through the types (what a JS user or a cast can pass). */
const loose = (x: unknown): never => x as never;

it('Secret.fromEnv and Secret.fromFile synthesise as from_env/from_file references with the version counter', () => {
  const { json, text } = synth((app) => {
    const s = stack(app);
    new Integration(s, 'pg', { title: 'Warehouse PG', config: { relational: { host: 'db', port: 5432, password: Secret.fromEnv('PG_PASSWORD'), passwordVersion: 2 } } });
    new Integration(s, 'wh', { title: 'WH', enabled: false, config: { warehouseAccount: { account: 'a', keyPair: { privateKeySecret: Secret.fromFile('wh.key'), publicKey: 'p' } } } });
  }, 's');
  const res = (json.resource as Record<string, Record<string, Record<string, unknown>>>).dq_integration;
  expect(res.pg.config).toEqual({ relational: { host: 'db', port: 5432, password: { from_env: 'PG_PASSWORD' }, password_version: 2 } });
  expect(res.wh).toMatchObject({ title: 'WH', enabled: false, config: { warehouse_account: { account: 'a', key_pair: { private_key_secret: { from_file: 'wh.key' }, public_key: 'p' } } } });
  expect(text).not.toContain('Secret');
});

it('a literal secret fails synth naming the construct and the field, and its value is not in the message', () => {
  const err = synthError((app) => new Integration(stack(app), 'pg', { title: 'T', config: { relational: loose({ host: 'db', password: 'Literal-Pw-123' }) } }));
  expect(err).toContain('s/pg');
  expect(err).toContain('config.relational.password is a write-only secret');
  expect(err).not.toContain('Literal-Pw-123');
  const nested = synthError((app) => new Integration(stack(app), 'wh', { title: 'T', config: { warehouseAccount: loose({ keyPair: { privateKeySecret: 'Literal-Key-456' } }) } }));
  expect(nested).toContain('config.warehouseAccount.keyPair.privateKeySecret');
  expect(nested).not.toContain('Literal-Key-456');
});

it('a typo in the config fails synth with a did-you-mean', () => {
  const err = synthError((app) => new Integration(stack(app), 'pg', { title: 'T', config: { relational: loose({ host: 'db', passwrd: Secret.fromEnv('X') }) } }));
  expect(err).toContain('unknown property "passwrd"');
  expect(err).toContain('password');
});
