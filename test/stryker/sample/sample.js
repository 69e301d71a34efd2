#!/usr/bin/env node
/**
 * Mutation scores from a uniform random sample of mutants, for when a full StrykerJS run of
 * src/client, src/handlers and src/engine (about 8,000 mutants, hours on a 2-core machine) does
 * not fit. The sample is drawn per folder with a seeded generator (reproducible), Stryker tests
 * only the sampled mutants, and the score comes with a 95% interval.
 *
 *   1. the population: one Stryker run with the `event-recorder` reporter, stopped once it has
 *      written `00001-onMutationTestingPlanReady.json` (every mutant, before any is tested);
 *   2. node test/stryker/sample/sample.js draw <planReady.json> <outDir> client:300:31 handlers:300:32 engine:400:33
 *      writes <outDir>/<folder>-sample.json (the sampled mutants' keys) and <outDir>/ranges.json;
 *   3. node test/stryker/sample/sample.js config <outDir> > stryker.sample.json
 *      (test/config/stryker.config.json with `mutate` = the sampled mutants' exact ranges, the ignorer below,
 *      the event recorder and its own report files);
 *   4. MUT_SAMPLE=<outDir>/ranges.json nice -n 19 npx stryker run stryker.sample.json
 *   5. node test/stryker/sample/sample.js score <events dir or report.json> <outDir>/<folder>-sample.json [--list]
 *   6. after adding tests: `sample.js retest <run> <outDir> <outDir2>` samples the survivors
 *      only; run steps 3-4 with <outDir2>, then `score <run>,<run2> <outDir>/<folder>-sample.json`
 *      (a later run's result replaces an earlier one).
 *   7. survivors Stryker flags `static` (code run at module load) were tested only with the few
 *      tests that covered them at run time; re-test them with `ignoreStatic: false` and every
 *      suite of their folder: a sample file of those keys (as `retest` writes), `config`, then in
 *      the generated config `ignoreStatic: false` and `jest.configFile: 'test/config/jest.stryker.dirs.js'`,
 *      and run with `MUT_TEST_DIRS=test/handlers` (leaving suites out can only lower the score).
 *
 * Why both ranges and an ignorer: a `mutate` range keeps Stryker from mutating the ancestors of a
 * sampled node, and `sample-ignorer.mjs` keeps it from mutating the descendants of a sampled
 * node that hold no sampled mutant. What remains is the sampled mutants plus the other mutators'
 * mutants of the same nodes (about 1.8 runnable mutants per sampled one); the score counts the
 * sampled keys only. Static mutants are ignored, as in `npm run mutate` (ignoreStatic).
 */
const fs = require('fs');
const path = require('path');

const rel = (f) => f.replace(/^.*?\/?src\//, 'src/');
/** A mutant's key: file, 1-based start and end (line:column, as in Stryker's reports), mutator, replacement. */
const keyOf = (fileName, loc, mutatorName, replacement) =>
  `${rel(fileName)}:${loc.start.line}:${loc.start.column}-${loc.end.line}:${loc.end.column} ${mutatorName} ${replacement}`;

/** mulberry32: a small seeded generator, so that a sample can be drawn again. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function draw(planFile, outDir, specs) {
  const plans = JSON.parse(fs.readFileSync(planFile, 'utf8')).mutantPlans;
  fs.mkdirSync(outDir, { recursive: true });
  const ranges = {};
  const mutate = [];
  for (const spec of specs) {
    const [folder, n, seed] = spec.split(':');
    // plan-ready locations are 0-based (line and column)
    const all = plans.map((p) => p.mutant).filter((m) => rel(m.fileName).startsWith(`src/${folder}/`));
    const next = rng(Number(seed));
    const idx = all.map((_, i) => i);
    for (let i = idx.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [idx[i], idx[j]] = [idx[j], idx[i]];
    }
    const sample = idx.slice(0, Number(n)).sort((x, y) => x - y).map((i) => all[i]);
    const keys = sample.map((m) => {
      const l = m.location;
      return keyOf(m.fileName, { start: { line: l.start.line + 1, column: l.start.column + 1 }, end: { line: l.end.line + 1, column: l.end.column + 1 } }, m.mutatorName, m.replacement);
    });
    fs.writeFileSync(path.join(outDir, `${folder}-sample.json`), JSON.stringify({ folder, population: all.length, seed: Number(seed), keys }, null, 1));
    for (const m of sample) {
      const l = m.location;
      // babel positions for the ignorer (1-based lines, 0-based columns); Stryker's mutate ranges take the same
      (ranges[rel(m.fileName)] ??= []).push([l.start.line + 1, l.start.column, l.end.line + 1, l.end.column]);
      mutate.push(`${rel(m.fileName)}:${l.start.line + 1}:${l.start.column}-${l.end.line + 1}:${l.end.column}`);
    }
    console.log(`${folder}: population ${all.length}, sampled ${sample.length} (seed ${seed})`);
  }
  fs.writeFileSync(path.join(outDir, 'ranges.json'), JSON.stringify({ ranges }));
  fs.writeFileSync(path.join(outDir, 'mutate.json'), JSON.stringify([...new Set(mutate)]));
}

function config(outDir) {
  const base = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'config', 'stryker.config.json'), 'utf8'));
  const c = {
    ...base,
    mutate: JSON.parse(fs.readFileSync(path.join(outDir, 'mutate.json'), 'utf8')),
    plugins: ['@stryker-mutator/*', './test/stryker/sample/sample-ignorer.mjs'],
    ignorers: ['sample'],
    reporters: ['progress', 'json', 'event-recorder'],
    jsonReporter: { fileName: 'reports/mutation/sample.json' },
    eventReporter: { baseDir: path.join(outDir, 'events') },
    incrementalFile: 'reports/sample-incremental.json',
    tempDirName: '.stryker-tmp-sample',
  };
  delete c._comment;
  delete c.$schema; // relative to test/config/, not to where the generated file is written
  delete c.htmlReporter;
  delete c.clearTextReporter;
  process.stdout.write(`${JSON.stringify(c, null, 1)}\n`);
}

/** The tested mutants of an event-recorder directory or a JSON report. */
function mutantsOf(src) {
  const mutants = [];
  if (fs.statSync(src).isDirectory()) {
    for (const f of fs.readdirSync(src)) if (f.endsWith('onMutantTested.json')) mutants.push(JSON.parse(fs.readFileSync(path.join(src, f), 'utf8')));
  } else {
    const r = JSON.parse(fs.readFileSync(src, 'utf8'));
    for (const [file, v] of Object.entries(r.files)) for (const m of v.mutants) mutants.push({ ...m, fileName: file });
  }
  return mutants;
}

/**
 * The sampled mutants' results. `srcs` is a comma-separated list of runs: a later run's result
 * for a key replaces an earlier one (a re-test of the survivors after tests were added; tests
 * only added, so what was killed stays killed).
 */
function resultsOf(srcs, want) {
  const got = new Map();
  for (const src of srcs.split(',')) {
    for (const m of mutantsOf(src)) {
      const k = keyOf(m.fileName, m.location, m.mutatorName, m.replacement);
      if (!want.has(k)) continue;
      // conservative: a re-test that calls a tested mutant static (Ignored) does not erase its result
      if (m.status === 'Ignored' && got.has(k) && got.get(k).status !== 'Ignored') continue;
      got.set(k, m);
    }
  }
  return got;
}

function score(srcs, sampleFile, list) {
  const sample = JSON.parse(fs.readFileSync(sampleFile, 'utf8'));
  const want = new Set(sample.keys);
  const got = resultsOf(srcs, want);
  const s = {};
  for (const m of got.values()) s[m.status] = (s[m.status] || 0) + 1;
  const det = (s.Killed || 0) + (s.Timeout || 0);
  const valid = det + (s.Survived || 0) + (s.NoCoverage || 0);
  const p = valid ? det / valid : 0;
  // normal approximation with the finite-population correction
  const se = valid > 1 ? Math.sqrt(((p * (1 - p)) / valid) * ((sample.population - valid) / (sample.population - 1))) : 0;
  const pct = (x) => Math.round(1000 * x) / 10;
  console.log(
    JSON.stringify({
      folder: sample.folder,
      population: sample.population,
      sampled: sample.keys.length,
      tested: got.size,
      notTested: sample.keys.length - got.size,
      status: s,
      valid,
      score: pct(p),
      ci95: [pct(Math.max(0, p - 1.96 * se)), pct(Math.min(1, p + 1.96 * se))],
    }),
  );
  if (list) {
    const bad = [...got.entries()].filter(([, m]) => m.status === 'Survived' || m.status === 'NoCoverage').sort(([a], [b]) => a.localeCompare(b));
    for (const [k, m] of bad) console.log(`${k}  ${m.status}`);
  }
}

/**
 * A sample of the survivors: the sampled mutants of `sampleDir` that survived or had no coverage
 * in run `srcs`, written to `outDir` like `draw` does (so `config` and a run re-test only them).
 */
function retest(srcs, sampleDir, outDir) {
  fs.mkdirSync(outDir, { recursive: true });
  const ranges = {};
  const mutate = [];
  for (const f of fs.readdirSync(sampleDir).filter((x) => x.endsWith('-sample.json'))) {
    const sample = JSON.parse(fs.readFileSync(path.join(sampleDir, f), 'utf8'));
    const got = resultsOf(srcs, new Set(sample.keys));
    const keys = sample.keys.filter((k) => ['Survived', 'NoCoverage'].includes(got.get(k)?.status));
    fs.writeFileSync(path.join(outDir, f), JSON.stringify({ ...sample, keys }, null, 1));
    for (const k of keys) {
      const m = /^(\S+):(\d+):(\d+)-(\d+):(\d+) /.exec(k);
      const r = [Number(m[2]), Number(m[3]) - 1, Number(m[4]), Number(m[5]) - 1];
      (ranges[m[1]] ??= []).push(r);
      mutate.push(`${m[1]}:${r[0]}:${r[1]}-${r[2]}:${r[3]}`);
    }
    console.log(`${sample.folder}: ${keys.length} of ${sample.keys.length} to re-test`);
  }
  fs.writeFileSync(path.join(outDir, 'ranges.json'), JSON.stringify({ ranges }));
  fs.writeFileSync(path.join(outDir, 'mutate.json'), JSON.stringify([...new Set(mutate)]));
}

const [cmd, ...args] = process.argv.slice(2);
if (cmd === 'draw') draw(args[0], args[1], args.slice(2));
else if (cmd === 'config') config(args[0]);
else if (cmd === 'score') score(args[0], args[1], args.includes('--list'));
else if (cmd === 'retest') retest(args[0], args[1], args[2]);
else {
  console.error('usage: sample.js draw <planReady.json> <outDir> <folder:n:seed>... | config <outDir> | score <runs> <sample.json> [--list] | retest <runs> <sampleDir> <outDir>  (runs: events dirs or JSON reports, comma-separated, later ones win)');
  process.exit(2);
}
