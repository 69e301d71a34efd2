/**
 * Applying a saved plan loads what applying needs: the applier and the plan file's reader load no
 * planner phase, no manifest loading and no resolution (issue 24: the apply's start-up). Checked
 * in a fresh node process (jest's module registry would hide what node loaded).
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

it('the applier and the plan file reader load no planner, resolution or manifest loading', () => {
  const script = `
require(${JSON.stringify(path.join(ROOT, 'src/engine/applier.ts'))});
require(${JSON.stringify(path.join(ROOT, 'src/plan/file.ts'))});
const root = ${JSON.stringify(ROOT + path.sep)};
process.stdout.write(JSON.stringify(Object.keys(require.cache).filter((k) => k.startsWith(root) && !k.includes('node_modules')).map((k) => k.slice(root.length).split(path.sep).join('/'))));`;
  const out = execFileSync(process.execPath, ['--require', require.resolve('tsx/cjs'), '-e', script], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' }, timeout: 60_000 });
  const loaded = JSON.parse(out) as string[];
  expect(loaded).toContain('src/engine/live-state.ts');
  const planning = loaded.filter((f) => /^src\/engine\/(planner|reconcile|resolve|manifest|renamed|modes|unknown-fields)\.ts$|^src\/engine\/phases\/(?!cascades\.ts)|^src\/kinds\/validation/.test(f));
  expect(planning).toEqual([]);
}, 120_000);
