/**
 * The README tutorial type-checks (issue 21): the TypeScript the tutorial has the user write
 * (every ```ts block of "## Tutorial", each named by its first line `// <file>.ts`, and the `stack.…(…)` statements its prose has
 * the user add, appended to main.ts) is compiled in
 * one strict program (with a broken app beside it, which must fail), with `dqform` mapped to this repository's package root (src/index.ts) and
 * `cdktf`/`constructs` resolved from its node_modules, as the user's install would. The files are
 * served to the compiler from memory at a path inside the repository (nothing is written). The
 * app of step 2 is also run (transpiled, `dqform` being this repository) and must synthesise.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';
import * as ts from 'typescript';
import * as cdktf from 'cdktf';
import * as constructs from 'constructs';
import * as dqform from '../../src/index';
import { main as dqformCli } from '../../src/cli/main';

const ROOT = path.resolve(__dirname, '..', '..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
/** Where the tutorial's files seem to live: inside the repository, so that node_modules resolves. */
const APP = path.join(ROOT, 'test', 'docs', '.tutorial-app');

/** The tutorial's TypeScript files: name -> text, in the README's order (with the prose's statements unless `prose` is false). */
export function tutorialFiles(readme: string, prose = true): Map<string, string> {
  const section = readme.split(/^## /m).find((s) => s.startsWith('Tutorial'));
  if (!section) throw new Error('README.md has no "## Tutorial" section');
  const files = new Map<string, string>();
  for (const m of section.matchAll(/^( *)```ts\n([\s\S]*?)^\1```$/gm)) {
    const code = m[2].split('\n').map((l) => l.slice(m[1].length)).join('\n');
    const name = /^\/\/ ([\w./-]+\.ts)\s*$/m.exec(code.split('\n')[0])?.[1];
    if (!name) throw new Error(`README.md tutorial: a \`\`\`ts block whose first line does not name its file (// main.ts): ${code.split('\n')[0]}`);
    if (files.has(name)) throw new Error(`README.md tutorial: two \`\`\`ts blocks name ${name}`);
    files.set(name, code);
  }
  // statements the prose has the user add to the app (`stack.removed('dq_owner.x', ...)`) go at the end of main.ts
  const added = [...section.replace(/```[\s\S]*?```/g, '').matchAll(/`(stack\.\w+\([^`]*\))`/g)].map((m) => `${m[1]};`);
  if (prose && added.length > 0 && files.has('main.ts')) files.set('main.ts', `${files.get('main.ts')!.trimEnd()}\n${added.join('\n')}\n`);
  return files;
}

/** The diagnostics of compiling `files` (name -> text) as the user's app, formatted, or []. */
export function typeCheck(files: Map<string, string>): string[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    lib: ['lib.es2023.d.ts'],
    types: ['node'],
    strict: true,
    noUnusedLocals: true,
    esModuleInterop: true,
    resolveJsonModule: true,
    skipLibCheck: true,
    noEmit: true,
    baseUrl: ROOT,
    paths: { dqform: ['src/index.ts'] },
  };
  const virtual = new Map([...files].map(([name, text]) => [path.join(APP, name), text]));
  const host = ts.createCompilerHost(options, true);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, lang, ...rest) => {
    const text = virtual.get(path.resolve(name));
    return text !== undefined ? ts.createSourceFile(name, text, lang, true) : getSourceFile.call(host, name, lang, ...rest);
  };
  host.fileExists = (name) => virtual.has(path.resolve(name)) || fileExists.call(host, name);
  host.readFile = (name) => virtual.get(path.resolve(name)) ?? readFile.call(host, name);
  const program = ts.createProgram([...virtual.keys()], options, host);
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...[...virtual.keys()].flatMap((f) => {
      const sf = program.getSourceFile(f)!;
      return [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)];
    }),
  ];
  return diagnostics.map((d) => {
    const where = d.file && d.start !== undefined ? `${path.relative(APP, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : '';
    return `${where}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

jest.setTimeout(120_000);

/** A broken app beside the tutorial, checked by the same program: the check can fail. */
const BROKEN = [
  "import { App } from 'cdktf';",
  "import { DqStack, Owner, NoSuchThing } from 'dqform';",
  'const app = new App();',
  "const stack = new DqStack(app, 'shop', { namespace: 42 });",
  "new Owner(stack, 'x', { titel: 'Data team' });",
  'void NoSuchThing;',
].join('\n');

let tutorial: Map<string, string>;
let diagnostics: string[];
beforeAll(() => {
  tutorial = tutorialFiles(README);
  diagnostics = typeCheck(new Map([...tutorial, ['broken/main.ts', BROKEN]]));
});

it('the tutorial has the app the user writes (main.ts, imports dqform, synthesises)', () => {
  expect([...tutorial.keys()]).toContain('main.ts');
  expect(tutorial.get('main.ts')).toMatch(/from 'dqform'/);
  expect(tutorial.get('main.ts')).toMatch(/app\.synth\(\)/);
  expect(tutorial.get('main.ts')).toMatch(/^stack\.removed\('dq_owner\.data_team', \{ destroy: false \}\);$/m);
});

it('the check finds a type error, an unknown export and a typo in props (it can fail)', () => {
  expect(diagnostics.filter((d) => d.startsWith('broken/'))).toEqual([
    expect.stringMatching(/^broken\/main\.ts:2: .*NoSuchThing/),
    expect.stringMatching(/^broken\/main\.ts:4: Type 'number' is not assignable to type 'string'/),
    expect.stringMatching(/^broken\/main\.ts:5: .*'titel'/),
  ]);
});

it('the README tutorial type-checks (strict), with dqform as this repository builds it', () => {
  expect(diagnostics.filter((d) => !d.startsWith('broken/'))).toEqual([]);
});

it('the tutorial app (step 2, before step 4 changes it) synthesises the stack it promises (shop, its owner, ownership and alert), and dqform validate passes it (step 3)', async () => {
  const main = tutorialFiles(README, false).get('main.ts')!;
  const js = ts.transpileModule(main, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } }).outputText;
  const modules: Record<string, unknown> = { dqform, cdktf, constructs };
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-tutorial-'));
  const saved = process.env.CDKTF_OUTDIR;
  try {
    process.env.CDKTF_OUTDIR = path.join(out, 'cdktf.out'); // the tutorial's `new App()` writes cdktf.out in its directory
    const run = new Function('require', 'exports', 'module', js) as (r: (m: string) => unknown, e: object, m: object) => void;
    run((m) => { if (!(m in modules)) throw new Error(`the tutorial imports ${m}, which it does not install`); return modules[m]; }, {}, {});
    const doc = JSON.parse(fs.readFileSync(path.join(out, 'cdktf.out', 'stacks', 'shop', 'cdk.tf.json'), 'utf8')) as { resource: Record<string, Record<string, unknown>> };
    expect(Object.fromEntries(Object.entries(doc.resource).map(([type, byName]) => [type, Object.keys(byName)]))).toEqual({
      dq_owner: ['data_team'],
      dq_ownership: ['team_owns_mart'],
      dq_alert: ['mart_issues'],
    });
    const printed: string[] = [];
    const io = { out: (t: string) => printed.push(t), err: (t: string) => printed.push(t), env: {}, cwd: out, isTty: false };
    expect({ code: await dqformCli(['validate'], io), printed }).toEqual({ code: 0, printed: expect.anything() });
    expect(printed.join('\n')).toMatch(/^Stack shop \(namespace "shop"\): 3 resource\(s\), valid\.$/m);
    expect(printed.join('\n')).not.toMatch(/warning/i); // the tutorial's first validate is clean
  } finally {
    if (saved === undefined) delete process.env.CDKTF_OUTDIR;
    else process.env.CDKTF_OUTDIR = saved;
    fs.rmSync(out, { recursive: true, force: true });
  }
});
