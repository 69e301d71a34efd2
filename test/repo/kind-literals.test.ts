/**
 * The engine and the CLI hold no kind literals (issue 24): a fact about a kind (its type string,
 * what it references, how it is named, read or rendered) lives in its folder under src/kinds/,
 * and the engine and the CLI ask the descriptors. Comments may name kinds; code may not.
 * src/plan (the plan file and JSON, cut from the engine and the CLI) is held to the same.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const ROOT = path.join(__dirname, '..', '..');

/**
 * The string and template literals (parts) of `text` that begin with `dq_`, and the identifiers
 * that do (a hand-kept table's bare key, `{ dq_alert: ... }`), as `line: literal`.
 */
export function kindLiterals(text: string): string[] {
  const file = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (n: ts.Node): void => {
    if ((ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n) || ts.isIdentifier(n)) && n.text.startsWith('dq_')) {
      out.push(`${file.getLineAndCharacterOfPosition(n.getStart()).line + 1}: ${n.getText()}`);
    }
    ts.forEachChild(n, visit);
  };
  visit(file);
  return out;
}

describe('no kind literals in the engine and the CLI', () => {
  it('finds the literals it looks for (and not comments)', () => {
    expect(kindLiterals("// 'dq_alert'\n/** `dq_owner.x` */\nconst a = 'dq_alert';\nconst b = \"dq_owner\";\nconst c = `dq_domain.${x}`;\nconst d = 'not dq_';")).toEqual([
      "3: 'dq_alert'",
      '4: "dq_owner"',
      '5: `dq_domain.${',
    ]);
  });

  it('finds a kind written as a bare key of a hand-kept table, or reached as a member', () => {
    expect(kindLiterals('const LABEL = { dq_alert: "alert", dq_owner() { return 1; } };\ntype T = { dq_domain?: string };\nconst x = LABEL.dq_alert;')).toEqual([
      '1: dq_alert',
      '1: dq_owner',
      '2: dq_domain',
      '3: dq_alert',
    ]);
  });

  it.each(['src/engine', 'src/cli', 'src/plan'])('%s holds none', (dir) => {
    const found: string[] = [];
    // recursive: the command modules live in src/cli/commands/
    for (const f of (fs.readdirSync(path.join(ROOT, dir), { recursive: true }) as string[]).filter((x) => x.endsWith('.ts')).sort()) {
      for (const l of kindLiterals(fs.readFileSync(path.join(ROOT, dir, f), 'utf8'))) found.push(`${dir}/${f}:${l}`);
    }
    expect(found).toEqual([]);
  });
});
