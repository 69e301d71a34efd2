// usage: tsx mk.ts OUTDIR NAMESPACE N [changed] [kinds,comma,separated]  -> OUTDIR/cdktf.out/stacks/NAMESPACE/cdk.tf.json
import * as fs from 'node:fs';
import * as path from 'node:path';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { terraformJson } = require(path.join(process.env.REPO ?? '/work/main', 'bench/fixtures'));
const [out, ns, n, changed, kinds] = process.argv.slice(2);
const dir = path.join(out, 'cdktf.out', 'stacks', ns);
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, 'cdk.tf.json'), JSON.stringify(terraformJson(ns, Number(n), { ...(changed === 'changed' ? { changedEvery: 1 } : {}), ...(kinds ? { kinds: kinds.split(',') } : {}) })));
