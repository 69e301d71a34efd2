// self time by frame for samples in the last W ms of a .cpuprofile (before its end minus SKIP ms)
import * as fs from 'node:fs';
const p = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const W = Number(process.argv[3]); const top = Number(process.argv[4] ?? 30); const name = process.argv[5];
const byId = new Map<number, any>(); const parent = new Map<number, number>();
for (const n of p.nodes) { byId.set(n.id, n); for (const c of n.children ?? []) parent.set(c, n.id); }
let t = p.startTime; const ts: number[] = []; for (const d of p.timeDeltas) { t += d; ts.push(t); }
const end = ts[ts.length - 1]; const self: Record<string, number> = {}; let tot = 0; const incl: Record<string, number> = {};
p.samples.forEach((id: number, i: number) => {
  if (ts[i] < end - W * 1000) return;
  const dt = (p.timeDeltas[i] ?? 0) / 1000; const f = byId.get(id).callFrame;
  const k = `${f.functionName || '(anon)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
  self[k] = (self[k] ?? 0) + dt; tot += dt;
  const seen = new Set<string>();
  for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) { const g = byId.get(x).callFrame; const kk = `${g.functionName || '(anon)'} ${g.url.split('/').slice(-2).join('/')}:${g.lineNumber + 1}`; if (!seen.has(kk)) { seen.add(kk); incl[kk] = (incl[kk] ?? 0) + dt; } }
});
console.log('window total', tot.toFixed(0));
for (const [k, v] of Object.entries(self).sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(v.toFixed(1).padStart(8), k);
console.log('--- inclusive'); for (const [k, v] of Object.entries(incl).sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(v.toFixed(1).padStart(8), k);
