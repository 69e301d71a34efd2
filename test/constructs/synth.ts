/** Test helpers: synthesise an app in-process into a temp dir and read the stack JSON back. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App } from 'cdktf';

process.env.CHECKPOINT_DISABLE = '1';

/** A fresh app writing into a new temp directory. */
export function newApp(): { app: App; outdir: string } {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'dq-synth-'));
  return { app: new App({ outdir }), outdir };
}

/** Synthesises `app` and returns the text and parsed JSON of stack `stack`, then removes the outdir. */
export function synthStack(app: App, outdir: string, stack: string): { text: string; json: TfJson } {
  try {
    app.synth();
    const text = fs.readFileSync(path.join(outdir, 'stacks', stack, 'cdk.tf.json'), 'utf8');
    return { text, json: JSON.parse(text) as TfJson };
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

/** Builds with `build` and synthesises stack `stack`. */
export function synth(build: (app: App) => unknown, stack: string): { text: string; json: TfJson } {
  const { app, outdir } = newApp();
  build(app);
  return synthStack(app, outdir, stack);
}

/** The part of Terraform JSON the tests look at. */
export interface TfJson {
  resource: Record<string, Record<string, Record<string, unknown>>>;
  provider: Record<string, unknown[]>;
  terraform: Record<string, unknown>;
  removed?: unknown[];
  moved?: unknown[];
  import?: unknown[];
  [k: string]: unknown;
}

/** The error thrown by `app.synth()` (its message), or undefined when synth succeeds. */
export function synthError(build: (app: App) => unknown): string | undefined {
  const { app, outdir } = newApp();
  try {
    build(app);
    app.synth();
    return undefined;
  } catch (err) {
    return (err as Error).message;
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}
