#!/usr/bin/env node
'use strict';
// Installed package: the compiled CLI in dist/. In a source checkout without a build, run the
// TypeScript sources through tsx (a dev dependency).
const fs = require('node:fs');
const path = require('node:path');
const root = path.join(__dirname, '..');
const compiled = path.join(root, 'dist', 'src', 'cli', 'main.js');

/**
 * In a source checkout (src/ exists; the package ships dist/ only), a dist/ older than any
 * source file is stale: a build once, then a pull, would otherwise run old code without a word.
 */
function staleBuild() {
  if (!fs.existsSync(path.join(root, 'src', 'cli', 'main.ts'))) return false;
  const built = fs.statSync(compiled).mtimeMs;
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
const useBuild = fs.existsSync(compiled) && !staleBuild();
if (!useBuild && fs.existsSync(compiled)) {
  process.stderr.write('dqform: dist/ is older than the sources in this checkout: running the sources (npm run build refreshes dist/).\n');
}
if (useBuild) cli = require(compiled);
else {
  require('tsx/cjs');
  cli = require(path.join(__dirname, '..', 'src', 'cli', 'main.ts'));
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
