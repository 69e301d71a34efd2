#!/usr/bin/env node
'use strict';
// Runs the real bin/dqform.js from the TypeScript sources, as a fresh clone without a build does:
// a dist/ left over from an earlier `npm pack` or `npm run build` may be stale, so the tests hide it.
// DQ_TEST_BUNDLE=1 (after `npm run build`) runs the CLI's bundle instead (bin/dqform.js refuses a
// dist/ older than the sources): `DQ_TEST_BUNDLE=1 npx jest test/cli` checks the bundle with the
// CLI's tests.
const fs = require('node:fs');
const path = require('node:path');
if (process.env.DQ_TEST_BUNDLE !== '1') {
  const dist = path.join(__dirname, '..', '..', 'dist') + path.sep;
  const existsSync = fs.existsSync;
  fs.existsSync = (p) => (typeof p === 'string' && p.startsWith(dist) ? false : existsSync(p));
}
require('../../bin/dqform.js');
