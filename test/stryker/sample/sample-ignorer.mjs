/**
 * A StrykerJS ignorer for sampled runs (test/stryker/sample/sample.js): a node is mutated only if
 * it is, or contains, a sampled mutant's node; everything else is ignored (with its subtree).
 * MUT_SAMPLE: the `ranges.json` that `sample.js draw` writes,
 * `{ ranges: { "src/x.ts": [[line, column, endLine, endColumn], ...] } }` in babel positions
 * (1-based lines, 0-based columns).
 */
import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin';
import fs from 'node:fs';
const sample = JSON.parse(fs.readFileSync(process.env.MUT_SAMPLE, 'utf8'));
function fileOf(path) {
  const f = path.hub?.file?.opts?.filename ?? path.node.loc?.filename;
  return f ? String(f).replace(/^.*?\/?(src\/)/, '$1') : undefined;
}
const within = (outer, r) => (outer.start.line < r[0] || (outer.start.line === r[0] && outer.start.column <= r[1])) && (outer.end.line > r[2] || (outer.end.line === r[2] && outer.end.column >= r[3]));
export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'sample', {
    shouldIgnore(path) {
      const loc = path.node.loc;
      if (!loc) return undefined;
      const f = fileOf(path);
      if (!f) return undefined;
      const rs = sample.ranges[f];
      if (!rs) return 'not in the sample';
      return rs.some((r) => within(loc, r)) ? undefined : 'not in the sample';
    },
  }),
];
