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
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** Hand-written product files outside `folder` naming any of `words` (whole words). */
function filesNaming(folder: string, words: readonly string[]): string[] {
  const args = ['grep', '-l', '-w', '-F', ...words.flatMap((w) => ['-e', w]), '--', 'schemas', 'src', 'constructs', 'tools', ':!*.generated.ts', ':!constructs/generated', ':!*.json', ':!*.md', `:!${folder}`];
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean).sort();
  } catch (e) {
    // git grep exits 1 when nothing matches
    if ((e as { status?: number }).status === 1) return [];
    throw e;
  }
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
    words: ["'dq_saved_view'", 'SavedView', 'savedViewDescriptor', 'savedViewsHandler', 'savedViewKindRecord', 'DesiredSavedView', 'YamlSavedView', 'savedViewsOperations', 'savedViews'],
    files: ['constructs/resources.ts', 'schemas/model/kinds/saved-views.ts', 'schemas/platform/saved-views.ts', 'src/emulator/routes/saved-views.ts'],
  },
  {
    type: 'dq_check_categorisation_rule',
    folder: 'src/kinds/check-categorisation-rule',
    words: ["'dq_check_categorisation_rule'", 'CheckCategorisationRule', 'CategorisationRule', 'checkCategorisationRuleDescriptor', 'checkCategorisationRulesHandler', 'checkCategorisationRuleKindRecord', 'DesiredCategorisationRule', 'YamlCategorisationRule', 'categorisationRulesOperations', 'categorisationRules'],
    files: ['constructs/resources.ts', 'schemas/model/kinds/categorisation-rules.ts', 'schemas/platform/categorisation-rules.ts', 'src/emulator/routes/categorisation-rules.ts'],
  },
  {
    type: 'dq_integration',
    folder: 'src/kinds/integration',
    words: ["'dq_integration'", 'Integration', 'integrationDescriptor', 'integrationsHandler', 'integrationKindRecord', 'DesiredIntegration', 'YamlIntegration', 'integrationsOperations'],
    files: ['constructs/resources.ts', 'schemas/model/kinds/integrations.ts', 'schemas/platform/integrations.ts', 'src/emulator/routes/integrations.ts'],
  },
] as const;

describe('a new kind: its folder plus at most four files outside it', () => {
  test.each(CONVERTED.map((k) => [k.type, k] as const))('%s', (_type, k) => {
    const found = filesNaming(k.folder, k.words);
    expect(found).toEqual([...k.files].sort());
    expect(found.length).toBeLessThanOrEqual(4);
    // every word names something (in the folder or a generated file at least): none is a dead search
    for (const w of k.words) expect([w, filesNaming('nothing-excluded', [w]).length + inFolderOrGenerated(k.folder, w)]).not.toEqual([w, 0]);
  });

  test('the search sees src/client: a kind with a hand-written service is found there', () => {
    const found = filesNaming('src/kinds/sql-test', ["'dq_sql_test'", 'SqlTestsService', 'sqlTests']);
    expect(found).toContain('src/client/services/sql-tests.ts');
  });
});
