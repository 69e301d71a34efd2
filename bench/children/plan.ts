/**
 * Bench child: `dqform plan --dir DIR --detailed-exitcode [--out OUT]` as a user's process runs
 * it. Usage: `node plan.js DIR [OUT]`; env DQ_BASE_URL / DQ_CLIENT_ID / DQ_CLIENT_SECRET, and
 * `DQFORM_BENCH_CLI`: the dqform to run (a compiled build, bench/tsconfig.json), by default the
 * build this file is in.
 *
 * - `bundle`: the build has the installed layout (bin/dqform.js, and the CLI's bundle in
 *   dist/bundle: bench/startup.ts `installLayout`): this child sets `process.argv` and requires
 *   bin/dqform.js, which runs exactly as `dqform plan` does (src/cli/v8-start.ts: the bundle's V8
 *   code cache and the interrupt budget, then the bundle). Its stdout is counted, not printed.
 * - `compiled`: no bundle (an older build): the compiled tree's src/cli/main, called with an io
 *   that counts its output, as before issue 27's bundle; no code cache, no V8 flag.
 *
 * Prints one JSON line on stdout at exit: `{ code, cli, inProcessMs, maxRssMb, outBytes, summary }`
 * (`cli`: which of the two ran; `inProcessMs`: from this file's first statement to the exit).
 * Loads only node's built-ins itself: bench/ab.ts runs this one file against builds of any age.
 */
const t0 = process.hrtime.bigint();
import * as fs from 'node:fs';
import * as path from 'node:path';

/** How a build's dqform is run: its bin and bundle, or its compiled tree's `main`. */
export type CliOf = { mode: 'bundle'; bin: string } | { mode: 'compiled'; main: string };

/** The bundle mode when `root` has bin/dqform.js and dist/bundle/dqform.js, else the compiled tree. */
export function cliOf(root: string): CliOf {
  const bin = path.join(root, 'bin', 'dqform.js');
  if (fs.existsSync(bin) && fs.existsSync(path.join(root, 'dist', 'bundle', 'dqform.js'))) return { mode: 'bundle', bin };
  return { mode: 'compiled', main: path.join(root, 'src', 'cli', 'main.js') };
}

/**
 * Empties the resolution cache in `dir` (`DQFORM_CACHE_DIR`: its entries sit at the top) and
 * keeps the V8 code cache (its `v8/` folder): a cold plan row resolves again, with a warm code
 * cache, as a user's next plan after a change does.
 */
export function emptyResolutionCache(dir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) if (n !== 'v8') fs.rmSync(path.join(dir, n), { recursive: true, force: true });
}

/** Counts what the CLI prints: bytes, and its last non-blank line (the plan's summary). */
export class OutputCount {
  bytes = 0;
  lastLine = '';

  add(chunk: string): void {
    this.bytes += chunk.length;
    const lines = chunk.split('\n');
    for (let i = lines.length - 1; i >= 0; i--) {
      if (lines[i].trim()) {
        this.lastLine = lines[i];
        return;
      }
    }
  }
}

function run(): void {
  const dir = process.argv[2];
  const outFile = process.argv[3];
  const root = path.resolve(process.env.DQFORM_BENCH_CLI || path.join(__dirname, '..', '..'));
  const args = ['plan', '--dir', dir, '--detailed-exitcode'];
  if (outFile) args.push('--out', outFile);
  const cli = cliOf(root);
  const out = new OutputCount();
  let code: number | undefined;
  process.once('exit', (exitCode) => {
    const inProcessMs = Number(process.hrtime.bigint() - t0) / 1e6;
    const line = { code: code ?? exitCode, cli: cli.mode, inProcessMs, maxRssMb: process.resourceUsage().maxRSS / 1024, outBytes: out.bytes, summary: out.lastLine };
    fs.writeSync(1, `${JSON.stringify(line)}\n`);
  });
  if (cli.mode === 'bundle') {
    // what the CLI writes to stdout is counted, as the compiled mode's io does
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      out.add(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      const cb = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      if (cb) process.nextTick(cb);
      return true;
    }) as typeof process.stdout.write;
    process.argv = [process.argv[0], cli.bin, ...args];
    require(cli.bin);
    return;
  }
  const { main } = require(cli.main) as { main: (argv: string[], io: Record<string, unknown>) => Promise<number> };
  void main(args, {
    out: (s: string) => out.add(`${s}\n`),
    err: () => undefined,
    env: process.env,
    cwd: process.cwd(),
    isTty: false,
  }).then((c) => {
    code = c;
  });
}

if (require.main === module) run();
