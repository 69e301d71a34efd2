/**
 * Issue 24, one error base: the errors a user meets outside the platform's own answers are
 * DqformErrors with the stable code docs/errors.md lists (a secret that cannot be read, a plan
 * the code moved away from, an address that is not one, a preview that needs gRPC...), each with
 * its message unchanged, word for word. Where apply and the CLI show them:
 * apply-known-after-apply.test.ts, applier.test.ts, e2e/integrations.test.ts, cli/modes.test.ts.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RESOURCE_TYPES } from '../../schemas/model/manifest';
import type { Change } from '../../schemas/model/plan';
import { codeFamily, DqformError } from '../../schemas/tools/errors';
import type { DqClient } from '../../src/client/http';
import { preview, PreviewNeedsGrpcError } from '../../src/client/services/previews';
import { deriveId } from '../../src/engine/identity';
import { DependencyCycleError, executionWaves } from '../../src/engine/graph';
import { AddressError, canonicalAddress } from '../../src/engine/modes';
import { AssignedIdError, GoneSincePlanError, integrationsHandler as h, ReplaceRefusedError, SecretVersionSkewError } from '../../src/kinds/integration/handler';
import { boundSecrets, readSecret, SecretRefsUnknownError, SecretUnreadableError } from '../../src/kinds/integration/secrets';
import { afterOf, MissingAfterError } from '../../src/kinds/shared/support';
import { addresses } from '../../src/cli/flags';
import { lazy } from '../../src/cli/lazy';
import { UsageError } from '../../src/cli/usage-error';
import { fakeClient } from '../handlers/fake-client';
import { changesOf } from '../handlers/change';

/** What `fn` throws (or rejects with), failing the test when it does not. */
async function thrown(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected an error');
}

/** The error as the user meets it: its class, code, message and hint. */
function shape(e: unknown): { cls: string; code: string; message: string; hint?: string } {
  expect(e).toBeInstanceOf(DqformError);
  const d = e as DqformError;
  return { cls: d.constructor.name, code: d.code, message: d.message, ...(d.hint !== undefined ? { hint: d.hint } : {}) };
}

describe('integration secrets', () => {
  const where = 'dq_integration.pg: config.relational.password';
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-errcodes-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a variable not set, a file that cannot be read or is empty: SecretUnreadableError (write.secret)', async () => {
    expect(shape(await thrown(() => readSecret({ fromEnv: 'NOT_SET_PW' }, where, {})))).toEqual({
      cls: 'SecretUnreadableError',
      code: 'write.secret',
      message: `${where}: environment variable NOT_SET_PW is not set; set it to the secret before apply (dqform reads it only then)`,
    });
    const missing = path.join(dir, 'missing');
    const unreadable = await thrown(() => readSecret({ fromFile: missing }, where, {}));
    expect(unreadable).toBeInstanceOf(SecretUnreadableError);
    expect(shape(unreadable)).toEqual({
      cls: 'SecretUnreadableError',
      code: 'write.secret',
      message: `${where}: cannot read file ${JSON.stringify(missing)} (ENOENT); give the path of the file holding the secret (relative to the current directory)`,
    });
    const empty = path.join(dir, 'empty');
    fs.writeFileSync(empty, '\n');
    expect(shape(await thrown(() => readSecret({ fromFile: empty }, where, {})))).toEqual({
      cls: 'SecretUnreadableError',
      code: 'write.secret',
      message: `${where}: file ${JSON.stringify(empty)} is empty`,
      hint: 'Write the secret into the file (one trailing newline is dropped).',
    });
  });

  it('references this process did not plan: SecretRefsUnknownError (write.secret-refs)', async () => {
    expect(await thrown(() => boundSecrets('never-planned', 'dq_integration.x'))).toBeInstanceOf(SecretRefsUnknownError);
    expect(shape(await thrown(() => boundSecrets('never-planned', 'dq_integration.x')))).toEqual({
      cls: 'SecretRefsUnknownError',
      code: 'write.secret-refs',
      message:
        "dq_integration.x: the secrets' references are not known to this process; dqform sends secrets only while applying a plan it made from the code (run dqform apply with the code, or apply a saved plan: it plans again)",
    });
  });
});

describe('integration writes', () => {
  const ctx = { workspace: 'demo', namespace: 'errcodes' };
  const pgId = deriveId('demo', 'errcodes', 'dq_integration', 'pg');
  const desired = (passwordVersion: number) => ({ title: 'PG', config: { relational: { host: 'db', password: { fromEnv: 'ERRCODES_PG_PW' }, passwordVersion } } });
  const change = changesOf('dq_integration.pg', pgId);
  beforeEach(() => h.bindDesired!([{ address: 'dq_integration.pg', desired: desired(2) }], ctx));

  it('the code moved on since the plan: SecretVersionSkewError (write.secret-version)', async () => {
    const { client, calls } = fakeClient();
    expect(shape(await thrown(() => h.create(client, change('create', h.fromDesired(desired(3))), ctx)))).toEqual({
      cls: 'SecretVersionSkewError',
      code: 'write.secret-version',
      message: "dq_integration.pg: the code's password is at version 2, the plan's at 3: plan again",
    });
    expect(calls).toEqual([]);
    expect(SecretVersionSkewError.code).toBe('write.secret-version');
  });

  it('a create at an id dqform did not derive: AssignedIdError (write.assigned-id)', async () => {
    const { client } = fakeClient();
    expect(shape(await thrown(() => h.create(client, change('create', h.fromDesired(desired(2)), { id: 'p-1' }), ctx)))).toEqual({
      cls: 'AssignedIdError',
      code: 'write.assigned-id',
      message: 'dq_integration.pg: no integration "p-1" exists to write, and the platform assigns integration ids: drop the pinned id to create a new integration',
    });
    expect(new AssignedIdError('x')).toBeInstanceOf(DqformError);
  });

  it('an update of an integration deleted since the plan: GoneSincePlanError (write.gone), with what to do', async () => {
    const { client } = fakeClient({ 'integrations.batchGet': {} });
    expect(shape(await thrown(() => h.update(client, change('update', h.fromDesired(desired(2)), { id: 'ui-3' }), ctx)))).toEqual({
      cls: 'GoneSincePlanError',
      code: 'write.gone',
      message: 'dq_integration.pg: integration ui-3 is gone (deleted since the plan)',
      hint: 'Run dqform plan again: it shows what is there now.',
    });
    expect(codeFamily(GoneSincePlanError.code)).toBe('write');
  });

  it('a replace of an adopted integration: ReplaceRefusedError (write.replace-refused), before any call', async () => {
    const { client, calls } = fakeClient();
    expect(shape(await thrown(() => h.delete(client, change('replace', h.fromDesired(desired(2)), { id: 'ui-9' }), ctx)))).toEqual({
      cls: 'ReplaceRefusedError',
      code: 'write.replace-refused',
      message:
        'dq_integration.pg: integration ui-9 was adopted with an import block (its title carries no dqform id), so a new one cannot take its place: delete it in the platform and drop the import block (and pinned id) so that dqform creates its own',
    });
    expect(calls).toEqual([]);
    expect(ReplaceRefusedError.code).toBe('write.replace-refused');
  });
});

describe('a plan edited by hand and given to the library', () => {
  const ch = (address: string, action: Change['action'], after: unknown, dependsOn: string[] = []): Change => ({
    address,
    type: 'dq_owner',
    action,
    id: address,
    before: null,
    after,
    patch: [],
    sensitive: [],
    dependsOn,
  });

  it('a dependency cycle: DependencyCycleError (plan-refused.cycle, shown by the CLI), naming the address', async () => {
    const e = await thrown(() => executionWaves([ch('dq_owner.a', 'create', {}, ['dq_owner.b']), ch('dq_owner.b', 'create', {}, ['dq_owner.a'])]));
    expect(shape(e)).toEqual({
      cls: 'DependencyCycleError',
      code: 'plan-refused.cycle',
      message: 'dependency cycle through dq_owner.a',
      hint: 'Make the plan again with dqform plan; do not edit a plan by hand.',
    });
    expect(e).toBeInstanceOf(DependencyCycleError);
  });

  it('a create without a desired value: MissingAfterError (write.missing-after)', async () => {
    expect(shape(await thrown(() => afterOf(ch('dq_owner.o', 'create', null))))).toEqual({
      cls: 'MissingAfterError',
      code: 'write.missing-after',
      message: 'dq_owner.o: create without a desired value (after)',
      hint: 'Make the plan again with dqform plan; do not edit a plan by hand.',
    });
    expect(MissingAfterError.code).toBe('write.missing-after');
  });
});

describe('the command line and the client', () => {
  it.each([
    ['dq_alert', '"dq_alert" is not a resource address: write TYPE.NAME (dq_alert.orders), or TYPE["KEY"] (dq_alert["shop.retired"]) for an object the code does not declare'],
    ['dq_alrt.x', `"dq_alrt.x": dq_alrt is not a dqform resource type; did you mean dq_alert? (types: ${RESOURCE_TYPES.join(', ')})`],
    ['dq_alert[""]', '"dq_alert[""]": the key in brackets is empty'],
    ['dq_alert["\\x"]', '"dq_alert["\\x"]": the key in brackets is not a valid quoted string'],
  ])('%s is not an address: AddressError (usage.address, the usage family the CLI shows)', async (text, message) => {
    const e = await thrown(() => canonicalAddress(text));
    expect(shape(e)).toEqual({ cls: 'AddressError', code: 'usage.address', message });
    expect(codeFamily((e as AddressError).code)).toBe('usage');
  });

  it('the CLI makes only an AddressError a usage error naming the flag; any other error stays what it is (a bug, not a usage mistake)', async () => {
    const e = await thrown(() => addresses('--target')('dq_alert', undefined));
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).message).toBe(
      '--target "dq_alert" is not a resource address: write TYPE.NAME (dq_alert.orders), or TYPE["KEY"] (dq_alert["shop.retired"]) for an object the code does not declare',
    );
    const bug = new TypeError('cannot read x of undefined');
    const modes = jest.spyOn(lazy, 'modes').mockReturnValue({
      canonicalAddress: () => {
        throw bug;
      },
    } as unknown as ReturnType<typeof lazy.modes>);
    try {
      expect(await thrown(() => addresses('--target')('dq_alert.a', undefined))).toBe(bug);
    } finally {
      modes.mockRestore();
    }
  });

  it('DQ_PREVIEW_TRANSPORT=grpc without gRPC: PreviewNeedsGrpcError (preview-unavailable.needs-grpc), nothing asked', async () => {
    const asked: string[] = [];
    const http = { previewTransport: 'grpc', grpcUnavailable: 'this stack sets no grpcEndpoint' } as unknown as DqClient;
    const ask = { rest: async () => asked.push('rest'), grpc: async () => asked.push('grpc') };
    expect(shape(await thrown(() => preview(http, ask)))).toEqual({
      cls: 'PreviewNeedsGrpcError',
      code: 'preview-unavailable.needs-grpc',
      message: 'the preview needs gRPC (DQ_PREVIEW_TRANSPORT=grpc), and this stack sets no grpcEndpoint',
    });
    expect(asked).toEqual([]);
    expect(PreviewNeedsGrpcError.code).toBe('preview-unavailable.needs-grpc');
  });
});
