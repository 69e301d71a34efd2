/** Summarises a V8 `.cpuprofile` (from `node --cpu-prof`): self time per function, top N. */

interface CpuNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: CpuNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** One row of the summary: a function (name, file:line) and its self time. */
export interface ProfileRow {
  frame: string;
  selfMs: number;
  selfPct: number;
}

/** Self time per function (aggregated by name and location), the `top` largest, plus totals by area. */
export function summariseCpuProfile(p: CpuProfile, top = 15): { totalMs: number; top: ProfileRow[]; byArea: Record<string, number> } {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const area = new Map<string, number>();
  let total = 0;
  p.samples.forEach((id, i) => {
    const dt = (p.timeDeltas[i] ?? 0) / 1000;
    total += dt;
    const n = byId.get(id);
    if (!n) return;
    const f = n.callFrame;
    const file = f.url.replace(/^file:\/\//, '').replace(/.*\/(node_modules\/)/, '$1').replace(/.*\/build\//, '');
    const key = `${f.functionName || '(anonymous)'} ${file ? `${file}:${f.lineNumber + 1}` : ''}`.trim();
    self.set(key, (self.get(key) ?? 0) + dt);
    const a = !f.url ? (f.functionName.startsWith('(') ? f.functionName : '(native)') : /node_modules\/([^/]+)/.exec(file)?.[1] ?? (file.startsWith('node:') ? 'node:internal' : file.split('/').slice(0, 2).join('/'));
    area.set(a, (area.get(a) ?? 0) + dt);
  });
  const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    totalMs: round(total),
    top: rows.map(([frame, ms]) => ({ frame, selfMs: round(ms), selfPct: round((100 * ms) / total) })),
    byArea: Object.fromEntries([...area.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, v]) => [k, round(v)])),
  };
}

/**
 * The phases of a plan, for `--cpu-prof` of the plan child: each sample goes to the first rule
 * that matches, from the leaf up (the innermost frame that names a phase wins). Module loading
 * is the samples whose own code is the loader's: a leaf frame in Node's module loader or a
 * compile function, or a native or `node:fs` frame (reading, stat) called from it. Not every
 * sample with `Module._load` on the stack: a module's top level runs under it too (building zod
 * schemas, and everything a command does synchronously on its first require, such as reading,
 * parsing and hashing the manifest), and that time is its own phase's (issue 27: 333 ms counted
 * as module loading where ~90 were). GC, idle (waiting for the network) and program (V8
 * bookkeeping) are V8's own pseudo-frames.
 */
/** The module loader's own code: Node's loaders, the compile entry points, tsx's require hook. */
const LOADER_URL = /^node:internal\/modules\/|\/node_modules\/tsx\/|\/node_modules\/get-tsconfig\//;
const LOADER_FN = /^(wrapSafe|compileFunction|compileForInternalLoader|compileForPublicLoader|requireBuiltin)$/;
/** Frames the loader calls that do its work: native code (no url) and file-system helpers. */
const HELPER_URL = /^(node:fs|node:path|node:internal\/fs\/|node:internal\/url|)$|^node:internal\/fs\//;

/** True when the sample's own code (its leaf, and the helpers it is in) is the module loader's. */
export function inModuleLoader(stack: readonly { callFrame: { functionName: string; url: string } }[]): boolean {
  for (const n of stack) {
    const { url, functionName } = n.callFrame;
    if (LOADER_FN.test(functionName) || LOADER_URL.test(url)) return true;
    if (!HELPER_URL.test(url)) return false;
  }
  return false;
}

const ZOD = /node_modules\/zod\/|schemas\/wire\.js|schemas\/text-checks\.js/;
const PHASES: { phase: string; test: (url: string, fn: string) => boolean }[] = [
  { phase: 'normalise', test: (u) => /kinds\/shared\/normalise\.js/.test(u) },
  { phase: 'render', test: (u) => /cli\/render\.js/.test(u) },
  { phase: 'diff (planner)', test: (u) => /engine\/planner\.js/.test(u) },
  { phase: 'manifest + resolve', test: (u) => /engine\/(manifest|resolve|identity|keys|unknown-fields|renamed)\.js/.test(u) },
  { phase: 'token', test: (u) => /client\/auth\.js/.test(u) },
  { phase: 'reads (handlers)', test: (u) => /src\/kinds\//.test(u) },
  { phase: 'http client (undici, client)', test: (u) => /node_modules\/undici\/|src\/client\//.test(u) },
];

/** Milliseconds per phase (see {@link PHASES}) of a V8 CPU profile. */
export function phasesOfCpuProfile(p: CpuProfile): Record<string, number> {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const memo = new Map<number, string>();
  const phaseOf = (id: number): string => {
    const hit = memo.get(id);
    if (hit) return hit;
    const stack: CpuNode[] = [];
    for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) stack.push(byId.get(x)!);
    const leaf = stack[0].callFrame.functionName;
    let phase = 'other';
    if (['(garbage collector)', '(idle)', '(program)'].includes(leaf)) phase = leaf;
    else if (inModuleLoader(stack)) phase = 'module loading';
    else {
      // zod and the wire decoder belong to whoever called them: the reads (parse) or the engine (validation)
      let zod = false;
      for (const n of stack) {
        if (ZOD.test(n.callFrame.url)) {
          zod = true;
          continue;
        }
        const r = PHASES.find((x) => x.test(n.callFrame.url, n.callFrame.functionName));
        if (r) {
          phase = !zod ? r.phase : /src\/(client|kinds)\//.test(n.callFrame.url) ? 'parse of reads (zod, wire decode)' : 'validation of desired state (zod)';
          break;
        }
      }
      if (phase === 'other' && zod) phase = 'zod (other)';
    }
    memo.set(id, phase);
    return phase;
  };
  const out = new Map<string, number>();
  p.samples.forEach((id, i) => {
    const ph = phaseOf(id);
    out.set(ph, (out.get(ph) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  });
  return Object.fromEntries([...out.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, Math.round(v)]));
}
