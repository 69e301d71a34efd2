/**
 * Two platforms for test/lifecycle/platforms.test.ts: in-process emulators, each knowing only its
 * own credential (so a stack planned with the other platform's credential, or against the other
 * platform, fails), their whole state in harness.ts's shape, and an app's synth output written
 * as cdktf writes it (`manifest.json` listing the stacks, `stacks/<name>/cdk.tf.json`).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SCOPES } from '../../schemas/platform/common';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { dqform, type Run } from '../cli/helpers';
import type { EmulatorState } from './harness';

/** One platform: an emulator and the one credential dqform is given for it. */
export interface Platform {
  emu: RunningEmulator;
  /** `127.0.0.1:<port>`: how plans name it. */
  host: string;
  clientId: string;
  clientSecret: string;
  /** The whole state now (what `GET /__emulator/state` gives). */
  state(): EmulatorState;
}

/** Starts an emulator (demo seed) with a credential of every scope bound to workspace "demo". */
export async function startPlatform(clientId: string, clientSecret: string): Promise<Platform> {
  const emu = await startEmulator({ port: 0, seed: 'demo' });
  emu.app.addCredential(clientId, clientSecret, SCOPES, 'demo');
  return {
    emu,
    host: new URL(emu.url).host,
    clientId,
    clientSecret,
    state: () => JSON.parse(emu.app.store.serialize({ seed: emu.app.seed, seedSize: emu.app.seedSize })) as EmulatorState,
  };
}

/** A temp app directory holding `cdktf.out` as cdktf writes it. */
export class App {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-platforms-'));

  /** Writes the synth output: each stack's cdk.tf.json, and manifest.json listing exactly `stacks`. */
  synth(stacks: Record<string, Record<string, unknown>>): void {
    const out = this.path('cdktf.out');
    fs.mkdirSync(path.join(out, 'stacks'), { recursive: true });
    const listed: Record<string, unknown> = {};
    for (const [name, doc] of Object.entries(stacks)) {
      fs.mkdirSync(path.join(out, 'stacks', name), { recursive: true });
      fs.writeFileSync(path.join(out, 'stacks', name, 'cdk.tf.json'), JSON.stringify(doc, null, 2));
      listed[name] = { name, constructPath: name, synthesizedStackPath: `stacks/${name}/cdk.tf.json`, workingDirectory: `stacks/${name}`, annotations: [], dependencies: [] };
    }
    fs.writeFileSync(path.join(out, 'manifest.json'), JSON.stringify({ version: '0.21.0', stacks: listed }, null, 2));
  }

  /** Spawns `dqform ...args` here with exactly `env` (plus PATH/HOME). */
  run(args: string[], env: Record<string, string | undefined>): Promise<Run> {
    return dqform(args, { cwd: this.dir, env: { NO_COLOR: '1', ...env }, timeoutMs: 90_000 });
  }

  path(...p: string[]): string {
    return path.join(this.dir, ...p);
  }

  read(...p: string[]): string {
    return fs.readFileSync(this.path(...p), 'utf8');
  }

  remove(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A stack's Terraform JSON: its provider block (namespace, platform, credential variables) and resources. */
export function stackDoc(provider: Record<string, unknown>, resource: Record<string, unknown>): Record<string, unknown> {
  return { provider: { dq: [provider] }, resource };
}
