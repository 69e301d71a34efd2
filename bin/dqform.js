#!/usr/bin/env node
'use strict';
require('../dist/src/cli/main.js').main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err) => { console.error(err && err.stack ? err.stack : String(err)); process.exitCode = 1; },
);
