// inclusive ms per function name (any frame in the stack matching), from a .cpuprofile
import * as fs from 'node:fs';
const p = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const names = process.argv.slice(3);
const parent = new Map<number, number>(); const byId = new Map<number, any>();
for (const n of p.nodes) { byId.set(n.id, n); for (const c of n.children ?? []) parent.set(c, n.id); }
const tot: Record<string, number> = {}; let all = 0;
p.samples.forEach((id: number, i: number) => {
  const dt = (p.timeDeltas[i] ?? 0) / 1000; all += dt;
  const seen = new Set<string>();
  for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) {
    const f = byId.get(x).callFrame; const key = `${f.functionName}`; const file = f.url.split('/').slice(-2).join('/');
    for (const nm of names) { const [fn, fl] = nm.split('@'); if (fn === key && (!fl || file.includes(fl)) && !seen.has(nm)) { seen.add(nm); tot[nm] = (tot[nm] ?? 0) + dt; } }
  }
});
console.log('total', all.toFixed(0)); for (const nm of names) console.log((tot[nm] ?? 0).toFixed(0).padStart(6), nm);
