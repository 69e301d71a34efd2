/**
 * The bench's installed layout (bench/startup.ts `installLayout`, issue 27): the plan rows run
 * bin/dqform.js and the bundle as an installed dqform does. The bundle runs from its real path
 * (Node resolves the `dist` link to the build itself), and from there the gRPC previews of a
 * changed plan must find the `.proto` subset where `protoDir()` (schemas/platform/grpc.ts) looks:
 * without it they failed and the 10% changed row measured a plan without them.
 * A stand-in bundle file (no bundler run, no emulator: the layout is what is tested).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { installLayout } from '../../bench/startup';

const ROOT = path.resolve(__dirname, '..', '..');

it('lets the bundle, run from its real path, find the .proto subset as protoDir() looks for it', () => {
  const build = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-layout-'));
  try {
    fs.mkdirSync(path.join(build, 'bundle'));
    fs.writeFileSync(path.join(build, 'bundle', 'dqform.js'), '');
    fs.writeFileSync(path.join(build, 'bundle', 'dqform-rest.js'), '');
    installLayout(ROOT, build);
    // bin/dqform.js requires dist/bundle/dqform.js: the module's __dirname is its real directory
    const dir = path.dirname(fs.realpathSync(path.join(build, 'dist', 'bundle', 'dqform-rest.js')));
    // protoDir()'s candidates from the bundle's directory
    const candidates = [path.join(dir, '..', 'proto'), path.join(dir, '..', '..', '..', 'schemas', 'proto'), path.join(dir, '..', '..', 'schemas', 'proto')];
    expect(candidates.filter((c) => fs.existsSync(path.join(c, 'platform', 'v1', 'source.proto'))).length).toBeGreaterThan(0);
    // and a second layout of the same build leaves it as it is
    expect(() => installLayout(ROOT, build)).not.toThrow();
  } finally {
    fs.rmSync(build, { recursive: true, force: true });
  }
});

it('replaces a proto link left by another checkout (removed since): no EEXIST, and the link is this checkout\'s', () => {
  const build = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-layout-'));
  try {
    fs.mkdirSync(path.join(build, 'bundle'));
    fs.writeFileSync(path.join(build, 'bundle', 'dqform.js'), '');
    // what a layout from a worktree that no longer exists leaves behind
    fs.symlinkSync(path.join(build, 'gone-checkout', 'schemas', 'proto'), path.join(build, 'proto'), 'dir');
    expect(() => installLayout(ROOT, build)).not.toThrow();
    expect(fs.realpathSync(path.join(build, 'proto'))).toBe(fs.realpathSync(path.join(ROOT, 'schemas', 'proto')));
    expect(fs.existsSync(path.join(build, 'proto', 'platform', 'v1', 'source.proto'))).toBe(true);
  } finally {
    fs.rmSync(build, { recursive: true, force: true });
  }
});
