#!/usr/bin/env node
'use strict';
// Installed package: the compiled CLI in dist/. In a source checkout without a build, run the
// TypeScript sources through tsx (a dev dependency).
const fs = require('node:fs');
const path = require('node:path');
const compiled = path.join(__dirname, '..', 'dist', 'src', 'cli', 'main.js');
let cli;
if (fs.existsSync(compiled)) cli = require(compiled);
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
