/**
 * manifestFromYaml's syntax errors: each YAML error is one line (the parser's first line only),
 * with the fix-the-syntax hint, and errors come in file order whatever their kind.
 * (Mutants of src/engine/yaml.ts, issue 23.)
 */
import { ManifestError } from '../../src/engine/manifest';
import { manifestFromYaml } from '../../src/engine/yaml';

function diagnostics(text: string) {
  try {
    manifestFromYaml(text, { file: 'dqform.yaml' });
  } catch (e) {
    if (e instanceof ManifestError) return e.diagnostics;
    throw e;
  }
  throw new Error('expected a ManifestError');
}

describe('YAML syntax errors', () => {
  test('one-line summaries starting with "YAML: ", with the hint, sorted by position', () => {
    expect(diagnostics('a: 1\na: 2\nb: [1, 2\n')).toEqual([
      { severity: 'error', summary: 'YAML: Map keys must be unique', source: 'dqform.yaml:2:1', hint: 'Fix the YAML syntax.' },
      { severity: 'error', summary: 'YAML: Flow sequence in block collection must be sufficiently indented and end with a ]', source: 'dqform.yaml:4:1', hint: 'Fix the YAML syntax.' },
    ]);
  });
});
