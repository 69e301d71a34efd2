/**
 * `auto` previews of a rule REST surely refuses (src/client/services/previews.ts `restRefuses`,
 * issue 27): asked over gRPC at once, REST's refusal made only when a failed gRPC preview needs
 * it for its message, which is the one the REST-first path gives; with a log sink, REST first as
 * before (its refusal is the log line).
 */
import { SqlTestDeploymentRuleWrite, SqlTestOverviewRequest } from '../../schemas/platform/sql-tests';
import { PlatformClient, PreviewUnavailableError } from '../../src/client';
import type { DqClient } from '../../src/client/http';
import { overviewQuery } from '../../src/client/services/overview-query';
import { parseRule, preview, type PreviewAsk } from '../../src/client/services/previews';

const sqlRule = { id: '6c1d8a4f-0b2e-4f3c-9d70-1e2f3a4b5c6d', title: 'Dims', staticConfig: { path: 'wh::mart::t', recurrenceRule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY', tests: [{ name: 'ids', notNullTest: { columnNames: ['id'] } }] }, source: 'SOURCE_API', configId: 'ns' };

/** What `preview` reads of a client. */
function fakeHttp(opts: { logs?: string[]; mode?: 'auto' | 'rest' | 'grpc' } = {}): DqClient {
  return { previewTransport: opts.mode ?? 'auto', grpcUnavailable: undefined, logs: opts.logs !== undefined, log: (l: string) => opts.logs?.push(l) } as unknown as DqClient;
}

/** An ask whose REST side refuses as overviewQuery does, counting each side's calls. */
function ask(grpc: () => Promise<string>, restRefuses?: () => boolean): PreviewAsk<string> & { calls: { rest: number; grpc: number } } {
  const calls = { rest: 0, grpc: 0 };
  return {
    calls,
    rest: async () => {
      calls.rest++;
      throw new PreviewUnavailableError('/overview', 'deploymentRule.staticConfig.tests', 'is a repeated message, which has no query-string form');
    },
    grpc: () => {
      calls.grpc++;
      return grpc();
    },
    restRefuses,
  };
}

it('a rule REST surely refuses goes to gRPC without building its REST request', async () => {
  const a = ask(async () => 'over gRPC', () => true);
  await expect(preview(fakeHttp(), a)).resolves.toBe('over gRPC');
  expect(a.calls).toEqual({ rest: 0, grpc: 1 });
});

it('a failed gRPC preview says REST\'s refusal and the gRPC failure, as the REST-first path says them', async () => {
  const failing = async (): Promise<string> => {
    throw new Error('GRPC /p: UNAVAILABLE');
  };
  const fast = ask(failing, () => true);
  const slow = ask(failing);
  const e1 = await preview(fakeHttp(), fast).then(() => undefined, (e: unknown) => e);
  const e2 = await preview(fakeHttp(), slow).then(() => undefined, (e: unknown) => e);
  expect(e1).toBeInstanceOf(PreviewUnavailableError);
  expect((e1 as Error).message).toBe((e2 as Error).message);
  expect((e1 as Error).message).toMatch(/tests is a repeated message.*, and the gRPC preview failed: GRPC \/p: UNAVAILABLE$/);
  expect((e1 as { cause?: Error }).cause?.message).toBe('GRPC /p: UNAVAILABLE');
  expect(fast.calls).toEqual({ rest: 1, grpc: 1 });
});

it('with a log sink, REST is asked first (its refusal is the log line); in `rest` mode, REST only', async () => {
  const logs: string[] = [];
  const a = ask(async () => 'over gRPC', () => true);
  await expect(preview(fakeHttp({ logs }), a)).resolves.toBe('over gRPC');
  expect(a.calls).toEqual({ rest: 1, grpc: 1 });
  expect(logs).toEqual(['cannot be previewed over REST: deploymentRule.staticConfig.tests is a repeated message, which has no query-string form: asking over gRPC']);
  const r = ask(async () => 'over gRPC', () => true);
  await expect(preview(fakeHttp({ mode: 'rest' }), r)).rejects.toThrow(/gRPC previews are off/);
  expect(r.calls).toEqual({ rest: 1, grpc: 0 });
});

it('the SQL-test rule service says REST refuses a rule with tests, and REST does refuse it', async () => {
  const canonical = parseRule(SqlTestDeploymentRuleWrite, sqlRule) as Record<string, unknown>;
  expect(() => overviewQuery(SqlTestOverviewRequest, 'deploymentRule', canonical, '/o')).toThrow(PreviewUnavailableError);
  // nothing listens on port 9 of loopback: the gRPC preview fails; its message names REST's refusal
  const c = PlatformClient.create({ baseUrl: 'http://127.0.0.1:9', clientId: 'x', clientSecret: 'y-secret' }, { retry: { maxAttempts: 1 }, grpc: { endpoint: 'http://127.0.0.1:9' } });
  try {
    const e = await c.sqlTestRules.overview(sqlRule as never).then(() => undefined, (x: unknown) => x);
    expect(e).toBeInstanceOf(PreviewUnavailableError);
    expect((e as Error).message).toMatch(/^cannot be previewed over REST: deploymentRule\.staticConfig\.tests is a repeated message.*, and the gRPC preview failed: /);
  } finally {
    await c.close();
  }
});
