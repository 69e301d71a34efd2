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

/**
 * A fresh TestServer for each test of the calling file, and the clients made for it (closed after
 * each test): `const t = serverPerTest();` then `t.server` and `t.client(extra)` inside tests.
 */
export function serverPerTest(): { readonly server: TestServer; client: (extra?: Partial<DqClientOptions>) => ReturnType<typeof makeClient>; track: (c: DqClient) => DqClient } {
  let server: TestServer | undefined;
  let clients: DqClient[] = [];
  beforeEach(async () => {
    server = await new TestServer().start();
    clients = [];
  });
  afterEach(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await server?.stop();
  });
  return {
    get server(): TestServer {
      if (!server) throw new Error('serverPerTest: use the server inside a test');
      return server;
    },
    client(extra = {}) {
      const made = makeClient(this.server, extra);
      clients.push(made.client);
      return made;
    },
    /** Closes a client made by hand after the test, like the ones `client()` makes. */
    track(c) {
      clients.push(c);
      return c;
    },
  };
}
