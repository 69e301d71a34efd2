/**
 * `dq_saved_view` in process, exact outputs: the comparable form, the write message, the create
 * that refuses to overwrite a view made meanwhile, reads, deletes and updates against a recording
 * fake client (test/handlers/fake-client.ts), every validation message and hint, import and YAML
 * forms. Complements saved-view.test.ts.
 */
import { NotFoundError } from '../../src/client/errors';
import { deriveId } from '../../src/engine/identity';
import { canonicalSavedView as canonical, savedViewsHandler as h, savedViewWrite } from '../../src/kinds/saved-view/handler';
import { savedViewImport } from '../../src/kinds/saved-view/import';
import { WriteConflictError } from '../../src/kinds/shared/support';
import { validateSavedView as validate } from '../../src/kinds/saved-view/validate';
import { savedViewYaml } from '../../src/kinds/saved-view/yaml';
import { savedViewDescriptor } from '../../src/kinds/saved-view/descriptor';
import { fakeClient } from '../handlers/fake-client';
import { qlOnly, tsHelpers } from './fixtures/render';
import { changesOf } from '../handlers/change';

const ctx = { workspace: 'demo', namespace: 'shop' };
const ID = deriveId('demo', 'shop', 'dq_saved_view', 'v');
const change = changesOf('dq_saved_view.v', ID);
const full = {
  title: 'V',
  description: 'd',
  context: 'issues',
  selection: { resolverQl: 'with_tag("pii")' },
  config: { columns: ['a'] },
  visibility: 'VISIBILITY_WORKSPACE',
  grants: [{ groupId: 'g', permission: 'PERMISSION_EDIT' }],
};

describe('comparable form', () => {
  it('drops the platform\'s fields, private visibility and empty selection/config; keeps the rest', () => {
    expect(canonical({ id: 'x', etag: 'e', createdAt: 't', updatedAt: 't', ownerId: 'o', pinned: true, title: 'V', visibility: 'VISIBILITY_PRIVATE', selection: {}, config: {} })).toEqual({ title: 'V' });
    expect(canonical(full)).toEqual(full);
    expect(canonical({ title: 'V', visibility: 'VISIBILITY_SHARED' })).toEqual({ title: 'V', visibility: 'VISIBILITY_SHARED' });
  });

  it('sorts grants by their canonical JSON (whatever the key order), leaving the input alone', () => {
    const grants = [
      { userEmail: 'b@x.io', permission: 'PERMISSION_VIEW' },
      { permission: 'PERMISSION_EDIT', groupId: 'g' },
      { groupId: 'a', permission: 'PERMISSION_VIEW' },
    ];
    expect(canonical({ title: 'V', grants }).grants).toEqual([
      { groupId: 'a', permission: 'PERMISSION_VIEW' },
      { groupId: 'g', permission: 'PERMISSION_EDIT' },
      { permission: 'PERMISSION_VIEW', userEmail: 'b@x.io' },
    ]);
    expect(grants[0]).toEqual({ userEmail: 'b@x.io', permission: 'PERMISSION_VIEW' });
    expect(canonical({ title: 'V', grants: [] })).toEqual({ title: 'V' });
  });

  it('fromLive and fromDesired are the comparable form', () => {
    expect(h.fromLive({ ...full, ownerId: 'o', pinned: false })).toEqual(full);
    expect(h.fromDesired({ ...full, visibility: 'VISIBILITY_PRIVATE' })).toEqual({ ...full, visibility: undefined });
  });
});

describe('write message', () => {
  it('passes every declared field through', () => {
    expect(savedViewWrite(change('update', full))).toEqual({ id: ID, ...full, grants: { grants: full.grants } });
  });
});

describe('writes (recording fake client)', () => {
  it('create reads the id first, then upserts every field without an etag', async () => {
    const { client, calls } = fakeClient({ 'savedViews.batchGet': {}, 'savedViews.upsert': { etag: `W/"${ID}-1"` } });
    await h.create(client, change('create', { title: 'V' }), ctx);
    expect(calls).toEqual([
      { op: 'savedViews.batchGet', args: [[ID]] },
      { op: 'savedViews.upsert', args: [{ id: ID, title: 'V', description: '', context: '', selection: {}, config: {}, visibility: 'VISIBILITY_PRIVATE', grants: { grants: [] } }] },
    ]);
  });

  it('create over a view made meanwhile (whatever case the platform keys it by) is a conflict naming its owner, and writes nothing', async () => {
    const { client, calls } = fakeClient({ 'savedViews.batchGet': { [ID.toUpperCase()]: { id: ID, title: 'Theirs', ownerId: 'user:ada' } } });
    const err = await h.create(client, change('create', { title: 'V' }), ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WriteConflictError);
    expect((err as WriteConflictError).address).toBe('dq_saved_view.v');
    expect((err as Error).message).toBe(
      `conflict: the saved view ${JSON.stringify(ID)} was made by someone else (user:ada) since the plan: dqform did not overwrite it. Plan again and review what live state holds now`,
    );
    expect(calls.map((c) => c.op)).toEqual(['savedViews.batchGet']);
    const noOwner = fakeClient({ 'savedViews.batchGet': { [ID]: { id: ID, title: 'Theirs' } } });
    await expect(h.create(noOwner.client, change('create', { title: 'V' }), ctx)).rejects.toThrow('was made by someone else (unknown owner) since the plan');
  });

  it('update upserts with the plan etag; an answer out of step is a conflict naming the saved view', async () => {
    const { client, calls } = fakeClient({ 'savedViews.upsert': { etag: `W/"${ID}-3"` } });
    await h.update(client, change('update', full, { etag: `W/"${ID}-2"` }), ctx);
    expect(calls).toEqual([{ op: 'savedViews.upsert', args: [{ id: ID, ...full, grants: { grants: full.grants } }, `W/"${ID}-2"`] }]);
    await expect(h.update(client, change('update', full, { etag: `W/"${ID}-1"` }), ctx)).rejects.toThrow(`conflict: the saved view ${JSON.stringify(ID)} was written by someone else`);
  });

  it('delete sends the plan etag; NOT_FOUND is success', async () => {
    const { client, calls } = fakeClient({ 'savedViews.delete': new NotFoundError({ method: 'DELETE', path: '/x', status: 404 }) });
    await h.delete(client, change('delete', null, { etag: `W/"${ID}-4"` }), ctx);
    expect(calls).toEqual([{ op: 'savedViews.delete', args: [ID, `W/"${ID}-4"`] }]);
  });
});

describe('reads (recording fake client)', () => {
  const other = deriveId('demo', 'other', 'dq_saved_view', 'v');
  const views = [
    { id: other, title: 'Other' },
    { id: ID, title: 'Mine', etag: `W/"${ID}-2"` },
  ];

  it('lists pages of 1000 and keeps the namespace\'s views and those asked for', async () => {
    const { client, calls } = fakeClient({ 'savedViews.list': views });
    expect((await h.read(client, { ...ctx, keys: [], owns: (id) => id === ID })).map((o) => [o.key, o.etag])).toEqual([[ID, `W/"${ID}-2"`]]);
    expect(calls).toEqual([{ op: 'savedViews.list', args: [1000] }]);
    expect((await h.read(client, { ...ctx, keys: [other] })).map((o) => o.key)).toEqual([other]);
  });

  it('keysOnly reads by BatchGet; import lists every view', async () => {
    const { client, calls } = fakeClient({ 'savedViews.batchGet': { [ID]: views[1] }, 'savedViews.list': views });
    expect((await h.read(client, { ...ctx, keys: [ID], keysOnly: true })).map((o) => o.key)).toEqual([ID]);
    expect(calls).toEqual([{ op: 'savedViews.batchGet', args: [[ID]] }]);
    expect((await h.listAll!(client, async () => [])).map((o) => o.key)).toEqual([other, ID]);
  });
});

describe('validation: messages and hints', () => {
  it('selection without ResolverQL (also an empty one)', () => {
    const p = { field: 'selection.resolverQl', message: 'selection is set without selection.resolverQl', hint: 'give the ResolverQL of what the view shows, or drop selection (the view then shows everything)' };
    expect(validate({ title: 'V', selection: { resolverQl: '' } }, {})).toEqual([p]);
    expect(validate({ title: 'V', selection: {} }, {})).toEqual([p]);
    expect(validate({ title: 'V' }, {})).toEqual([]);
  });

  it('sortDescending needs sortBy (false does not)', () => {
    expect(validate({ title: 'V', config: { sortDescending: true } }, {})).toEqual([
      { field: 'config.sortDescending', message: 'config.sortDescending is set without config.sortBy', hint: 'name the column to sort by in config.sortBy, or drop sortDescending' },
    ]);
    expect(validate({ title: 'V', config: { sortDescending: false } }, {})).toEqual([]);
    expect(validate({ title: 'V', config: { sortDescending: true, sortBy: 'a' } }, {})).toEqual([]);
  });

  it('sortBy and groupBy must be shown columns; with no columns declared anything goes', () => {
    expect(validate({ title: 'V', config: { columns: [], groupBy: 'g' } }, {})).toEqual([
      { field: 'config.groupBy', message: 'config.groupBy names "g", which is not one of config.columns (none)', hint: 'add "g" to config.columns or pick one of them' },
    ]);
    expect(validate({ title: 'V', config: { columns: ['a', 'b'], sortBy: 'c' } }, {})).toEqual([
      { field: 'config.sortBy', message: 'config.sortBy names "c", which is not one of config.columns (a, b)', hint: 'add "c" to config.columns or pick one of them' },
    ]);
    expect(validate({ title: 'V', config: { sortBy: 'x', groupBy: 'y' } }, {})).toEqual([]);
  });

  it('a user or group granted twice, by index; emails compare case-insensitively', () => {
    const hint = 'keep one grant per user or group, with the permission it should have';
    expect(
      validate({ title: 'V', grants: [{ groupId: 'g', permission: 'PERMISSION_EDIT' }, { userEmail: 'A@x.io', permission: 'PERMISSION_EDIT' }, { groupId: 'g', permission: 'PERMISSION_VIEW' }, { userEmail: 'a@X.io', permission: 'PERMISSION_VIEW' }, { groupId: 'h' }] }, {}),
    ).toEqual([
      { field: 'grants[2]', message: 'grants[2] grants group g again (grants[0] already does)', hint },
      { field: 'grants[3]', message: 'grants[3] grants user a@x.io again (grants[1] already does)', hint },
    ]);
  });

  it('PERMISSION_VIEW on a workspace view is redundant; not on a private one, nor PERMISSION_EDIT', () => {
    const grants = [{ groupId: 'g', permission: 'PERMISSION_EDIT' }, { userEmail: 'u@x.io', permission: 'PERMISSION_VIEW' }];
    expect(validate({ title: 'V', visibility: 'VISIBILITY_WORKSPACE', grants }, {})).toEqual([
      { field: 'grants[1].permission', message: 'grants[1] grants PERMISSION_VIEW on a VISIBILITY_WORKSPACE view, which everyone may see already', hint: 'drop the grant, or grant PERMISSION_EDIT' },
    ]);
    expect(validate({ title: 'V', visibility: 'VISIBILITY_PRIVATE', grants }, {})).toEqual([]);
    expect(validate({ title: 'V', visibility: 'VISIBILITY_WORKSPACE' }, {})).toEqual([]);
  });
});

describe('descriptor, import and YAML', () => {
  it('the descriptor: a derived, tagged id guarded by etags', () => {
    expect(savedViewDescriptor).toMatchObject({ type: 'dq_saved_view', label: 'saved view', identity: { key: 'id', derivedUuid: true }, ownership: 'idTag', concurrency: 'etag', construct: { className: 'SavedView' } });
    expect(savedViewDescriptor.construct).toEqual({ className: 'SavedView' });
  });

  it('import drops the owner, the reader\'s pin and private visibility, keeping everything else', () => {
    expect(savedViewImport.fromLive!({ id: ID, ownerId: 'o', pinned: true, visibility: 'VISIBILITY_PRIVATE', title: 'V', grants: [] })).toStrictEqual({ id: ID, title: 'V', grants: [] });
    expect(savedViewImport.fromLive!({ id: ID, visibility: 'VISIBILITY_WORKSPACE', title: 'V' })).toStrictEqual({ id: ID, visibility: 'VISIBILITY_WORKSPACE', title: 'V' });
  });

  it('TypeScript shows a ResolverQL selection as its text, ordered; another selection stays', () => {
    const { h: helpers } = tsHelpers([]);
    const out = savedViewImport.ts!({ title: 'V', selection: { resolverQl: 'with_tag("a")', query: { parts: [] } } }, helpers);
    expect(out).toEqual({ selection: 'with_tag("a")', title: 'V' });
    expect(Object.keys(out)).toEqual(['selection', 'title']);
    expect(savedViewImport.ts!({ title: 'V', selection: { query: { parts: [] } } }, helpers)).toEqual({ selection: { query: { parts: [] } }, title: 'V' });
    expect(savedViewImport.ts!({ title: 'V', selection: 'x' }, helpers)).toEqual({ selection: 'x', title: 'V' });
  });

  it('YAML shows a lone ResolverQL selection as text; the binding reads it back', () => {
    const y = (x: Record<string, unknown>) => {
      savedViewImport.yaml!(x, { refName: () => undefined, qlOnly });
      return x;
    };
    expect(y({ title: 'V', selection: { resolverQl: 'with_tag("a")' } })).toStrictEqual({ title: 'V', selection: 'with_tag("a")' });
    expect(y({ title: 'V', selection: { resolverQl: 'q', query: {} } })).toStrictEqual({ title: 'V', selection: { resolverQl: 'q', query: {} } });
    expect(y({ title: 'V' })).toStrictEqual({ title: 'V' });
    const named = () => '';
    expect(savedViewYaml({ title: 'V', selection: 'with_tag("a")' }, named)).toStrictEqual({ title: 'V', selection: { resolverQl: 'with_tag("a")' } });
    expect(savedViewYaml({ title: 'V', selection: { resolverQl: 'q' } }, named)).toStrictEqual({ title: 'V', selection: { resolverQl: 'q' } });
    expect(savedViewYaml({ title: 'V' }, named)).toStrictEqual({ title: 'V' });
  });
});
