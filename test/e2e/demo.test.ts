/**
 * `npm run demo` on this checkout: emulator, synth of examples/quickstart, plan, apply, empty plan.
 *
 * @gateway
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

it('npm run demo plans, applies and converges', () => {
  const root = path.resolve(__dirname, '..', '..');
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'src/cli/demo.ts'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
    // CI set: the demo synthesises without credentials, so synth neither refuses nor warns (issue 23)
    env: { ...process.env, CHECKPOINT_DISABLE: '1', NO_COLOR: '1', CI: 'true' },
  });
  expect(r.stderr).not.toMatch(/demo failed|Internal error/);
  expect(r.stderr).not.toMatch(/CLIENT_SECRET is set/);
  expect(r.stdout).toMatch(/Plan: 8 to add, 0 to change, 0 to destroy\./);
  // every rule shows its effects: the one with per-metric sensitivities and the SQL-test rule over gRPC
  expect(r.stdout).toMatch(/gRPC previews at 127\.0\.0\.1:\d+/);
  expect(r.stdout).toMatch(/dq_monitor_deployment_rule\.mart_tables \(monitor deployment rule "[^"]+"\) will be created[\s\S]*?metricOptions[\s\S]*?monitors to create: \d+/);
  expect(r.stdout).toMatch(/dq_sql_test_deployment_rule\.dimension_keys \(SQL-test deployment rule "[^"]+"\) will be created[\s\S]*?SQL tests to create: \d+/);
  expect(r.stdout).not.toMatch(/effects unknown/);
  expect(r.stdout).toMatch(/Apply complete: 8 applied, 0 failed, 0 not attempted\./);
  expect(r.stdout).toMatch(/No changes\. Live state matches the code\./);
  expect(r.stdout).toMatch(/Demo complete/);
  expect(r.stdout).not.toContain('demo-secret');
  expect(r.status).toBe(0);
}, 130_000);
