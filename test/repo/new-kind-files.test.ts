/**
 * Issue 24: adding a kind is its folder plus at most four hand-written files outside it: the wire
 * schema with its operation table (schemas/platform/<x>.ts), the model file
 * (schemas/model/kinds/<x>.ts), the emulator route module (src/emulator/routes/<x>.ts) and the
 * construct (constructs/resources.ts). The client service is derived from the operation table
 * (src/client/derived.ts), so no file of src/client names the kind. For each kind converted,
 * the product files naming it (generated files, docs, JSON, tests and its folder excluded) are
 * exactly those four; docs/architecture.md shows the same command for one kind.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** Where the search looks: the product's hand-written sources (generated files, docs and JSON aside). */
const PRODUCT = ['schemas', 'src', 'constructs', 'tools', 'bin', ':!*.generated.ts', ':!constructs/generated', ':!*.json', ':!*.md'];

/** git grep -l over the product outside `folder`, tracked and untracked files alike (`noIndex`: a plain folder, for the self-test). */
function grepFiles(cwd: string, flags: readonly string[], patterns: readonly string[], folder: string, noIndex: boolean): string[] {
  const args = ['grep', ...(noIndex ? ['--no-index'] : ['--untracked']), '-l', ...flags, ...patterns.flatMap((w) => ['-e', w]), '--', ...PRODUCT, `:!${folder}`];
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch (e) {
    // git grep exits 1 when nothing matches
    if ((e as { status?: number }).status === 1) return [];
    throw e;
  }
}

/**
 * Hand-written product files outside `folder` naming any of `words` (whole words: the kind's
 * type however it is written, quoted, in a template or as a bare key of a hand-kept table), the
 * folder's path (an import of one of its modules: `./saved-view/yaml`) or, given its client
 * `member`, a use of it (`client.integrations.list()`, where the bare word is too common to search).
 */
function filesNaming(folder: string, words: readonly string[], member?: string, cwd = ROOT, noIndex = false): string[] {
  const named = grepFiles(cwd, ['-w', '-F'], words, folder, noIndex);
  const importing = grepFiles(cwd, ['-F'], [`${folder.split('/').pop()}/`], folder, noIndex);
  const calling = member ? grepFiles(cwd, ['-E'], [`\\.${member}\\b`], folder, noIndex) : [];
  return [...new Set([...named, ...importing, ...calling])].sort();
}

/** How many files of `folder` or generated files name `word`. */
function inFolderOrGenerated(folder: string, word: string): number {
  try {
    return execFileSync('git', ['grep', '-l', '-w', '-F', '-e', word, '--', folder, '*.generated.ts'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
}

/** The words naming a kind: its type, construct, descriptor, handler, record, desired and YAML shapes, wire object, operation table and client member. */
const CONVERTED = [
  {
    type: 'dq_saved_view',
    folder: 'src/kinds/saved-view',
    member: 'savedViews',
    words: ['dq_saved_view', 'SavedView', 'savedViewDescriptor', 'savedViewsHandler', 'savedViewKindRecord', 'DesiredSavedView', 'YamlSavedView', 'savedViewsOperations', 'savedViews'],
    files: ['constructs/resources.ts', 'schemas/model/kinds/saved-views.ts', 'schemas/platform/saved-views.ts', 'src/emulator/routes/saved-views.ts'],
  },
  {
    type: 'dq_check_categorisation_rule',
    folder: 'src/kinds/check-categorisation-rule',
    member: 'categorisationRules',
    words: ['dq_check_categorisation_rule', 'CheckCategorisationRule', 'CategorisationRule', 'checkCategorisationRuleDescriptor', 'checkCategorisationRulesHandler', 'checkCategorisationRuleKindRecord', 'DesiredCategorisationRule', 'YamlCategorisationRule', 'categorisationRulesOperations', 'categorisationRules'],
    files: ['constructs/resources.ts', 'schemas/model/kinds/categorisation-rules.ts', 'schemas/platform/categorisation-rules.ts', 'src/emulator/routes/categorisation-rules.ts'],
  },
  {
    type: 'dq_integration',
    folder: 'src/kinds/integration',
    member: 'integrations',
    words: ['dq_integration', 'Integration', 'integrationDescriptor', 'integrationsHandler', 'integrationKindRecord', 'DesiredIntegration', 'YamlIntegration', 'integrationsOperations'],
    files: ['constructs/resources.ts', 'schemas/model/kinds/integrations.ts', 'schemas/platform/integrations.ts', 'src/emulator/routes/integrations.ts'],
  },
] as const;

describe('a new kind: its folder plus at most four files outside it', () => {
  test.each(CONVERTED.map((k) => [k.type, k] as const))('%s', (_type, k) => {
    const found = filesNaming(k.folder, k.words, k.member);
    expect(found).toEqual([...k.files].sort());
    expect(found.length).toBeLessThanOrEqual(4);
    // every word names something (in the folder or a generated file at least): none is a dead search
    for (const w of k.words) expect([w, filesNaming('nothing-excluded', [w]).length + inFolderOrGenerated(k.folder, w)]).not.toEqual([w, 0]);
  });

  test('the search sees src/client: a kind with a hand-written service is found there', () => {
    const found = filesNaming('src/kinds/sql-test', ['dq_sql_test', 'SqlTestsService', 'sqlTests']);
    expect(found).toContain('src/client/services/sql-tests.ts');
  });

  test('the search sees a fifth file however it names the kind: a hand-kept table in the engine or the CLI, an import of the folder', () => {
    const k = CONVERTED[0];
    const dir = mkdtempSync(join(tmpdir(), 'new-kind-'));
    const fifth: Record<string, string> = {
      'src/engine/a.ts': 'export const LABELS = { dq_saved_view: "saved view" };\n',
      'src/engine/b.ts': 'export const PRUNED = ["dq_saved_view"];\n',
      'src/cli/c.ts': 'export const ADDRESS = `dq_saved_view.${name}`;\n',
      'src/cli/d.ts': "export { savedViewYaml } from '../kinds/saved-view/yaml';\n",
      'src/kinds/e.ts': "import * as v from './saved-view/import';\n",
      'src/engine/f.ts': 'export const unrelated = "dq_saved_views_total";\n',
      'src/engine/g.ts': 'export const all = (client: C) => client.integrations.list();\n',
    };
    try {
      for (const [f, text] of Object.entries(fifth)) {
        mkdirSync(join(dir, dirname(f)), { recursive: true });
        writeFileSync(join(dir, f), text);
      }
      expect(filesNaming(k.folder, k.words, k.member, dir, true)).toEqual(['src/cli/c.ts', 'src/cli/d.ts', 'src/engine/a.ts', 'src/engine/b.ts', 'src/kinds/e.ts']);
      const i = CONVERTED[2];
      expect(filesNaming(i.folder, i.words, i.member, dir, true)).toEqual(['src/engine/g.ts']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
