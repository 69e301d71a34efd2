import { DqClient, DqClientOptions } from '../../../src/client';
import { CLIENT_ID, CLIENT_SECRET, TestServer } from './server';

/** A client for `server` whose retries record their delays instead of sleeping. */
export function makeClient(server: TestServer, extra: Partial<DqClientOptions> = {}) {
  const sleeps: number[] = [];
  const logs: string[] = [];
  const client = new DqClient({
    baseUrl: server.url,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    onLog: (l) => logs.push(l),
    ...extra,
    retry: {
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      random: () => 0.5,
      ...extra.retry,
    },
  });
  return { client, sleeps, logs };
}
