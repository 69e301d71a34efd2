/**
 * lifecycle.ignore_changes names fields that exist: every way a name can be wrong gets its own
 * words (unknown at the top or inside a message, with a "did you mean"; a path into a leaf; an
 * empty segment), in Terraform's snake_case. (Written for the uncovered mutants of the mutation
 * run of src/engine, issue 12: only spawned CLI tests reached these messages.)
 */
import { deriveId } from '../../src/engine/identity';
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import { resolveManifest } from '../../src/engine/resolve';

const alert = (ignore: string[]) =>
  manifestFromTerraformJson(
    {
      provider: { dq: [{ namespace: 'shop' }] },
      resource: {
        dq_alert: {
          a: {
            name: 'a',
            issue_lifecycle: { trigger: { resolver_ql: 'with_tag("x")' }, targets: [{ slack: { channel: '#a' } }], settings: { severities: ['SEVERITY_ERROR'] } },
            lifecycle: { ignore_changes: ignore },
            '//': { metadata: { path: 'shop/a' } },
          },
        },
      },
    },
    { stack: 'shop' },
  );

const TOP = 'Name a field of dq_alert: fqn, incident_lifecycle, is_disabled, issue_lifecycle, name, schema_change, template.';

test.each([
  [
    'issue_lifecycle.setings',
    'lifecycle.ignore_changes[0]: "issue_lifecycle.setings" is not a field of dq_alert (no "setings" in issue_lifecycle); did you mean "issue_lifecycle.settings"?',
    'Name a field of dq_alert under issue_lifecycle: owner, settings, targets, trigger.',
  ],
  ['nme', 'lifecycle.ignore_changes[0]: "nme" is not a field of dq_alert; did you mean "name"?', TOP],
  ['zzzzzzzz', 'lifecycle.ignore_changes[0]: "zzzzzzzz" is not a field of dq_alert', TOP],
  ['name.x', 'lifecycle.ignore_changes[0]: "name.x" goes inside name, which has no fields to ignore separately', 'Ignore the whole field instead.'],
  ['issue_lifecycle..x', 'lifecycle.ignore_changes[0]: "issue_lifecycle..x" is not a field of dq_alert', 'Ignore the whole field instead.'],
  [
    'issue_lifecycle.settings.severities.x',
    'lifecycle.ignore_changes[0]: "issue_lifecycle.settings.severities.x" goes inside issue_lifecycle.settings.severities, which has no fields to ignore separately',
    'Ignore the whole field instead.',
  ],
])('%s', (name, summary, hint) => {
  expect(resolveManifest(alert([name]), 'demo').diagnostics).toEqual([
    { severity: 'error', summary, address: 'dq_alert.a', source: 'shop/a', field: 'lifecycle.ignore_changes[0]', hint },
  ]);
});

test('fields that exist, at any depth, are fine; each wrong one is reported at its own index', () => {
  expect(resolveManifest(alert(['name', 'issue_lifecycle.settings.severities', 'issue_lifecycle.targets']), 'demo').diagnostics).toEqual([]);
  expect(resolveManifest(alert(['name', 'nme']), 'demo').diagnostics.map((d) => d.field)).toEqual(['lifecycle.ignore_changes[1]']);
});

test('(added for the mutation run) one info line lists what import and moved blocks hold, counted by kind', () => {
  const m = manifestFromTerraformJson(
    {
      provider: { dq: [{ namespace: 'shop' }] },
      resource: { dq_owner: { a: { title: 'A' }, b: { title: 'B' }, c: { title: 'C' } } },
      moved: [{ from: 'dq_owner.old', to: 'dq_owner.a' }],
      import: [
        { to: 'dq_owner.b', id: 'owner-x' },
        { to: 'dq_owner.c', id: 'owner-y' },
      ],
    },
    { stack: 'shop' },
  );
  expect(resolveManifest(m, 'demo').diagnostics.filter((d) => d.severity === 'info')).toEqual([
    {
      severity: 'info',
      summary: '1 moved and 2 import block(s) hold the identity of their objects: keep them, or pin the id/fqn (dqform keeps no state; without either, a later plan replaces the object)',
      detail: `dq_owner.a: moved from dq_owner.old, or pin id = "${deriveId('demo', 'shop', 'dq_owner', 'old')}"; dq_owner.b: imported "owner-x", or pin id = "owner-x"; dq_owner.c: imported "owner-y", or pin id = "owner-y"`,
    },
  ]);
});
