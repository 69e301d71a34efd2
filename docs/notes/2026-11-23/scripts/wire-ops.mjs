// Prints the operation table of issue 10's note from src/client/services/ROUTES.md:
// every operation with the source of its shape (spec / wire-facts / grpc-facts / upstream / choice).
//   node /work/notes/wire-ops.mjs /work/main/src/client/services/ROUTES.md
import { readFileSync } from 'node:fs';
const file = process.argv[2] ?? '/work/main/src/client/services/ROUTES.md';
const lines = readFileSync(file, 'utf8').split('\n');
const start = lines.findIndex((l) => l.startsWith('| service |'));
const rows = [];
for (const l of lines.slice(start + 2)) {
  if (!l.startsWith('|')) break;
  // split on unescaped pipes
  const cells = l.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());
  const [service, op, method, path, , , , , source] = cells;
  rows.push({ op: `${service}.${op}`, route: `${method} ${path}`, source });
}
const kinds = (s) => {
  const k = [];
  if (/\bspec\b/.test(s)) k.push('spec');
  if (/\bwire\b/.test(s)) k.push('wire-facts');
  if (/grpc-facts/.test(s)) k.push('grpc-facts');
  if (/\bupstream\b/.test(s)) k.push('upstream');
  if (/\bchoice\b/.test(s)) k.push('choice');
  return k.join(' + ');
};
console.log('| operation | route | sources | source column of ROUTES.md |');
console.log('|---|---|---|---|');
for (const r of rows) console.log(`| ${r.op} | \`${r.route}\` | ${kinds(r.source)} | ${r.source} |`);
const count = (k) => rows.filter((r) => kinds(r.source).split(' + ').includes(k)).length;
console.log(`\n${rows.length} operations; rows citing spec: ${count('spec')}, wire-facts: ${count('wire-facts')}, grpc-facts: ${count('grpc-facts')}, upstream: ${count('upstream')}, a choice (in part): ${count('choice')}; rows that are only a choice: ${rows.filter((r) => kinds(r.source) === 'choice').length}.`);
