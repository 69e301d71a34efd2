/**
 * A non-loopback `http://` base URL is refused before anything is sent (the client secret would
 * cross the network in plain text), unless DQ_ALLOW_INSECURE=1. Through the CLI, in-process:
 * exit 1, the variable named, the secret never printed.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../src/cli/main';

const SECRET = 'insecure-url-S3cret';

async function run(args: string[], env: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-insecure-'));
  try {
    const stack = path.join(dir, 'cdktf.out', 'stacks', 'shop');
    fs.mkdirSync(stack, { recursive: true });
    fs.writeFileSync(path.join(stack, 'cdk.tf.json'), JSON.stringify({ provider: { dq: [{ namespace: 'shop' }] }, resource: { dq_owner: { team: { title: 'Team' } } } }));
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(args, { out: (s) => out.push(s), err: (s) => err.push(s), env: { DQ_CLIENT_ID: 'someone', DQ_CLIENT_SECRET: SECRET, ...env }, cwd: dir, isTty: false });
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

it.each([['plan'], ['drift'], ['apply', '--auto-approve']])('%s against http://<a real host>: exit 1 naming DQ_BASE_URL and DQ_ALLOW_INSECURE, before any request', async (...args) => {
  // 192.0.2.1 is TEST-NET-1: nothing answers there, so a request would hang or fail differently
  const r = await run(args, { DQ_BASE_URL: 'http://192.0.2.1:8787' });
  expect(r.code).toBe(1);
  expect(r.err).toMatch(/DQ_BASE_URL http:\/\/192\.0\.2\.1:8787 is plain http to a host that is not this machine/);
  expect(r.err).toMatch(/DQ_ALLOW_INSECURE=1/);
  expect(r.err + r.out).not.toContain(SECRET);
});
