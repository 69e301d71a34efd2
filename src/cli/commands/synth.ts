/**
 * `dqform synth`: runs the CDKTF app (the only command that runs user code) and writes cdktf.out.
 */
import * as path from 'node:path';
import type { Command } from 'commander';
import type { CommandContext, CommandModule, Io } from '../command';
import { lazy } from '../lazy';
import { credentialVariables } from '../credential-variables';

export interface SynthOptions {
  app?: string;
  out?: string;
  /** --allow-secret-env: synthesise in CI although a credential variable is set. */
  allowSecretEnv?: boolean;
}

async function run({ io }: CommandContext, o: SynthOptions): Promise<number> {
  const { shown } = lazy.runtime();
  let cmd = o.app;
  let appDir = io.cwd;
  let out = o.out ? path.resolve(io.cwd, o.out) : undefined;
  if (!cmd) {
    const app = lazy.synth().readCdktfApp(io.cwd);
    if (!app) {
      io.err('Error: no cdktf.json here and no --app given\n  Run dqform synth in your app directory, or pass --app "npx tsx main.ts".');
      return 1;
    }
    if (!app.app) {
      io.err('Error: cdktf.json has no "app"\n  Add "app": "npx tsx main.ts" to cdktf.json.');
      return 1;
    }
    cmd = app.app;
    appDir = app.dir;
    out ??= app.output;
  }
  out ??= path.resolve(io.cwd, 'cdktf.out');
  if (!secretEnvAllowed(io, !!o.allowSecretEnv)) return 1;
  const r = lazy.synth().runApp(cmd, appDir, out, io.env, (text) => io.out(text));
  if (!r.ok) {
    for (const l of r.lines) io.err(r.ran ? l : `Error: ${l}\n  Check the "app" command in cdktf.json (or --app).`);
    return 1;
  }
  // cdktf leaves the directories of stacks the app no longer has: remove them, so that none is
  // planned (manifest.json, which cdktf rewrites, is the list; see listedStacks)
  const gone = lazy.synth().removeLeftoverStacks(out);
  if (gone.length) io.err(`Removed from ${shown(io, out)} the stack(s) the app no longer has: ${gone.join(', ')}.`);
  const misnamed = lazy.synth().misnamedSecretStacks(out);
  if (misnamed.length) {
    // the name is not echoed: a value in its place may be the secret itself
    io.err(
      `Error: stack(s) ${misnamed.join(', ')}: credentialsFrom.clientSecret must name a variable ending in _CLIENT_SECRET, e.g. DQ_PROD_CLIENT_SECRET: dqform withholds only such variables from the app, refuses them in a CI synth and masks them in output.\n  Rename the variable (and where your CI sets it), then run dqform synth again.`,
    );
    return 1;
  }
  io.out(`Synthesised to ${shown(io, out)}`);
  return 0;
}

/**
 * synth runs user code, which can read this process's environment (and its parent's, through
 * /proc): a credential there reaches the app. With `CI` set that is refused unless
 * --allow-secret-env; elsewhere it is a warning. Returns false when refused (reported).
 */
function secretEnvAllowed(io: Io, allowed: boolean): boolean {
  const names = credentialVariables(io.env);
  if (names.length === 0) return true;
  const ci = (io.env.CI ?? '').trim();
  const inCi = ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
  const what = `${names.join(', ')} ${names.length > 1 ? 'are' : 'is'} set, and synth runs the app, which can read ${names.length > 1 ? 'them' : 'it'} from this environment or its parent's`;
  if (inCi && !allowed) {
    io.err(`Error: ${what}: refused in CI.\n  Run dqform synth in a step without credentials (they belong to plan, apply, drift and destroy only), or pass --allow-secret-env if you trust the app's code.`);
    return false;
  }
  io.err(`Warning: ${what}. dqform synth needs no credentials: unset ${names.length > 1 ? 'them' : 'it'} before running the app.`);
  return true;
}

function define(program: Command): Command {
  return program
    .command('synth')
    .description('run the CDKTF app (cdktf.json "app", or --app CMD) and write cdktf.out')
    .option('--app <CMD>', 'the command that runs the app (default: "app" of ./cdktf.json)')
    .option('--out <DIR>', 'output directory (default cdktf.out)')
    .option('--allow-secret-env', 'run the app in CI although DQ_CLIENT_SECRET (or another *_CLIENT_SECRET) is set; the app can read it')
    .addHelpText(
      'after',
      '\nRuns the CDKTF app and writes Terraform JSON to cdktf.out/stacks/<stack>/cdk.tf.json. It takes no\ncredentials: run it without DQ_CLIENT_SECRET (a warning otherwise; refused with CI set unless\n--allow-secret-env). plan, apply, drift and destroy never run the app.\nExample: dqform synth --app "npx tsx main.ts"',
    );
}

export const command: CommandModule = { define, run };
