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
