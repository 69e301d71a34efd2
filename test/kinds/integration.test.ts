/** `dq_integration` in process: the title marker, validation, the comparable forms, the plan's secret notes, secret reading and import rendering (issue 25). */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RESOURCE_SCHEMAS } from '../../schemas/model/manifest';
import { redact } from '../../src/client/redact';
import { reasonText } from '../../src/plan/reasons-text';
import { integrationsHandler, secretNotes } from '../../src/kinds/integration/handler';
import { integrationImport, todoName } from '../../src/kinds/integration/import';
import { markedTitle, parseTitle } from '../../src/kinds/integration/marker';
import { readSecret } from '../../src/kinds/integration/secrets';
import { validateIntegration } from '../../src/kinds/integration/validate';

const ID = 'ae9b391a-05df-85e2-b427-760b96c722be';
const pg = (password: unknown = { fromEnv: 'PG_PASSWORD' }, extra: Record<string, unknown> = {}) => ({ title: 'Warehouse PG', config: { relational: { host: 'db', port: 5432, password, ...extra } } });

describe('title marker', () => {
  it('round-trips the id and the versions, and leaves an unmarked title alone', () => {
    const t = markedTitle('Warehouse PG', ID, { password: 2, 'keyPair.privateKeySecret': 1 });
    expect(t).toBe(`Warehouse PG [dqform:${ID} keyPair.privateKeySecret@1 password@2]`);
    expect(parseTitle(t)).toEqual({ title: 'Warehouse PG', id: ID, versions: { password: 2, 'keyPair.privateKeySecret': 1 }, marked: true });
    expect(parseTitle('Made [in] the UI')).toEqual({ title: 'Made [in] the UI', versions: {}, marked: false });
    expect(parseTitle('Adopted [dqform password@3]')).toEqual({ title: 'Adopted', versions: { password: 3 }, marked: true });
    expect(markedTitle('Plain', undefined, {})).toBe('Plain');
  });
});

describe('validation', () => {
  it('names the field: a marker by hand, a title too long for the marker, a version without its secret', () => {
    expect(validateIntegration({ ...pg(), title: `x [dqform:${ID}]` }, {}).map((p) => p.field)).toEqual(['title']);
    const long = validateIntegration({ ...pg(), title: 'x'.repeat(250) }, {});
    expect(long).toEqual([expect.objectContaining({ field: 'title', message: expect.stringContaining('at most 198') })]);
    expect(validateIntegration({ title: 't', config: { relational: { host: 'h', passwordVersion: 2 } } }, {})).toEqual([expect.objectContaining({ field: 'config.relational.passwordVersion' })]);
    expect(validateIntegration(pg(), {})).toEqual([]);
  });

  it('the schema refuses a literal secret without echoing it, and a reference with both sources', () => {
    const r = RESOURCE_SCHEMAS.dq_integration.safeParse(pg('Literal-Pw-123'));
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error!.issues)).toContain('a secret is never written in code');
    expect(JSON.stringify(r.error!.issues)).not.toContain('Literal-Pw-123');
    expect(RESOURCE_SCHEMAS.dq_integration.safeParse(pg({ fromEnv: 'A', fromFile: 'b' })).success).toBe(false);
    expect(RESOURCE_SCHEMAS.dq_integration.safeParse(pg({ fromEnv: 'not a name' })).success).toBe(false);
    expect(RESOURCE_SCHEMAS.dq_integration.safeParse(pg({ fromFile: 'pw.txt' }, { passwordVersion: 2 })).success).toBe(true);
  });
});

describe('comparable forms', () => {
  it('live (secrets empty, gateway zero values) and desired compare equal; versions come from the marker and the code', () => {
    const live = { id: 'p1', title: `Warehouse PG [dqform:${ID} password@2]`, disabled: false, platform: 4, config: { relational: { host: 'db', port: 5432, password: '', user: '', database: '', auditTableFqn: '' } } };
    const desired = pg({ fromEnv: 'PG_PASSWORD' }, { passwordVersion: 2 });
    expect(integrationsHandler.fromLive(live)).toEqual({ config: { relational: { host: 'db', passwordVersion: 2, port: 5432 } }, enabled: true, title: 'Warehouse PG' });
    expect(integrationsHandler.fromDesired(desired)).toEqual(integrationsHandler.fromLive(live));
    // the reference is never in the comparable form (nor so in the plan)
    expect(JSON.stringify(integrationsHandler.fromDesired(desired))).not.toContain('PG_PASSWORD');
  });

  it('a change of variant is a replace', () => {
    const a = integrationsHandler.fromDesired(pg());
    const b = integrationsHandler.fromDesired({ title: 't', config: { mysqlLike: { host: 'db' } } });
    expect(integrationsHandler.replaceReasons(a, b)).toEqual(['the config variant is fixed at create (relational -> mysqlLike): a new integration replaces it']);
    expect(integrationsHandler.replaceReasons(a, a)).toEqual([]);
  });

  it('notes each secret: rotated when its version changes, unchanged otherwise', () => {
    const v1 = integrationsHandler.fromDesired(pg());
    const v2 = integrationsHandler.fromDesired(pg(undefined, { passwordVersion: 2 }));
    const text = (c: Parameters<typeof secretNotes>[0]) => secretNotes(c).map(reasonText);
    expect(text({ action: 'update', before: v1, after: v2 })).toEqual(['config.relational.password (secret: rotated)']);
    expect(text({ action: 'update', before: v1, after: { ...v1, title: 'x' } })).toEqual(['config.relational.password (secret: unchanged, not readable)']);
    expect(text({ action: 'create', before: null, after: v1 })).toEqual(['config.relational.password (secret: set from its reference at apply)']);
    expect(text({ action: 'replace', before: v1, after: v2 })).toEqual(['config.relational.password (secret: rotated, sent to the new integration)']);
    expect(secretNotes({ action: 'noop', before: v1, after: v1 })).toEqual([]);
    // typed: code `secret` with the field and what apply does with it
    expect(secretNotes({ action: 'update', before: v1, after: v2 })).toEqual([{ code: 'secret', field: 'config.relational.password', state: 'rotated' }]);
  });
});

describe('reading a secret', () => {
  it('from a variable or a file (one trailing newline dropped), registered for redaction; errors name the field and source, never a value', () => {
    expect(readSecret({ fromEnv: 'X_PW' }, 'dq_integration.pg: config.relational.password', { X_PW: 'Env-Value-1234' })).toBe('Env-Value-1234');
    expect(redact('got Env-Value-1234')).toBe('got [REDACTED]');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-secret-'));
    fs.writeFileSync(path.join(dir, 'pw'), 'File-Value-5678\n');
    expect(readSecret({ fromFile: path.join(dir, 'pw') }, 'w', {})).toBe('File-Value-5678');
    expect(redact('File-Value-5678')).toBe('[REDACTED]');
    expect(() => readSecret({ fromEnv: 'MISSING_PW' }, 'dq_integration.pg: config.relational.password', {})).toThrow('dq_integration.pg: config.relational.password: environment variable MISSING_PW is not set');
    expect(() => readSecret({ fromFile: path.join(dir, 'nope') }, 'w', {})).toThrow(/cannot read file .*nope.*ENOENT/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('import rendering', () => {
  it('strips the marker and renders every secret the marker lists as a reference to fill in', () => {
    const raw = { id: 'p1', title: `Warehouse PG [dqform:${ID} password@3]`, disabled: true, config: { relational: { host: 'db', port: 5432 } } };
    expect(integrationImport.fromLive!(raw)).toEqual({ title: 'Warehouse PG', enabled: false, config: { relational: { host: 'db', port: 5432, password: { fromEnv: 'TODO_WAREHOUSE_PG_PASSWORD' }, passwordVersion: 3 } } });
    expect(todoName('Orders (prod)', 'keyPair.privateKeySecret')).toBe('TODO_ORDERS_PROD_KEY_PAIR_PRIVATE_KEY_SECRET');
  });
});
