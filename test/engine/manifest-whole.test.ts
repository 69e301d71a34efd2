/**
 * manifestFromTerraformJson: the refusals not covered word for word elsewhere, asserted whole
 * (the document, the namespace, unknown dq_ types, count/for_each, moved blocks, the schema's
 * own errors), the message of a ManifestError, and the provider block's settings. (Issue 23:
 * test/constructs, where credentials_from is tested, is not in the mutation run.)
 */
import { manifestFromTerraformJson, manifestHash, ManifestError } from '../../src/engine/manifest';
import { RESOURCE_TYPES } from '../../schemas/model/manifest';
import type { Diagnostic } from '../../schemas/model/plan';

const tf = (resource: Record<string, unknown>, extra: Record<string, unknown> = {}, provider: Record<string, unknown> = { namespace: 'shop' }) => ({ provider: { dq: [provider] }, resource, ...extra });

function refusal(f: () => unknown): ManifestError {
  try {
    f();
  } catch (e) {
    if (e instanceof ManifestError) return e;
    throw e;
  }
  throw new Error('expected a ManifestError');
}
const diags = (f: () => unknown): Diagnostic[] => refusal(f).diagnostics;

test('not an object: names the file (or the stack) and says to synthesise again', () => {
  expect(diags(() => manifestFromTerraformJson(42, { stack: 's' }))).toEqual([{ severity: 'error', summary: 'stack s: not a Terraform JSON object', hint: 'Re-run `dqform synth`.' }]);
  expect(diags(() => manifestFromTerraformJson([], { stack: 's', file: 'out/cdk.tf.json' }))).toEqual([{ severity: 'error', summary: 'out/cdk.tf.json: not a Terraform JSON object', hint: 'Re-run `dqform synth`.' }]);
});

test('no namespace: how to declare one; a namespace that is not a string is none', () => {
  const want = [
    { severity: 'error', summary: 'stack s: the stack has no namespace', hint: 'Declare the stack with `new DqStack(app, id, { namespace })` (provider "dq" needs a namespace).' },
    // (the schema's own word on the empty namespace follows)
    { severity: 'error', summary: expect.stringMatching(/^stack s: namespace: /) },
  ];
  expect(diags(() => manifestFromTerraformJson({ resource: {} }, { stack: 's' }))).toEqual(want);
  expect(diags(() => manifestFromTerraformJson(tf({}, {}, { namespace: 7 }), { stack: 's' }))).toEqual(want);
  // the provider block as an object instead of a list is read too
  expect(manifestFromTerraformJson({ provider: { dq: { namespace: 'shop' } } }, { stack: 's' }).namespace).toBe('shop');
});

test('an unknown dq_ type lists the types dqform manages; count, for_each, provisioner and connection are refused per key', () => {
  const e = refusal(() =>
    manifestFromTerraformJson(tf({ dq_widget: { w: {} }, dq_owner: { a: { title: 'A', count: 2, for_each: ['x'], '//': { metadata: { path: 's/a' } } } } }), { stack: 's' }),
  );
  expect(e.diagnostics).toEqual([
    { severity: 'error', summary: '"count" is not supported by dqform', address: 'dq_owner.a', source: 's/a', field: 'count', hint: 'Declare one construct per object.' },
    { severity: 'error', summary: '"for_each" is not supported by dqform', address: 'dq_owner.a', source: 's/a', field: 'for_each', hint: 'Declare one construct per object.' },
    { severity: 'error', summary: 'unknown resource type dq_widget', address: 'dq_widget', hint: `dqform manages ${RESOURCE_TYPES.join(', ')}.` },
  ]);
  // the error's message: one line per diagnostic, the address first
  expect(e.message).toBe(['dq_owner.a: "count" is not supported by dqform', 'dq_owner.a: "for_each" is not supported by dqform', 'dq_widget: unknown resource type dq_widget'].join('\n'));
  expect(e.name).toBe('ManifestError');
});

test('a ManifestError message carries the detail in parentheses, and no address prefix without one', () => {
  const e = new ManifestError([
    { severity: 'error', summary: 'one', detail: 'why' },
    { severity: 'error', summary: 'two', address: 'dq_owner.a' },
  ]);
  expect(e.message).toBe('one (why)\ndq_owner.a: two');
});

test('moved blocks: to an address not declared, or with a malformed address', () => {
  expect(diags(() => manifestFromTerraformJson(tf({ dq_owner: { b: { title: 'B' } } }, { moved: [{ from: 'dq_owner.a', to: 'dq_owner.c' }, { from: 'dq_owner.a' }] }), { stack: 's' }))).toEqual([
    { severity: 'error', summary: 'moved block points to dq_owner.c, which is not declared', address: 'dq_owner.c', hint: 'Move to an address that exists in this stack.' },
    { severity: 'error', summary: 'moved block needs "from" and "to" addresses; got {"from":"dq_owner.a","to":""}' },
  ]);
  // a single moved block as an object, and a good one
  const m = manifestFromTerraformJson(tf({ dq_owner: { b: { title: 'B' } } }, { moved: { from: 'dq_owner.a', to: 'dq_owner.b' }, import: { to: 'dq_owner.b', id: 'x' } }), { stack: 's' });
  expect([m.moved, m.imports]).toEqual([[{ from: 'dq_owner.a', to: 'dq_owner.b' }], [{ to: 'dq_owner.b', id: 'x' }]]);
});

test('the schema\'s own errors name the file and the field', () => {
  const d = diags(() => manifestFromTerraformJson(tf({}, {}, { namespace: 'shop', region: 'us', credentials_from: 'DQ_X' }), { stack: 's', file: 'f.json' }));
  expect(d).toHaveLength(1);
  expect(d[0].severity).toBe('error');
  expect(d[0].summary).toMatch(/^f\.json: credentialsFrom: \S/);
});

test('the provider block: region, base_url, grpc_endpoint and credentials_from (in camelCase); absent ones stay absent', () => {
  const m = manifestFromTerraformJson(
    tf({}, {}, { namespace: 'shop', region: 'eu', base_url: 'https://b.example', grpc_endpoint: 'g.example:443', credentials_from: { client_id: 'DQ_P_CLIENT_ID', client_secret: 'DQ_P_CLIENT_SECRET' } }),
    { stack: 's' },
  );
  expect([m.region, m.baseUrl, m.grpcEndpoint, m.credentialsFrom]).toEqual(['eu', 'https://b.example', 'g.example:443', { clientId: 'DQ_P_CLIENT_ID', clientSecret: 'DQ_P_CLIENT_SECRET' }]);
  const bare = manifestFromTerraformJson(tf({}, {}, { namespace: 'shop', region: 3, base_url: false, grpc_endpoint: null, credentials_from: null }), { stack: 's' });
  expect([bare.region, bare.baseUrl, bare.grpcEndpoint, bare.credentialsFrom]).toEqual([undefined, undefined, undefined, undefined]);
});

test('lifecycle: prevent_destroy only when true; ignore_changes "all"; depends_on as strings; metadata path as source', () => {
  const m = manifestFromTerraformJson(
    tf({ dq_owner: { a: { title: 'A', lifecycle: { prevent_destroy: 'true', ignore_changes: 'all' }, depends_on: ['dq_owner.b'], '//': { metadata: { path: 7 } } }, b: { title: 'B', '//': 'x' } } }),
    { stack: 's' },
  );
  expect(m.resources.map((r) => [r.address, r.lifecycle, r.dependsOn, r.source, r.config])).toEqual([
    ['dq_owner.a', { ignoreChanges: 'all' }, ['dq_owner.b'], undefined, { title: 'A' }],
    ['dq_owner.b', {}, [], undefined, { title: 'B' }],
  ]);
});

test('removed blocks: destroy is true unless the lifecycle says false; an empty id is none', () => {
  const m = manifestFromTerraformJson(tf({}, { removed: [{ from: 'dq_owner.a', lifecycle: {} }, { from: 'dq_owner.b', id: '', lifecycle: { destroy: 'no' } }, { from: 'dq_owner.c', lifecycle: { destroy: false } }] }), { stack: 's' });
  expect(m.removed).toEqual([
    { from: 'dq_owner.a', destroy: true },
    { from: 'dq_owner.b', destroy: true },
    { from: 'dq_owner.c', destroy: false },
  ]);
});

test('the manifest hash is a sha256 of its canonical JSON: key order does not matter, content does', () => {
  const a = manifestFromTerraformJson(tf({ dq_owner: { a: { title: 'A', description: 'd' } } }), { stack: 's' });
  const b = manifestFromTerraformJson(tf({ dq_owner: { a: { description: 'd', title: 'A' } } }), { stack: 's' });
  const c = manifestFromTerraformJson(tf({ dq_owner: { a: { title: 'B', description: 'd' } } }), { stack: 's' });
  expect(manifestHash(a)).toMatch(/^[0-9a-f]{64}$/);
  expect(manifestHash(a)).toBe(manifestHash(b));
  expect(manifestHash(a)).not.toBe(manifestHash(c));
});
