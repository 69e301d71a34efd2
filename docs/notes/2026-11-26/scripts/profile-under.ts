// self time by frame among samples whose stack contains function NAME; and by direct child of NAME
import * as fs from 'node:fs';
const p = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const name = process.argv[3]; const top = Number(process.argv[4] ?? 25);
const parent = new Map<number, number>(); const byId = new Map<number, any>();
for (const n of p.nodes) { byId.set(n.id, n); for (const c of n.children ?? []) parent.set(c, n.id); }
const self: Record<string, number> = {}; const child: Record<string, number> = {}; let all = 0;
const fr = (x: number) => { const f = byId.get(x).callFrame; return `${f.functionName || '(anon)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`; };
p.samples.forEach((id: number, i: number) => {
  const dt = (p.timeDeltas[i] ?? 0) / 1000;
  let prev: number | undefined;
  for (let x: number | undefined = id; x !== undefined; prev = x, x = parent.get(x)) {
    if (byId.get(x).callFrame.functionName === name) { all += dt; self[fr(id)] = (self[fr(id)] ?? 0) + dt; const c = prev === undefined ? '(self)' : fr(prev); child[c] = (child[c] ?? 0) + dt; break; }
  }
});
console.log('under', name, all.toFixed(0));
console.log('-- direct children'); for (const [k, v] of Object.entries(child).sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(v.toFixed(1).padStart(7), k);
console.log('-- self'); for (const [k, v] of Object.entries(self).sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(v.toFixed(1).padStart(7), k);
