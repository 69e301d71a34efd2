/**
 * Function size budget (issue 24): no function in src/engine or src/cli (or src/plan, cut from
 * them) over 80 lines, none in src/kinds over 60. A long function is where behaviour hides from review and from the golden
 * tests; split it into named steps. Exceptions would be listed here with their reason (none today).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..');

/** Functions allowed over the budget, `file:name` -> why. */
const EXCEPTIONS: Record<string, string> = {};

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return files(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.generated.ts') ? [p] : [];
  });
}

/** Every function-like node of `text` longer than `limit` lines, as `name (N lines, line L)`. */
export function longFunctions(fileName: string, text: string, limit: number): { name: string; lines: number; line: number }[] {
  const src = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const out: { name: string; lines: number; line: number }[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isArrowFunction(n) || ts.isFunctionExpression(n) || ts.isConstructorDeclaration(n) || ts.isGetAccessor(n) || ts.isSetAccessor(n)) {
      const start = src.getLineAndCharacterOfPosition(n.getStart(src)).line;
      const end = src.getLineAndCharacterOfPosition(n.getEnd()).line;
      const lines = end - start + 1;
      if (lines > limit) {
        const named = (n as { name?: ts.Node }).name ?? (n.parent as { name?: ts.Node } | undefined)?.name;
        out.push({ name: named ? named.getText(src) : '<anonymous>', lines, line: start + 1 });
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
  return out;
}

describe('function size', () => {
  it.each([
    ['src/engine', 80],
    ['src/cli', 80],
    // the plan file and the public JSON, cut from the engine and the CLI: held to their budget
    ['src/plan', 80],
    ['src/kinds', 60],
  ])('no function in %s is over %i lines (split it into named steps, or list it in EXCEPTIONS with why)', (dir, limit) => {
    const over = files(path.join(ROOT, dir)).flatMap((f) => {
      const rel = path.relative(ROOT, f);
      return longFunctions(f, fs.readFileSync(f, 'utf8'), limit)
        .filter((x) => !EXCEPTIONS[`${rel}:${x.name}`])
        .map((x) => `${rel}:${x.line} ${x.name} is ${x.lines} lines`);
    });
    expect(over).toEqual([]);
  });

  it('the check finds a long function, arrow or method (it can fail)', () => {
    const body = Array.from({ length: 81 }, (_, i) => `  x += ${i};`).join('\n');
    const text = `function long() {\n  let x = 0;\n${body}\n}\nconst arrow = () => {\n${body}\n};\nclass C {\n  m() {\n${body}\n  }\n}\nfunction short() { return 1; }\n`;
    expect(longFunctions('x.ts', text, 80).map((x) => x.name)).toEqual(['long', 'arrow', 'm']);
    expect(longFunctions('x.ts', 'function short() { return 1; }\n', 80)).toEqual([]);
  });

  it('counts from the first line to the last: 81 lines are over 80, 80 are not; object-literal methods, function expressions and accessors too', () => {
    const of = (n: number): string => Array.from({ length: n - 2 }, (_, i) => `  x(${i});`).join('\n');
    const text = `function over() {\n${of(81)}\n}\nfunction at() {\n${of(80)}\n}\nconst o = {\n  m() {\n${of(81)}\n  },\n  f: function () {\n${of(81)}\n  },\n  get g() {\n${of(81)}\n  },\n};\n`;
    expect(longFunctions('x.ts', text, 80).map((x) => `${x.name} ${x.lines}`)).toEqual(['over 81', 'm 81', 'f 81', 'g 81']);
  });
});
