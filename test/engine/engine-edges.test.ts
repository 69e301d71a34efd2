/**
 * Small engine branches the broader suites pass through without looking: the manifest's
 * moved/import/removed blocks as read from a synth output (every refusal, word for word), the
 * YAML loader's namespace hint (only for the namespace), the known-after-apply effects of a
 * change whose dependency the same plan creates, and the one info line listing the blocks that
 * hold identities. In-process, no server.
 */
import { ManifestError, manifestFromTerraformJson } from '../../src/engine/manifest';
import { knownAfterApply } from '../../src/engine/phases/effects';
import { resolveManifest } from '../../src/engine/resolve';
import { deriveId } from '../../src/engine/identity';
import { manifestFromYaml } from '../../src/engine/yaml';

const diagnosticsOf = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    if (e instanceof ManifestError) return e.diagnostics;
    throw e;
  }
  throw new Error('no ManifestError');
};

describe('manifestFromTerraformJson: moved, import and removed blocks', () => {
  const doc = (blocks: Record<string, unknown>) => ({ provider: { dq: [{ namespace: 'team' }] }, resource: { dq_owner: { a: { title: 'A' } } }, ...blocks });
  const read = (blocks: Record<string, unknown>) => manifestFromTerraformJson(doc(blocks), { stack: 'team' });

  test('read as lists (one block or several), with their defaults', () => {
    const m = read({
      moved: { from: 'dq_owner.old', to: 'dq_owner.a' },
      import: [{ to: 'dq_owner.a', id: 'x-1' }, 'not a block'],
      removed: [{ from: 'dq_owner.gone' }, { from: 'dq_owner.kept', lifecycle: { destroy: false }, id: 'k-1' }, { from: 'dq_owner.blank', id: '' }],
    });
    expect(m.moved).toEqual([{ from: 'dq_owner.old', to: 'dq_owner.a' }]);
    expect(m.imports).toEqual([{ to: 'dq_owner.a', id: 'x-1' }]);
    expect(m.removed).toEqual([
      { from: 'dq_owner.gone', destroy: true },
      { from: 'dq_owner.kept', destroy: false, id: 'k-1' },
      { from: 'dq_owner.blank', destroy: true },
    ]);
  });

  test.each<[string, Record<string, unknown>, unknown]>([
    ['an import block without a target', { import: [{ id: 'x' }] }, [{ severity: 'error', summary: 'import block targets , which is not declared', address: '', hint: 'Declare the construct the object is imported into.' }]],
    ['an import block without an id', { import: { to: 'dq_owner.a' } }, [{ severity: 'error', summary: 'import block for dq_owner.a has no id', address: 'dq_owner.a' }]],
    [
      'an import block into an undeclared address',
      { import: { to: 'dq_owner.b', id: 'x' } },
      [{ severity: 'error', summary: 'import block targets dq_owner.b, which is not declared', address: 'dq_owner.b', hint: 'Declare the construct the object is imported into.' }],
    ],
    ['a moved block without "to"', { moved: [{ from: 'dq_owner.b' }] }, [{ severity: 'error', summary: 'moved block needs "from" and "to" addresses; got {"from":"dq_owner.b","to":""}' }]],
    ['a moved block without "from"', { moved: [{ to: 'dq_owner.a' }] }, [{ severity: 'error', summary: 'moved block needs "from" and "to" addresses; got {"from":"","to":"dq_owner.a"}' }]],
    ['a moved block to an undeclared address', { moved: [{ from: 'dq_owner.b', to: 'dq_owner.c' }] }, [{ severity: 'error', summary: 'moved block points to dq_owner.c, which is not declared', address: 'dq_owner.c', hint: 'Move to an address that exists in this stack.' }]],
    ['a moved block from a declared address', { moved: [{ from: 'dq_owner.a', to: 'dq_owner.a' }] }, [{ severity: 'error', summary: 'moved block moves from dq_owner.a, which is still declared', address: 'dq_owner.a', hint: 'Remove the old construct or the moved block.' }]],
    ['an address removed twice', { removed: [{ from: 'dq_owner.c', lifecycle: { destroy: false } }, { from: 'dq_owner.c' }] }, [{ severity: 'error', summary: 'dq_owner.c is declared removed twice', address: 'dq_owner.c', hint: 'Keep one removed declaration per address.' }]],
    ['a removed block of another provider', { removed: [{ from: 'aws_s3_bucket.b' }] }, [{ severity: 'error', summary: 'removed block needs a dq_* address; got "aws_s3_bucket.b"' }]],
    ['a removed block without an address', { removed: [{}] }, [{ severity: 'error', summary: 'removed block needs a dq_* address; got ""' }]],
    ['a declared address removed', { removed: [{ from: 'dq_owner.a' }] }, [{ severity: 'error', summary: 'dq_owner.a is declared and removed at once', address: 'dq_owner.a', hint: 'Delete the construct, or drop the removed declaration.' }]],
  ])('%s is refused, saying so', (_why, blocks, want) => {
    expect(diagnosticsOf(() => read(blocks))).toEqual(want);
  });
});

describe('manifestFromYaml: the namespace hint', () => {
  test('a missing or wrong namespace gets the hint to start the file with one', () => {
    expect(diagnosticsOf(() => manifestFromYaml('owners: {}\n', { file: 'f.yaml' }))).toEqual([
      { severity: 'error', summary: 'namespace: required, missing', source: 'f.yaml:1:1', field: 'namespace', hint: 'Start the file with `namespace: <your namespace>`.' },
    ]);
    expect(diagnosticsOf(() => manifestFromYaml('namespace: 5\n', { file: 'f.yaml' }))).toEqual([
      { severity: 'error', summary: 'namespace: Invalid input: expected string, received number', source: 'f.yaml:1:12', field: 'namespace', hint: 'Start the file with `namespace: <your namespace>`.' },
    ]);
  });
  test('another top-level section in error does not', () => {
    expect(diagnosticsOf(() => manifestFromYaml('namespace: team\nowners: 5\n', { file: 'f.yaml' }))).toEqual([{ severity: 'error', summary: 'Invalid input: expected record, received number', source: 'f.yaml:2:9' }]);
  });
});

describe('knownAfterApply', () => {
  const empty = { monitorsToCreate: [], monitorsToDelete: [], activeMonitors: 0, settingsChanges: [], baselineResets: [], skipped: [], testsToCreate: [], testsToUpdate: [], testsToDelete: [], testsToKeep: [], losesHistory: false, cascade: [] };
  test("the kind's preview source; one dependency or several, as given", () => {
    expect(knownAfterApply('dq_sql_test_deployment_rule', ['dq_owner.b', 'dq_owner.a'])).toEqual({
      ...empty,
      source: 'sql-test-overview',
      afterApply: 'it depends on dq_owner.b, dq_owner.a, which this plan creates; the platform can preview it only once they exist',
    });
    expect(knownAfterApply('dq_monitor_deployment_rule', ['dq_data_product.p'])).toEqual({
      ...empty,
      source: 'deploy-overview',
      afterApply: 'it depends on dq_data_product.p, which this plan creates; the platform can preview it only once that exists',
    });
  });
  test('a kind without a preview of its own: the deploy overview', () => {
    expect(knownAfterApply('dq_owner', ['dq_owner.a']).source).toBe('deploy-overview');
    expect(knownAfterApply('no_such_kind', ['x']).source).toBe('deploy-overview');
  });
});

describe('resolveManifest: the blocks that hold an identity, in one info line', () => {
  const SUMMARY = ' hold the identity of their object%: keep them, or pin the id/fqn (dqform keeps no state; without either, a later plan replaces the object)';
  test('moved and import blocks of unpinned objects, listed by address with the pin that would replace them', () => {
    const y = `namespace: team
owners:
  zeta: { title: Z }
  alpha: { title: A }
  mid: { title: M }
alerts:
  al: { name: X, incidentLifecycle: { targets: [{ slack: { channel: "#a" } }], settings: { states: [STATE_OPEN] } } }
import:
  - { to: dq_owner.zeta, id: 0a0a0000-0000-4000-8000-000000000001 }
  - { to: dq_alert.al, id: ui.made }
moved:
  - { from: dq_owner.old, to: dq_owner.alpha }
`;
    expect(resolveManifest(manifestFromYaml(y, { file: 'f.yaml' }), 'demo').diagnostics).toEqual([
      {
        severity: 'info',
        summary: `1 moved and 2 import block(s)${SUMMARY.replace('%', 's')}`,
        detail: `dq_alert.al: imported "ui.made", or pin fqn = "ui.made"; dq_owner.alpha: moved from dq_owner.old, or pin id = "${deriveId('demo', 'team', 'dq_owner', 'old')}"; dq_owner.zeta: imported "0a0a0000-0000-4000-8000-000000000001", or pin id = "0a0a0000-0000-4000-8000-000000000001"`,
      },
    ]);
  });
  test('one object; a pinned one needs no block', () => {
    const y = `namespace: team
owners:
  zeta: { title: Z, id: 0a0a0000-0000-4000-8000-000000000001 }
  alpha: { title: A }
moved:
  - { from: dq_owner.old, to: dq_owner.alpha }
  - { from: dq_owner.older, to: dq_owner.zeta }
`;
    expect(resolveManifest(manifestFromYaml(y, { file: 'f.yaml' }), 'demo').diagnostics).toEqual([
      { severity: 'info', summary: `1 moved block(s)${SUMMARY.replace('%', '')}`, detail: `dq_owner.alpha: moved from dq_owner.old, or pin id = "${deriveId('demo', 'team', 'dq_owner', 'old')}"` },
    ]);
    expect(resolveManifest(manifestFromYaml('namespace: team\nowners:\n  a: { title: A }\n', { file: 'f.yaml' }), 'demo').diagnostics).toEqual([]);
  });
});
