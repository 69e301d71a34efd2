/**
 * bench/profile.ts attributes a plan's CPU profile to phases (issue 27): module loading is the
 * samples whose own code is the loader's, not every sample with `Module._load` on the stack (a
 * module's top level, and whatever a command does synchronously on its first require, runs
 * under it).
 */
import { phasesOfCpuProfile } from '../../bench/profile';

type Frame = [functionName: string, url: string];

/** A profile with one sample of 1 ms per stack (frames listed from the root down to the leaf). */
function profileOf(stacks: Frame[][]) {
  const nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children: number[] }[] = [{ id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: 0 }, children: [] }];
  const samples: number[] = [];
  for (const stack of stacks) {
    let parent = nodes[0];
    for (const [functionName, url] of stack) {
      const node = { id: nodes.length + 1, callFrame: { functionName, url, lineNumber: 0 }, children: [] };
      nodes.push(node);
      parent.children.push(node.id);
      parent = node;
    }
    samples.push(parent.id);
  }
  return { nodes, samples, timeDeltas: samples.map(() => 1000), startTime: 0, endTime: samples.length * 1000 };
}

const LOADER = 'node:internal/modules/cjs/loader';
const REQUIRE: Frame[] = [
  ['Module._load', LOADER],
  ['Module.require', LOADER],
  ['Module._compile', LOADER],
];

it('counts as module loading what the loader itself does, and a module top level as its own phase', () => {
  const phases = phasesOfCpuProfile(
    profileOf([
      [...REQUIRE, ['wrapSafe', LOADER]], // compiling a module
      [...REQUIRE, ['Module._extensions..js', LOADER], ['readFileSync', 'node:fs']], // reading its file
      [['Module._load', LOADER], ['Module._resolveFilename', LOADER], ['statSync', 'node:fs'], ['', '']], // resolving a name
      [...REQUIRE, ['', 'file:///b/build/schemas/model/manifest.js'], ['object', 'file:///b/node_modules/zod/v4/classic/schemas.cjs']], // a schema built at a module's top level
      [...REQUIRE, ['run', 'file:///b/build/src/cli/main.js'], ['loadSynthOutput', 'file:///b/build/src/engine/manifest.js'], ['readFileSync', 'node:fs']], // the manifest read on a first require
      [...REQUIRE, ['loadSynthOutput', 'file:///b/build/src/engine/manifest.js'], ['parse', '']], // its JSON.parse
      [['(garbage collector)', '']],
    ]),
  );
  expect(phases).toEqual({ 'module loading': 3, 'manifest + resolve': 2, 'zod (other)': 1, '(garbage collector)': 1 });
});

it('a sample under Module._load whose own code is not the loader\'s (the manifest parsed on a first require) is not module loading', () => {
  const underLoad = profileOf([[...REQUIRE, ['loadSynthOutput', 'file:///b/build/src/engine/manifest.js'], ['parse', '']]]);
  expect(phasesOfCpuProfile(underLoad)['module loading']).toBeUndefined();
});
