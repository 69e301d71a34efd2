/**
 * A recording stand-in for PlatformClient, for the handlers' unit tests: every
 * `client.<service>.<method>(...args)` is recorded as `{ op: 'service.method', args }` and
 * answered by `answers[op]` (a value, or a function of the arguments; an Error is thrown), or
 * `undefined`. No server: the handler tests against the emulator are lifecycle.test.ts.
 */
import type { PlatformClient } from '../../src/client';

export interface Call {
  op: string;
  args: unknown[];
}

export type Answer = unknown | ((...args: unknown[]) => unknown);

export function fakeClient(answers: Record<string, Answer> = {}): { client: PlatformClient; calls: Call[] } {
  const calls: Call[] = [];
  const service = (name: string) =>
    new Proxy(
      {},
      {
        get: (_t, method) => {
          if (typeof method !== 'string' || method === 'then') return undefined;
          return async (...args: unknown[]) => {
            const op = `${name}.${method}`;
            calls.push({ op, args: JSON.parse(JSON.stringify(args ?? [])) as unknown[] });
            const a = answers[op];
            const v = typeof a === 'function' ? await (a as (...x: unknown[]) => unknown)(...args) : a;
            if (v instanceof Error) throw v;
            return v;
          };
        },
      },
    );
  const client = new Proxy({}, { get: (_t, name) => (typeof name === 'string' && name !== 'then' ? service(name) : undefined) }) as unknown as PlatformClient;
  return { client, calls };
}
