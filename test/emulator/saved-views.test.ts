/**
 * Saved views v1 over real HTTP (spec part 4 "SCOPE_SAVED_VIEW_*" and note 8; wire-facts 10):
 * strict bodies, upsert merge and clear, etags, hard delete, who may write (edit: own views; admin:
 * all), who may see (owner, grantees, workspace visibility, admin), List's filters and pins.
 * Each test runs against both encodings of the emulator (names and omitted unset fields; numbers
 * and emitted unset fields, the gateway's), reading responses as the client does.
 *
 * @gateway-exempt runs both encodings itself (describe.each over the emulator's wire modes)
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { decodeRead } from '../../schemas/platform/wire';
import { BatchGetSavedViewsResponse, ListSavedViewsResponse, SavedViewResponse } from '../../schemas/platform/saved-views';
import { call, expectStatus, tokenFor } from './core-helpers';

const MODES = [
  { name: 'names, unset fields omitted', marshal: 'omit', enums: 'names' },
  { name: 'numbers, unset fields emitted (gateway)', marshal: 'emit-unpopulated', enums: 'numbers' },
] as const;

describe.each(MODES)('saved views v1 ($name)', (mode) => {
  let emu: RunningEmulator;
  const tok: Record<string, string> = {};

  beforeAll(async () => {
    emu = await startEmulator({ marshal: mode.marshal, enums: mode.enums, port: 0, seed: 'empty' });
    emu.app.addCredential('view-editor', 'sec', ['SCOPE_SAVED_VIEW_EDIT', 'SCOPE_SAVED_VIEW_READ'], 'demo');
    emu.app.addCredential('view-admin', 'sec', ['SCOPE_SAVED_VIEW_ADMIN', 'SCOPE_SAVED_VIEW_READ'], 'demo');
    emu.app.addCredential('view-reader', 'sec', ['SCOPE_SAVED_VIEW_READ'], 'demo');
    for (const c of ['view-editor', 'view-admin', 'view-reader']) tok[c] = await tokenFor(emu.url, c, 'sec');
    tok.admin = await tokenFor(emu.url, 'demo-admin');
  });
  afterAll(async () => {
    await emu?.close();
  });

  const api = (path: string, body: unknown, who = 'view-editor') => call(emu.url, 'POST', `/api/saved-views/v1${path}`, { token: tok[who], body });
  const read = <S extends z.ZodType>(schema: S, body: unknown): z.output<S> => {
    const r = decodeRead(schema, body);
    if (!r.success) throw r.error;
    return r.data;
  };
  async function upsert(v: Record<string, unknown>, who = 'view-editor') {
    const r = await api('', v, who);
    expect(r.status).toBe(200);
    return read(SavedViewResponse, r.body).view;
  }
  async function batchGet(ids: string[], who = 'view-editor') {
    const r = await api('/batch-get', { ids }, who);
    expect(r.status).toBe(200);
    return read(BatchGetSavedViewsResponse, r.body).views;
  }
  async function list(body: Record<string, unknown>, who = 'view-editor') {
    const r = await api('/list', body, who);
    expect(r.status).toBe(200);
    return read(ListSavedViewsResponse, r.body).views;
  }

  it('creates (title required), leaves omitted fields unchanged, clears empty ones, replaces grants; etags guard', async () => {
    const id = randomUUID();
    const missing = await api('', { id, description: 'no title' });
    expect(missing.status).toBe(400);
    expect(expectStatus(missing.body, 3).message).toMatch(/upsert/);
    expect(JSON.stringify(missing.body)).toContain('title is required when creating a saved view');

    const v = await upsert({ id, title: 'PII', description: 'd', context: 'issues', selection: { resolverQl: 'with_tag("pii")' }, config: { columns: ['a', 'b'], sortBy: 'a' }, grants: { grants: [{ groupId: 'g', permission: 2 }] } });
    expect(v).toMatchObject({ id, title: 'PII', description: 'd', context: 'issues', visibility: 'VISIBILITY_PRIVATE', ownerId: 'client:view-editor', grants: [{ groupId: 'g', permission: 'PERMISSION_EDIT' }] });
    expect(v.etag).toBe(`W/"${id}-1"`);

    const renamed = await upsert({ id, title: 'PII 2', etag: v.etag });
    expect(renamed).toMatchObject({ description: 'd', context: 'issues', selection: { resolverQl: 'with_tag("pii")' }, config: { columns: ['a', 'b'], sortBy: 'a' }, grants: [{ groupId: 'g' }], createdAt: v.createdAt });

    const cleared = await upsert({ id, description: '', selection: {}, config: {}, grants: { grants: [] }, visibility: 'VISIBILITY_WORKSPACE' });
    expect(cleared.description ?? '').toBe('');
    expect(cleared.selection).toBeUndefined();
    expect(cleared.config).toBeUndefined();
    expect(cleared.grants).toEqual([]);
    expect(cleared.visibility).toBe('VISIBILITY_WORKSPACE');

    const stale = await api('', { id, title: 'late', etag: v.etag });
    expect(stale.status).toBe(409);
    expectStatus(stale.body, 10);
  });

  it('is strict: an undeclared key, a wrapped object, a non-UUID id and too many grants are 400', async () => {
    const id = randomUUID();
    for (const body of [{ id, title: 't', owner: 'me' }, { view: { id, title: 't' } }, { id: 'not-a-uuid', title: 't' }, { id, title: 't', grants: { grants: Array.from({ length: 201 }, (_, i) => ({ groupId: `g${i}`, permission: 1 })) } }, { id, title: 't', grants: [{ groupId: 'g', permission: 1 }] }]) {
      const r = await api('', body);
      expect(r.status).toBe(400);
      expectStatus(r.body, 3);
    }
    for (const ids of [['nope'], [], [id, id]]) expect((await api('/batch-get', { ids })).status).toBe(400);
    expect((await api('/list', { filter: 'x' })).status).toBe(400);
  });

  it('edit scope writes its own views, admin scope any; read scopes write nothing', async () => {
    const mine = randomUUID();
    const theirs = randomUUID();
    await upsert({ id: mine, title: 'mine' }, 'view-editor');
    await upsert({ id: theirs, title: 'theirs', visibility: 'VISIBILITY_WORKSPACE' }, 'view-admin');

    const denied = await api('', { id: theirs, title: 'taken over' }, 'view-editor');
    expect(denied.status).toBe(403);
    expect(expectStatus(denied.body, 7).message).toContain('SCOPE_SAVED_VIEW_ADMIN');
    expect((await api('/delete', { id: theirs }, 'view-editor')).status).toBe(403);
    expect((await api('', { id: randomUUID(), title: 'x' }, 'view-reader')).status).toBe(403);

    expect((await upsert({ id: mine, title: 'fixed by an admin' }, 'view-admin')).ownerId).toBe('client:view-editor');
    // a grant with PERMISSION_EDIT lets the grantee (by its client id) write it
    await upsert({ id: theirs, grants: { grants: [{ userEmail: 'view-editor', permission: 'PERMISSION_EDIT' }] } }, 'view-admin');
    expect((await upsert({ id: theirs, description: 'co-edited' }, 'view-editor')).ownerId).toBe('client:view-admin');
  });

  it('answers only the views the caller may see: its own, shared with it, the workspace\'s; admin all; List filters by relationship, context and pin', async () => {
    const own = randomUUID();
    const priv = randomUUID();
    const shared = randomUUID();
    const open = randomUUID();
    await upsert({ id: own, title: 'own', context: 'catalog' }, 'view-editor');
    await upsert({ id: priv, title: 'private' }, 'view-admin');
    await upsert({ id: shared, title: 'shared', grants: { grants: [{ userEmail: 'view-editor', permission: 'PERMISSION_VIEW' }] } }, 'view-admin');
    await upsert({ id: open, title: 'open', visibility: 'VISIBILITY_WORKSPACE', context: 'catalog' }, 'view-admin');

    expect(Object.keys(await batchGet([own, priv, shared, open, randomUUID()])).sort()).toEqual([own, shared, open].sort());
    expect(Object.keys(await batchGet([own, priv, shared, open], 'view-admin')).sort()).toEqual([own, priv, shared, open].sort());
    // an invisible view cannot be deleted (nor told apart from a missing one)
    expectStatus((await api('/delete', { id: priv })).body, 5);

    const ids = async (body: Record<string, unknown>) => (await list(body)).map((v) => v.id).filter((i) => ([own, priv, shared, open] as string[]).includes(i)).sort();
    expect(await ids({})).toEqual([own, shared, open].sort());
    expect(await ids({ scopes: ['RELATIONSHIP_OWNED'] })).toEqual([own]);
    expect(await ids({ scopes: [2] })).toEqual([shared]);
    expect(await ids({ scopes: ['RELATIONSHIP_WORKSPACE', 'RELATIONSHIP_OWNED'] })).toEqual([own, open].sort());
    expect(await ids({ context: 'catalog' })).toEqual([own, open].sort());

    // pins are the caller's own state
    expect((await api('/set-pin', { id: open, pinned: true })).status).toBe(200);
    expect(await ids({ onlyPinned: true })).toEqual([open]);
    expect((await batchGet([open]))[open].pinned).toBe(true);
    expect((await batchGet([open], 'view-admin'))[open].pinned ?? false).toBe(false);
  });

  it('deletes for good with the etag; a missing id is NOT_FOUND; the id\'s version counter continues', async () => {
    const id = randomUUID();
    const v = await upsert({ id, title: 'short-lived' });
    const v2 = await upsert({ id, title: 'short-lived 2' });
    const stale = await api('/delete', { id, etag: v.etag });
    expect(stale.status).toBe(409);
    expectStatus(stale.body, 10);
    expect((await api('/delete', { id, etag: v2.etag })).status).toBe(200);
    expect(await batchGet([id])).toEqual({});
    expectStatus((await api('/delete', { id })).body, 5);
    expect((await upsert({ id, title: 'again' })).etag).toBe(`W/"${id}-3"`);
  });
});
