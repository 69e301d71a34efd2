/**
 * test/lifecycle/README.md lists every scenario with the command that runs it (issue 21): every
 * test of test/lifecycle/*.test.ts is selected by exactly one row's command (its file, and its
 * `-t` pattern, a regular expression matched as jest matches it: case-insensitive, against the
 * describe names and the test name joined by spaces), and every row's command selects a test.
 * Test names are read from the files' syntax tree; an `it.each`/`test.each`/`describe.each` name
 * is its template (`%s`, `$name` kept as written), and so is a template literal (`${x}` kept).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..');
const DIR = path.join(ROOT, 'test', 'lifecycle');
const NOTE = fs.readFileSync(path.join(DIR, 'README.md'), 'utf8');

const TESTS = new Set(['it', 'test']);
const BLOCKS = new Set(['describe']);

/** `it`, `it.each(...)`, `it.only`, `test.skip.each(...)`, ... -> 'it' | 'test' | 'describe', or undefined. */
function callee(e: ts.Expression): string | undefined {
  if (ts.isIdentifier(e)) return TESTS.has(e.text) || BLOCKS.has(e.text) ? e.text : undefined;
  if (ts.isPropertyAccessExpression(e)) return callee(e.expression);
  if (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && e.expression.name.text === 'each') return callee(e.expression.expression);
  return undefined;
}

/** The name as written: a string, or a template literal with its `${...}` kept as text. */
function nameOf(arg: ts.Expression | undefined, sf: ts.SourceFile, where: string): string {
  if (arg && (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg))) return arg.text;
  if (arg && ts.isTemplateExpression(arg)) return arg.getText(sf).slice(1, -1);
  throw new Error(`${where}: a test or describe whose name is not a literal; give it a literal name so that the README can list it`);
}

/** Every test's full name (describe names and test name joined by a space) in `file`. */
function testNames(file: string): string[] {
  const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const names: string[] = [];
  const visit = (node: ts.Node, prefix: string[]): void => {
    if (ts.isCallExpression(node)) {
      const kind = callee(node.expression);
      if (kind) {
        const where = `${path.relative(ROOT, file)}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`;
        const name = nameOf(node.arguments[0], sf, where);
        if (TESTS.has(kind)) names.push([...prefix, name].join(' '));
        else node.arguments.slice(1).forEach((a) => visit(a, [...prefix, name]));
        return;
      }
    }
    ts.forEachChild(node, (c) => visit(c, prefix));
  };
  visit(sf, []);
  return names;
}

interface Row { line: string; file: string; pattern?: string }

const COMMAND = /`npx jest (?:--maxWorkers=1 )?(test\/[\w./-]+\.test\.ts)(?: -t (?:'([^']+)'|"([^"]+)"))?`/g;

/** The commands of the note's tables: `npx jest [--maxWorkers=1] test/.../F.test.ts [-t 'P']`, any number per row. */
function rows(): Row[] {
  return NOTE.split('\n')
    .filter((l) => l.startsWith('| ') && l.includes('npx jest'))
    .flatMap((line) => {
      const found = [...line.matchAll(COMMAND)].map((m) => ({ line, file: m[1], pattern: m[2] ?? m[3] }));
      if (found.length !== (line.match(/npx jest/g) ?? []).length) throw new Error(`test/lifecycle/README.md: a command that is not \`npx jest --maxWorkers=1 test/<dir>/<file> -t '<name>'\`: ${line}`);
      return found;
    });
}

/** The rows for the lifecycle file `file` (a name in test/lifecycle). */
const lifecycleRows = () => rows().filter((r) => r.file.startsWith('test/lifecycle/')).map((r) => ({ ...r, file: r.file.slice('test/lifecycle/'.length) }));

/** Whether `row` selects the test `name` of `file`, as `npx jest <file> -t <pattern>` does. */
const selects = (row: Row, file: string, name: string) => row.file === file && (row.pattern === undefined || new RegExp(row.pattern, 'i').test(name));

const FILES = fs.readdirSync(DIR).filter((f) => f.endsWith('.test.ts')).sort();

it('reads the tests of every lifecycle file (the parser works)', () => {
  expect(FILES).toEqual(expect.arrayContaining(['platforms.test.ts', 'owners.test.ts', 'drift.test.ts']));
  const platforms = testNames(path.join(DIR, 'platforms.test.ts'));
  expect(platforms.length).toBeGreaterThanOrEqual(12);
  expect(platforms).toContain('a saved plan applied in another workspace of the same platform is refused, nothing written');
  expect(testNames(path.join(DIR, 'owners.test.ts'))).toContainEqual(expect.stringMatching(/^renaming an owner construct with %s: /));
});

it('parses each/template/nested names as jest would show them before substitution', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-names-'));
  try {
    const f = path.join(tmp, 'x.test.ts');
    fs.writeFileSync(f, "describe('a', () => { it.each([1])('b %s', () => {}); describe.each([2])(`c ${x}`, () => { test.skip('d', () => {}); }); });\nit.only(\"e\", () => {});\n");
    expect(testNames(f)).toEqual(['a b %s', 'a c ${x} d', 'e']);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

it.each(FILES)('test/lifecycle/%s: every test is selected by exactly one command of the README', (file) => {
  const all = lifecycleRows();
  const unlisted: string[] = [];
  const twice: string[] = [];
  for (const name of testNames(path.join(DIR, file))) {
    const by = all.filter((r) => selects(r, file, name));
    if (by.length === 0) unlisted.push(name);
    if (by.length > 1) twice.push(`${name} <- ${by.map((r) => r.pattern ?? '(whole file)').join(', ')}`);
  }
  expect({ unlisted, twice }).toEqual({ unlisted: [], twice: [] });
});

it('every command of the README selects at least one test of its file; a command without -t only for a lifecycle file of one test', () => {
  const stale: string[] = [];
  for (const r of rows()) {
    const file = path.join(ROOT, r.file);
    const names = fs.existsSync(file) ? testNames(file) : [];
    if (!names.some((n) => selects(r, r.file, n))) stale.push(`${r.file} -t ${r.pattern ?? '(none)'}: selects no test`);
    if (r.pattern === undefined && r.file.startsWith('test/lifecycle/') && names.length > 1) stale.push(`${r.file}: ${names.length} tests, give each its -t`);
  }
  expect(stale).toEqual([]);
});
