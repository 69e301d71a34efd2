/**
 * Bench child: `dqform plan` over `--dir DIR` through the CLI's `main`, as a user's process
 * would run it. Env DQ_BASE_URL / DQ_CLIENT_ID / DQ_CLIENT_SECRET. Prints one JSON
 * line on stdout: `{ code, inProcessMs, maxRssMb, outBytes, summary }` (the CLI's own output is counted, not printed).
 */
const t0 = process.hrtime.bigint();
import { main } from '../../src/cli/main';

async function run(): Promise<void> {
  const dir = process.argv[2];
  const outFile = process.argv[3];
  let outBytes = 0;
  let lastLine = '';
  const args = ['plan', '--dir', dir, '--detailed-exitcode'];
  if (outFile) args.push('--out', outFile);
  const code = await main(args, {
    out: (s) => {
      outBytes += s.length + 1;
      lastLine = s.split('\n').filter((l) => l.trim()).pop() ?? lastLine;
    },
    err: () => undefined,
    env: process.env,
    cwd: process.cwd(),
    isTty: false,
  });
  const inProcessMs = Number(process.hrtime.bigint() - t0) / 1e6;
  process.stdout.write(`${JSON.stringify({ code, inProcessMs, maxRssMb: process.resourceUsage().maxRSS / 1024, outBytes, summary: lastLine })}\n`);
}
void run();
