/**
 * Loading synth output: every refusal of manifestFromTerraformJson and loadSynthOutput word for
 * word (moved, import and removed blocks, lifecycle, resource bodies, stack directories, unreadable
 * or broken files), and what the good forms load into. (Written for the uncovered mutants of the
 * mutation run of src/engine, issue 12: most of these were reached only by spawned CLI tests.)
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadSiblingStacks, loadSynthOutput, manifestFromTerraformJson, ManifestError } from '../../src/engine/manifest';
import { loaderWarnings } from '../../src/engine/loader-warnings';
import { RESOURCE_TYPES } from '../../schemas/model/manifest';
import type { Diagnostic } from '../../schemas/model/plan';

const tf = (resources: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ provider: { dq: [{ namespace: 'shop' }] }, resource: resources, ...extra });
const owner = { dq_owner: { team: { title: 'T' } } };

function diagnostics(f: () => unknown): Diagnostic[] {
  try {
    f();
  } catch (e) {
    if (e instanceof ManifestError) return e.diagnostics;
    throw e;
  }
  throw new Error('expected a ManifestError');
}

test('moved, import and removed blocks: each refusal names the address and what to do', () => {
  const doc = tf(owner, {
    moved: [
      { from: 'x', to: 'dq_owner.team' },
      { from: 'dq_owner.team', to: 'dq_owner.team' },
    ],
    import: [{ to: 'dq_owner.nope', id: '' }],
    removed: [{ from: 'dq_owner.team' }, { from: 'bad' }, { from: 'dq_owner.g' }, { from: 'dq_owner.g' }],
  });
  expect(diagnostics(() => manifestFromTerraformJson(doc, { stack: 's' }))).toEqual([
    { severity: 'error', summary: 'dq_owner.g is declared removed twice', address: 'dq_owner.g', hint: 'Keep one removed declaration per address.' },
    { severity: 'error', summary: 'moved block needs "from" and "to" addresses; got {"from":"x","to":"dq_owner.team"}' },
    { severity: 'error', summary: 'moved block moves from dq_owner.team, which is still declared', address: 'dq_owner.team', hint: 'Remove the old construct or the moved block.' },
    { severity: 'error', summary: 'import block targets dq_owner.nope, which is not declared', address: 'dq_owner.nope', hint: 'Declare the construct the object is imported into.' },
    { severity: 'error', summary: 'import block for dq_owner.nope has no id', address: 'dq_owner.nope' },
    { severity: 'error', summary: 'dq_owner.team is declared and removed at once', address: 'dq_owner.team', hint: 'Delete the construct, or drop the removed declaration.' },
    { severity: 'error', summary: 'removed block needs a dq_* address; got "bad"' },
  ]);
});

test('resource bodies and lifecycle: what is refused and what is only warned about', () => {
  const doc = tf({ dq_owner: { a: { title: 'A', lifecycle: { ignore_changes: 'title' } }, b: { title: 'B', lifecycle: { ignore_changes: [1] } }, c: 5 }, aws_x: { y: {} }, aws_z: 3, dq_domain: 3 });
  expect(diagnostics(() => manifestFromTerraformJson(doc, { stack: 's', file: 'f.json' }))).toEqual([
    {
      severity: 'warning',
      summary: "1 resource of type aws_x is not dqform's and is ignored: aws_x.y",
      address: 'aws_x',
      hint: 'dqform plans and applies dq_* resources only: deploy aws_x with its own provider (cdktf deploy). Nothing to do if that is intended.',
    },
    {
      severity: 'warning',
      summary: "resource type aws_z is not dqform's and is ignored",
      address: 'aws_z',
      hint: 'dqform plans and applies dq_* resources only: deploy aws_z with its own provider (cdktf deploy). Nothing to do if that is intended.',
    },
    { severity: 'error', summary: 'resource.dq_domain must be an object of named resources', address: 'dq_domain' },
    {
      severity: 'error',
      summary: 'lifecycle.ignore_changes must be a list of attribute names, or "all"',
      address: 'dq_owner.a',
      field: 'lifecycle.ignore_changes',
      hint: 'Write ignore_changes: ["title"].',
    },
    { severity: 'error', summary: 'lifecycle.ignore_changes must list attribute names as strings', address: 'dq_owner.b', field: 'lifecycle.ignore_changes' },
    { severity: 'error', summary: 'resource body must be an object', address: 'dq_owner.c' },
  ]);
});

test("another provider's resources: one warning per type, its addresses sorted, five at most then how many more, the first one's construct path", () => {
  const buckets = Object.fromEntries(['g', 'c', 'a', 'f', 'b', 'e', 'd'].map((n) => [n, { bucket: n, '//': { metadata: { path: `s/bucket-${n}` } } }]));
  const m = manifestFromTerraformJson(tf({ ...owner, aws_s3_bucket: buckets, aws_iam_role: { r: {}, q: { '//': { metadata: { path: 's/q' } } } }, google_x: {} }), { stack: 's' });
  const hint = (t: string) => `dqform plans and applies dq_* resources only: deploy ${t} with its own provider (cdktf deploy). Nothing to do if that is intended.`;
  // an empty block ignores nothing: no warning for google_x
  expect(loaderWarnings(m)).toEqual([
    { severity: 'warning', summary: "2 resources of type aws_iam_role are not dqform's and are ignored: aws_iam_role.q, aws_iam_role.r", address: 'aws_iam_role', source: 's/q', hint: hint('aws_iam_role') },
    {
      severity: 'warning',
      summary: "7 resources of type aws_s3_bucket are not dqform's and are ignored: aws_s3_bucket.a, aws_s3_bucket.b, aws_s3_bucket.c, aws_s3_bucket.d, aws_s3_bucket.e and 2 more",
      address: 'aws_s3_bucket',
      source: 's/bucket-a',
      hint: hint('aws_s3_bucket'),
    },
  ]);
  expect(m.resources.map((r) => r.address)).toEqual(['dq_owner.team']);
  // exactly five: no "more"
  const five = manifestFromTerraformJson(tf({ ...owner, aws_x: { a: {}, b: {}, c: {}, d: {}, e: {} } }), { stack: 's' });
  expect(loaderWarnings(five).map((d) => d.summary)).toEqual(["5 resources of type aws_x are not dqform's and are ignored: aws_x.a, aws_x.b, aws_x.c, aws_x.d, aws_x.e"]);
});

test('a dq_ type dqform does not know is an error, not ignored as another provider\'s (a typo must not drop resources unseen)', () => {
  expect(diagnostics(() => manifestFromTerraformJson(tf({ ...owner, dq_ownr: { team2: { title: 'T2' } }, aws_x: { y: {} } }), { stack: 's' }))).toEqual([
    expect.objectContaining({ severity: 'warning', address: 'aws_x' }),
    { severity: 'error', summary: 'unknown resource type dq_ownr', address: 'dq_ownr', hint: `dqform manages ${RESOURCE_TYPES.join(', ')}.` },
  ]);
});

test('the good forms: construct path, depends_on, lifecycle in camelCase, "ALL", a single removed block', () => {
  const m = manifestFromTerraformJson(
    tf(
      {
        dq_owner: {
          a: { title: 'A', '//': { metadata: { path: 's/a' } }, depends_on: ['dq_owner.b'], lifecycle: { prevent_destroy: true, ignore_changes: ['contacts_x.y_z'] } },
          b: { title: 'B', lifecycle: { ignore_changes: 'ALL', prevent_destroy: 'yes' } },
        },
      },
      { removed: { from: 'dq_owner.z', lifecycle: { destroy: false }, id: 'owner-1' } },
    ),
    { stack: 's' },
  );
  expect(m.resources).toEqual([
    { address: 'dq_owner.a', type: 'dq_owner', name: 'a', config: { title: 'A' }, source: 's/a', lifecycle: { preventDestroy: true, ignoreChanges: ['contactsX.yZ'] }, dependsOn: ['dq_owner.b'] },
    { address: 'dq_owner.b', type: 'dq_owner', name: 'b', config: { title: 'B' }, lifecycle: { ignoreChanges: 'all' }, dependsOn: [] },
  ]);
  expect(m.removed).toEqual([{ from: 'dq_owner.z', destroy: false, id: 'owner-1' }]);
  expect(m.namespace).toBe('shop');
});

describe('loadSynthOutput', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-manifest-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const mk = (stack: string, content?: string) => {
    fs.mkdirSync(path.join(dir, 'stacks', stack), { recursive: true });
    if (content !== undefined) fs.writeFileSync(path.join(dir, 'stacks', stack, 'cdk.tf.json'), content);
  };

  test('no stacks: run synth first', () => {
    expect(diagnostics(() => loadSynthOutput(dir))).toEqual([{ severity: 'error', summary: `no synthesised stacks in ${dir}`, hint: 'Run `dqform synth` first.' }]);
  });

  test('several stacks: choose one, sorted', () => {
    mk('b');
    mk('a');
    expect(diagnostics(() => loadSynthOutput(dir))).toEqual([
      { severity: 'error', summary: `several stacks in ${dir}: a, b`, hint: 'Choose one with --stack (e.g. --stack a), or run every stack in turn with --all-stacks.' },
    ]);
  });

  test('one stack is taken without --stack; a stack without its file cannot be read', () => {
    mk('only', JSON.stringify(tf(owner)));
    expect(loadSynthOutput(dir).stack).toBe('only');
    mk('empty');
    expect(diagnostics(() => loadSynthOutput(dir, 'empty'))).toEqual([
      { severity: 'error', summary: `cannot read ${path.join(dir, 'stacks', 'empty', 'cdk.tf.json')}`, hint: 'Run `dqform synth` first, or check --stack.' },
    ]);
  });

  test('--stack names a stack the synth output holds, never a path out of it (issue 23)', () => {
    mk('a', JSON.stringify(tf(owner)));
    // a stack file outside the synth output, reachable by a relative path
    const outside = path.join(dir, 'elsewhere');
    fs.mkdirSync(outside, { recursive: true });
    fs.writeFileSync(path.join(outside, 'cdk.tf.json'), JSON.stringify(tf(owner)));
    for (const name of ['../elsewhere', '../../x', '..', `a/../../elsewhere`, 'nope']) {
      expect(diagnostics(() => loadSynthOutput(dir, name))).toEqual([
        { severity: 'error', summary: `no stack ${JSON.stringify(name)} in ${dir} (it holds a)`, hint: 'Name one of the synthesised stacks with --stack (e.g. --stack a).' },
      ]);
    }
    expect(loadSynthOutput(dir, 'a').stack).toBe('a');
  });

  test('broken JSON: re-run synth', () => {
    mk('a', '{bad');
    const [d] = diagnostics(() => loadSynthOutput(dir, 'a'));
    expect(d.summary).toMatch(new RegExp(`^${path.join(dir, 'stacks', 'a', 'cdk.tf.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON: `));
    expect(d.hint).toBe('Re-run `dqform synth`; do not edit synth output by hand.');
  });

  test('a file path: the stack is its directory name; siblings are the other stacks that load', () => {
    mk('b', JSON.stringify(tf(owner)));
    mk('a', '{bad');
    mk('c', JSON.stringify(tf(owner)));
    expect(loadSynthOutput(path.join(dir, 'stacks', 'b', 'cdk.tf.json')).stack).toBe('b');
    expect(loadSiblingStacks(dir, 'c').map((s) => [s.stack, s.namespace])).toEqual([['b', 'shop']]);
    expect(loadSiblingStacks(path.join(dir, 'nothing'), 'c')).toEqual([]);
  });
});

test('(added for the mutation run) region and base_url come from the dq provider block', () => {
  const m = manifestFromTerraformJson({ provider: { dq: { namespace: 'shop', region: 'us', base_url: 'https://x.example' } }, resource: owner }, { stack: 's' });
  expect([m.namespace, m.region, m.baseUrl]).toEqual(['shop', 'us', 'https://x.example']);
  expect(manifestFromTerraformJson(tf(owner), { stack: 's' })).not.toHaveProperty('region', expect.anything());
});
