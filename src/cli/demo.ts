/**
 * `npm run demo`: no account, no setup. Starts the emulator on free ports (REST and gRPC),
 * synthesises examples/quickstart, prints the plan (with what each rule would do downstream),
 * applies it, plans again (no changes), stops the emulator.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startEmulator } from '../emulator';
import { main } from './main';

async function run(): Promise<number> {
  const root = path.resolve(__dirname, '..', '..');
  const example = path.join(root, 'examples', 'quickstart');
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-demo-'));
  const emu = await startEmulator({ port: 0, seed: 'demo' });
  // The rule previews REST cannot carry (per-metric sensitivities, SQL-test rules' tests) go to
  // the emulator's gRPC port.
  const env = { ...process.env, DQ_BASE_URL: emu.url, DQ_GRPC_ENDPOINT: emu.grpcEndpoint, DQ_CLIENT_ID: 'demo-admin', DQ_CLIENT_SECRET: 'demo-secret', CHECKPOINT_DISABLE: '1' };
  const step = (s: string) => process.stdout.write(`\n=== ${s}\n`);
  const io = { env, cwd: example, isTty: false };
  try {
    process.stdout.write(`Emulator running at ${emu.url}, gRPC previews at ${emu.grpcEndpoint} (acting as demo-admin)\n`);
    step('dqform synth (examples/quickstart)');
    let code = await main(['synth', '--out', out], io);
    if (code !== 0) return code;
    step('dqform plan');
    code = await main(['plan', '--dir', out, '--out', path.join(out, 'plan.json')], io);
    if (code !== 0) return code;
    step('dqform apply plan.json');
    code = await main(['apply', path.join(out, 'plan.json')], io);
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
