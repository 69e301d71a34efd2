/**
 * `dqform import`: writes construct code or YAML for the live objects of a namespace. What is
 * imported and how it is rendered is the engine's (src/engine/import.ts, driven by the kinds'
 * `listAll` and import renderings); this module parses the options and writes the file.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import type { CommandContext, CommandModule } from '../command';
import { lazy } from '../lazy';

export interface ImportOptions {
  namespace?: string;
  out?: string;
  format?: string;
  adopt?: boolean;
  /** Narrow --adopt: kinds (`dq_alert` or `alerts`) and ids, comma-separated; each implies --adopt. */
  adoptKind?: string;
  adoptId?: string;
  constructsModule?: string;
  stack?: string;
  /** Overwrite `out` when it exists. */
  force?: boolean;
}

/** `dqform import`: returns the exit code. */
async function run({ io }: CommandContext, o: ImportOptions): Promise<number> {
  if (!o.namespace || !o.out) {
    io.err('Error: dqform import needs --namespace NS and --out FILE\n  Example: dqform import --namespace analytics --out main.ts');
    return 1;
  }
  const format = o.format ?? (/\.ya?ml$/i.test(o.out) ? 'yaml' : 'ts');
  if (format !== 'ts' && format !== 'yaml') {
    io.err(`Error: --format must be ts or yaml; got "${format}"`);
    return 1;
  }
  const narrow = lazy.engineImport().adoptNarrowing(o);
  if (typeof narrow === 'string') {
    io.err(`Error: ${narrow}`);
    return 1;
  }
  const adopt = o.adopt || narrow.adoptKinds !== undefined || narrow.adoptIds !== undefined;
  const file = path.resolve(io.cwd, o.out);
  if (fs.existsSync(file) && !o.force) {
    io.err(`Error: ${o.out} already exists; dqform import does not overwrite it\n  Choose another --out, or pass --force to replace it.`);
    return 1;
  }
  const client = lazy.runtime().client(io);
  try {
    const r = await lazy.engineImport().importNamespace(client, { namespace: o.namespace, format, adopt, ...narrow, constructsModule: o.constructsModule, stack: o.stack });
    const leftOut = `${r.left.otherNamespace} of other namespaces, ${r.left.madeInUi} made in the UI${adopt || r.left.madeInUi === 0 ? '' : ' (--adopt takes those)'}, ${r.left.byRule} deployed by SQL-test rules`;
    const missing = (narrow.adoptIds ?? []).filter((id) => !r.objects.some((x) => x.adopted && x.key.toLowerCase() === id.toLowerCase()));
    if (missing.length) {
      io.err(`Error: --adopt-id ${missing.join(', ')}: no object made in the UI${narrow.adoptKinds ? ` of kind ${narrow.adoptKinds.join(', ')}` : ''} has this id in workspace "${r.workspace}"; nothing was written.`);
      io.err('  Objects of a namespace are never adopted (import that namespace instead); a UI-made ownership comes only with its owner.');
      return 1;
    }
    if (r.objects.length === 0) {
      io.err(`Error: found no objects of namespace "${o.namespace}" in workspace "${r.workspace}"${adopt ? ' and nothing made in the UI' : ''}; nothing was written.`);
      io.err(`  Left out: ${leftOut}.`);
      if (r.namespacesSeen.length) io.err(`  Namespaces seen on alerts, rules and SQL tests: ${r.namespacesSeen.map((n) => `"${n}"`).join(', ')}. Check the spelling of --namespace.`);
      return 1;
    }
    fs.mkdirSync(path.dirname(file), { recursive: true }); // --out yaml/dqform.yaml: a workspace of its own (docs/migrating.md)
    fs.writeFileSync(file, r.text);
    // cdktf (and dqform synth) find the app through cdktf.json: write one when there is none
    const cdktfJson = path.join(path.dirname(file), 'cdktf.json');
    const wroteCdktfJson = format === 'ts' && !fs.existsSync(cdktfJson);
    if (wroteCdktfJson) fs.writeFileSync(cdktfJson, `${JSON.stringify({ language: 'typescript', app: `npx tsx ${path.basename(file)}` }, null, 2)}\n`);
    for (const w of r.warnings) io.err(`Warning: ${w}`);
    const adopted = r.objects.filter((o) => o.adopted).length;
    io.out(`Imported ${r.objects.length} object(s) of namespace "${o.namespace}" into ${o.out}${adopted ? ` (${adopted} adopted with import blocks)` : ''}; left out: ${leftOut}.`);
    if (wroteCdktfJson) io.out(`Wrote ${path.relative(io.cwd, cdktfJson) || 'cdktf.json'} (app: npx tsx ${path.basename(file)}).`);
    if (adopted) io.out(`The first plan imports the ${adopted} adopted object(s) (alerts, rules and SQL tests take namespace "${o.namespace}"; nothing else changes); after its apply, the plan shows no changes.`);
    for (const line of nextSteps(io.cwd, file, format, o.constructsModule ?? 'dqform')) io.out(line);
    return 0;
  } finally {
    await client.close();
  }
}


/** A shell word: quoted when it holds anything but safe characters. */
function shellWord(s: string): string {
  return /^[A-Za-z0-9_./@:=+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The root of the running dqform package (the directory of its package.json). */
function packageRoot(): string {
  for (let d = __dirname; d !== path.dirname(d); d = path.dirname(d)) {
    const f = path.join(d, 'package.json');
    if (fs.existsSync(f) && (JSON.parse(fs.readFileSync(f, 'utf8')) as { name?: string }).name === 'dqform') return d;
  }
  return path.resolve(__dirname, '..', '..', '..');
}

/**
 * What to run after an import so that the plan works from where the user stands, even in an
 * empty directory: YAML needs nothing but dqform; TypeScript needs the constructs module and tsx
 * resolvable next to the file (installed when they are not: dqform from this installation's
 * directory, built first in a source checkout, which brings cdktf and constructs along) and a
 * synth with an explicit app command when there is no cdktf.json.
 */
export function nextSteps(cwd: string, file: string, format: 'ts' | 'yaml', constructsModule: string): string[] {
  const rel = path.relative(cwd, file) || path.basename(file);
  if (format === 'yaml') return [`Next: dqform plan --file ${shellWord(rel)}`];
  const dir = path.dirname(file);
  const relDir = path.relative(cwd, dir);
  const cd = relDir ? `cd ${shellWord(relDir)} && ` : '';
  const resolves = (m: string) => {
    try {
      require.resolve(m, { paths: [dir] });
      return true;
    } catch {
      return false;
    }
  };
  const steps: string[] = [];
  const install: string[] = [];
  if (constructsModule === 'dqform' && !resolves('dqform')) {
    // this installation of dqform (it is not on a registry): a directory install links it, and
    // its own dependencies (cdktf, constructs) resolve from where it lives
    const root = packageRoot();
    if (!fs.existsSync(path.join(root, 'dist', 'src', 'index.js'))) steps.push(`npm --prefix ${shellWord(root)} run build`);
    install.push(root);
  }
  if (!resolves('tsx/package.json')) install.push('tsx');
  if (install.length) steps.push(`npm install --save-dev ${install.map(shellWord).join(' ')}`);
  const app = fs.existsSync(path.join(dir, 'cdktf.json')) ? '' : ` --app ${shellWord(`npx tsx ${path.basename(file)}`)}`;
  steps.push(`dqform synth${app}`, 'dqform plan');
  return [`Next: ${cd}${steps.join(' && ')}`];
}

function define(program: Command): Command {
  return program
    .command('import')
    .description('write construct code or YAML for the live objects of a namespace')
    .option('--namespace <NS>', 'the namespace to import (required)')
    .option('--out <FILE>', 'the file to write: main.ts or dqform.yaml (required)')
    .option('--format <ts|yaml>', 'what to write (default: from the --out extension)')
    .option('--adopt', 'also adopt objects made in the UI, through import blocks')
    .option('--adopt-kind <KINDS>', 'adopt only UI-made objects of these kinds (comma-separated: dq_alert or alerts, ...; implies --adopt)')
    .option('--adopt-id <IDS>', 'adopt only the UI-made objects with these ids (comma-separated; alerts: the fqn; implies --adopt)')
    .option('--constructs-module <M>', 'the module the generated code imports the constructs from (default dqform)')
    .option('--stack <NAME>', 'the stack name in the generated code (default: the namespace)')
    .option('--force', 'overwrite --out if it exists')
    .addHelpText(
      'after',
      "\nReads the live objects of namespace NS (with --adopt, also objects made in the UI, narrowed\nby --adopt-kind and --adopt-id; never another namespace's) and writes code whose plan against\nlive shows no changes; with adopted objects, the first plan imports them (alerts, rules and SQL\ntests take the namespace), and after its apply the plan shows no changes. A TypeScript --out\ngets a cdktf.json beside it when there is none. Finding nothing is exit 1. Read scopes suffice.\nExample: dqform import --namespace shop --out main.ts --format ts",
    );
}

export const command: CommandModule = { define, run };
