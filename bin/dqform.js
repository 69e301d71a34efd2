#!/usr/bin/env node
'use strict';
// Installed package: the CLI's bundle in dist/bundle (npm run build writes it: tools/bundle.ts),
// else the compiled tree in dist/src. In a source checkout without a build, run the TypeScript
// sources through tsx (a dev dependency). Before the CLI loads, dist/src/cli/v8-start.js (or
// its source) sets V8 up: a code cache for the bundle, the interrupt budget (src/cli/v8-start.ts).
const fs = require('node:fs');
const path = require('node:path');
const root = path.join(__dirname, '..');
const bundle = path.join(root, 'dist', 'bundle', 'dqform.js');
const compiled = path.join(root, 'dist', 'src', 'cli', 'main.js');

/**
 * In a source checkout (src/ exists; the package ships dist/ only), a build older than any
 * source file is stale: a build once, then a pull, would otherwise run old code without a word.
 */
function staleBuild(entry) {
  if (!fs.existsSync(path.join(root, 'src', 'cli', 'main.ts'))) return false;
  const built = fs.statSync(entry).mtimeMs;
  const newer = (dir) => {
    let entries;
    try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { return false; }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory() ? newer(p) : e.name.endsWith('.ts') && fs.statSync(p).mtimeMs > built) return true;
    }
    return false;
  };
  return ['src', 'schemas', 'constructs'].some((d) => newer(path.join(root, d)));
}

let cli;
const entry = fs.existsSync(bundle) ? bundle : fs.existsSync(compiled) ? compiled : undefined;
const useBuild = entry !== undefined && !staleBuild(entry);
if (!useBuild && entry !== undefined) {
  process.stderr.write('dqform: dist/ is older than the sources in this checkout: running the sources (npm run build refreshes dist/).\n');
}
if (useBuild) {
  const start = path.join(root, 'dist', 'src', 'cli', 'v8-start.js');
  if (fs.existsSync(start)) require(start).startV8(entry === bundle ? ['dqform.js', 'dqform-rest.js', 'dqform-grpc.js'].map((f) => path.join(path.dirname(bundle), f)) : []);
  cli = require(entry);
} else {
  require('tsx/cjs');
  const start = path.join(root, 'src', 'cli', 'v8-start.ts');
  if (fs.existsSync(start)) require(start).startV8([]);
  cli = require(path.join(root, 'src', 'cli', 'main.ts'));
}
// A reader that stops early (dqform plan | head) closes the pipe: stop quietly, as other CLIs do.
process.stdout.on('error', (err) => {
  if (err && err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});
cli.main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err) => { process.stderr.write(`dqform: internal error: ${err && err.message ? err.message : String(err)}\n`); process.exitCode = 1; },
);
