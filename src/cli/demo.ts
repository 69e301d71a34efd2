/**
 * `npm run demo`: no account, no setup. Starts the emulator on free ports (REST and gRPC),
 * synthesises examples/quickstart, prints the plan (with what each rule would do downstream),
 * applies it, plans again (no changes), stops the emulator.
 *
 * `DQFORM_DEMO_USE_BASE_URL=1` runs the same steps against `DQ_BASE_URL` (and DQ_GRPC_ENDPOINT,
 * if set) instead: an emulator started elsewhere, or a checking proxy such as wire-check in front
 * of one; as demo-admin unless DQ_CLIENT_ID / DQ_CLIENT_SECRET say otherwise. Never set it for a
 * real platform: the demo applies examples/quickstart.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startEmulator } from '../emulator';
import { main } from './main';
import { ConfigError } from '../client/config';

async function run(): Promise<number> {
  const root = path.resolve(__dirname, '..', '..');
  const example = path.join(root, 'examples', 'quickstart');
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-demo-'));
  const external = process.env.DQFORM_DEMO_USE_BASE_URL === '1' ? process.env.DQ_BASE_URL : undefined;
  if (process.env.DQFORM_DEMO_USE_BASE_URL === '1' && !external) throw new ConfigError('DQFORM_DEMO_USE_BASE_URL=1 needs DQ_BASE_URL', ['DQ_BASE_URL']);
  const emu = external ? { url: external, grpcEndpoint: process.env.DQ_GRPC_ENDPOINT, close: async () => undefined } : await startEmulator({ port: 0, seed: 'demo' });
  // The rule previews REST cannot carry (per-metric sensitivities, SQL-test rules' tests) go to
  // the emulator's gRPC port.
  const env = {
    ...process.env,
    DQ_BASE_URL: emu.url,
    DQ_GRPC_ENDPOINT: emu.grpcEndpoint,
    DQ_CLIENT_ID: external ? (process.env.DQ_CLIENT_ID ?? 'demo-admin') : 'demo-admin',
    DQ_CLIENT_SECRET: external ? (process.env.DQ_CLIENT_SECRET ?? 'demo-secret') : 'demo-secret',
    CHECKPOINT_DISABLE: '1',
  };
  const step = (s: string) => process.stdout.write(`\n=== ${s}\n`);
  const io = { env, cwd: example, isTty: false };
  try {
    process.stdout.write(
      external ? `Using ${emu.url} (DQFORM_DEMO_USE_BASE_URL=1)\n` : `Emulator running at ${emu.url}, gRPC previews at ${emu.grpcEndpoint} (acting as demo-admin)\n`,
    );
    step('dqform synth (examples/quickstart)');
    // synth takes no credentials (the app could read them): it runs without them
    const { DQ_CLIENT_ID: _id, DQ_CLIENT_SECRET: _secret, ...synthEnv } = env;
    let code = await main(['synth', '--out', out], { ...io, env: synthEnv });
    if (code !== 0) return code;
    step('dqform plan');
    code = await main(['plan', '--dir', out, '--out', path.join(out, 'plan.json')], io);
    if (code !== 0) return code;
    step('dqform apply plan.json');
    // apply checks the saved plan against the desired state it was made from: the same --dir
    code = await main(['apply', path.join(out, 'plan.json'), '--dir', out], io);
    if (code !== 0) return code;
    step('dqform plan (again: nothing to do)');
    code = await main(['plan', '--dir', out, '--detailed-exitcode'], io);
    if (code !== 0) {
      process.stderr.write('The second plan was not empty: this is a bug in dqform.\n');
      return 1;
    }
    process.stdout.write('\nDemo complete: planned, applied, and converged.\n');
    return 0;
  } finally {
    await emu.close();
    fs.rmSync(out, { recursive: true, force: true });
  }
}

run().then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`demo failed: ${(e as Error).message}\n`);
    process.exitCode = 1;
  },
);
