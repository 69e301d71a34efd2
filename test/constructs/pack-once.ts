/**
 * `npm pack` of this repository, one at a time. The prepack build empties and rewrites dist/, so
 * two suites packing at once (test/constructs/pack.test.ts and test/docs/tutorial-e2e.test.ts run
 * in parallel workers) would pack each other's half-written dist/. A lock directory (mkdir is
 * atomic) serialises them; a lock left by a killed run is taken over after 10 minutes.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');
const LOCK = path.join(os.tmpdir(), `dqform-pack-${createHash('sha256').update(ROOT).digest('hex').slice(0, 12)}.lock`);
const STALE_MS = 10 * 60_000;

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function lock(timeoutMs: number): void {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      try {
        if (Date.now() - fs.statSync(LOCK).mtimeMs > STALE_MS) fs.rmSync(LOCK, { recursive: true, force: true });
      } catch {
        // gone meanwhile: try again
      }
      if (Date.now() > until) throw new Error(`npm pack: another test held ${LOCK} for ${timeoutMs / 1000}s`);
      sleep(250);
    }
  }
}

/** Packs the repository into `dest` (its prepack builds dist/); returns the tarball's path and its file list. */
export function packRepository(dest: string, env: NodeJS.ProcessEnv = process.env): { tarball: string; files: string[] } {
  lock(300_000);
  try {
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dest], { cwd: ROOT, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    // prepack's build prints to stdout before the JSON
    const [packed] = JSON.parse(out.slice(out.indexOf('[\n'))) as { filename: string; files: { path: string }[] }[];
    return { tarball: path.join(dest, packed.filename), files: packed.files.map((f) => f.path).sort() };
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}
