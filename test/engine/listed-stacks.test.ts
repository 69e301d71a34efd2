/**
 * Which stacks a synth output holds (manifest.ts listedStacks, issue 23): cdktf's manifest.json
 * is the list when it exists, and a stack directory it no longer lists is a leftover that is
 * never planned (nor taken as a sibling). Tested in-process: the CLI tests that cover it are not
 * counted by the mutation run.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { listedStacks, loadSiblingStacks, loadSynthOutput, ManifestError } from '../../src/engine/manifest';
import type { Diagnostic } from '../../schemas/model/plan';

const tf = (namespace: string) => JSON.stringify({ provider: { dq: [{ namespace }] }, resource: { dq_owner: { team: { title: 'T' } } } });

function diagnostics(f: () => unknown): Diagnostic[] {
  try {
    f();
  } catch (e) {
    if (e instanceof ManifestError) return e.diagnostics;
    throw e;
  }
  throw new Error('expected a ManifestError');
}

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-listed-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
const mk = (stack: string, namespace = stack) => {
  fs.mkdirSync(path.join(dir, 'stacks', stack), { recursive: true });
  fs.writeFileSync(path.join(dir, 'stacks', stack, 'cdk.tf.json'), tf(namespace));
};
const cdktfManifest = (stacks: unknown) => fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ version: '0.20.0', stacks }));

test('without manifest.json every stack directory is a stack, sorted; without stacks/ there are none', () => {
  expect(listedStacks(dir)).toEqual({ stacks: [], leftovers: [] });
  mk('prod');
  mk('dev');
  expect(listedStacks(dir)).toEqual({ stacks: ['dev', 'prod'], leftovers: [] });
});

test('with manifest.json, the stacks it lists are the stacks and the others are leftovers, both sorted', () => {
  for (const s of ['zeta', 'prod', 'old', 'dev']) mk(s);
  // a stack the app removed keeps its directory until the next synth: it must not be planned
  cdktfManifest({ prod: {}, dev: {}, zeta: {}, 'listed-not-synthesised': {} });
  expect(listedStacks(dir)).toEqual({ stacks: ['dev', 'prod', 'zeta'], leftovers: ['old'] });
});

test('a leftover stack is not taken alone, not loadable by name, and not a sibling', () => {
  mk('prod');
  mk('old');
  cdktfManifest({ prod: {} });
  expect(loadSynthOutput(dir).stack).toBe('prod');
  expect(diagnostics(() => loadSynthOutput(dir, 'old'))).toEqual([
    { severity: 'error', summary: `no stack "old" in ${dir} (it holds prod)`, hint: 'Name one of the synthesised stacks with --stack (e.g. --stack prod).' },
  ]);
  mk('dev');
  cdktfManifest({ prod: {}, dev: {} });
  expect(loadSiblingStacks(dir, 'prod').map((s) => [s.stack, s.namespace])).toEqual([['dev', 'dev']]);
});

test('a manifest.json that is not cdktf\'s list of stacks is refused naming the file, with what to do', () => {
  mk('prod');
  const file = path.join(dir, 'manifest.json');
  fs.writeFileSync(file, JSON.stringify({ stacks: ['prod'] }));
  expect(diagnostics(() => listedStacks(dir))).toEqual([
    { severity: 'error', summary: `${file} is not cdktf's list of stacks: it has no "stacks" object`, hint: 'Re-run `dqform synth`; do not edit synth output by hand.' },
  ]);
  fs.writeFileSync(file, JSON.stringify({ version: 1 }));
  expect(diagnostics(() => listedStacks(dir))[0].summary).toBe(`${file} is not cdktf's list of stacks: it has no "stacks" object`);
  fs.writeFileSync(file, '{not json');
  const [d] = diagnostics(() => listedStacks(dir));
  expect(d.summary.startsWith(`${file} is not cdktf's list of stacks: `)).toBe(true);
  expect(d.summary).not.toContain('no "stacks" object');
  // loading a stack reports it; the siblings check leaves it to that load
  expect(diagnostics(() => loadSynthOutput(dir, 'prod'))[0].summary).toBe(d.summary);
  expect(loadSiblingStacks(dir, 'x')).toEqual([]);
});

test('a manifest.json listing no stack present: run synth first', () => {
  mk('old');
  cdktfManifest({});
  expect(diagnostics(() => loadSynthOutput(dir))).toEqual([{ severity: 'error', summary: `no synthesised stacks in ${dir}`, hint: 'Run `dqform synth` first.' }]);
  expect(diagnostics(() => loadSynthOutput(dir, 'old'))).toEqual([{ severity: 'error', summary: `no stack "old" in ${dir}`, hint: 'Run `dqform synth` first.' }]);
});
