/**
 * Queries v1 over real HTTP: TranslateResolverQl (canonical text and query model, bad text
 * with its offset), ResolveQuery (ResolverQL or query, paging over several pages), scopes.
 *
 * @gateway-exempt pins its own encoding: asserts the emulator's exact response bodies
 */
import { startEmulator } from '../../src/emulator';
import type { RunningEmulator } from '../../src/emulator';
import { ListEntitiesResponse, ResolveQueryResponse, TranslateResolverQlResponse, type Entity, type EntityIdentifier } from '../../schemas/platform/entities';
import { call, expectStatus, tokenFor } from './core-helpers';

/** These tests assert the emulator's exact response encoding: pinned to names and omitted unset fields (test/emulator/marshal.test.ts covers the gateway's other encodings). */
const EXACT_ENCODING = { marshal: 'omit', enums: 'names' } as const;

let emu: RunningEmulator;
let reader: string;
let entities: Entity[];

beforeAll(async () => {
  emu = await startEmulator({ ...EXACT_ENCODING, port: 0, seed: 'demo' });
  emu.app.addCredential('no-entity-read', 'secret-x', ['SCOPE_ISSUES_READ'], 'demo');
  reader = await tokenFor(emu.url, 'demo-reader');
  const r = await call(emu.url, 'GET', '/api/entities/v1?pagination.pageSize=1000', { token: reader });
  entities = ListEntitiesResponse.parse(r.body).entities;
});
afterAll(async () => {
  await emu.close();
});

const key = (id: EntityIdentifier) => JSON.stringify(id);

async function resolveAll(body: Record<string, unknown>, pageSize: number) {
  const ids: EntityIdentifier[] = [];
  let cursor = '';
  let pages = 0;
  let rendered: string | undefined;
  for (;;) {
    const r = await call(emu.url, 'POST', '/api/queries/v1/resolve', { token: reader, body: { ...body, pagination: { pageSize, ...(cursor ? { cursor } : {}) } } });
    expect(r.status).toBe(200);
    const page = ResolveQueryResponse.parse(r.body);
    expect(page.pageInfo?.count).toBe(page.entityIds.length);
    ids.push(...page.entityIds);
    rendered = page.renderedResolverQl;
    pages++;
    cursor = page.pageInfo?.lastId ?? '';
    if (!cursor) return { ids, pages, rendered };
  }
}

describe('TranslateResolverQl', () => {
  test.each([
    {
      text: 'and( with_type("table"), or(with_name("orders"), with_name("payments")) )',
      rendered: 'and(with_type("table"),or(with_name("orders"),with_name("payments")))',
      reason: 'whitespace dropped, canonical text',
    },
    { text: 'with_annotation("tier", ["1","2"])', rendered: 'with_annotation("tier",["1","2"])', reason: 'annotation with a value list' },
  ])('$reason', async ({ text, rendered }) => {
    const r = await call(emu.url, 'POST', '/api/queries/v1/translate-resolver-ql', { token: reader, body: { resolverQl: text } });
    expect(r.status).toBe(200);
    const t = TranslateResolverQlResponse.parse(r.body);
    expect(t.renderedResolverQl).toBe(rendered);
    expect(t.query.parts.length).toBeGreaterThan(0);
  });

  test('the query of with_name is a withNameSearch part', async () => {
    const r = await call(emu.url, 'POST', '/api/queries/v1/translate-resolver-ql', { token: reader, body: { resolverQl: 'with_name("orders")' } });
    expect(r.body.query).toEqual({ parts: [{ withNameSearch: { searchQuery: 'orders' } }] });
  });

  // issue 22: with_columns is in the vendor's own examples (upstream-facts): the platform accepts it.
  // The demo catalog models no columns, so it selects nothing here.
  test('with_columns is accepted: canonical text, an unsupported part carrying it; resolves to nothing', async () => {
    const r = await call(emu.url, 'POST', '/api/queries/v1/translate-resolver-ql', { token: reader, body: { resolverQl: 'with_columns( "email" )' } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ renderedResolverQl: 'with_columns("email")', query: { parts: [{ unsupported: { queryJson: '{"resolverQl":"with_columns(\\"email\\")"}' } }] } });
    const res = await call(emu.url, 'POST', '/api/queries/v1/resolve', { token: reader, body: { resolverQl: 'or(with_columns("email"),with_name("orders"))' } });
    expect(res.status).toBe(200);
    const named = await call(emu.url, 'POST', '/api/queries/v1/resolve', { token: reader, body: { resolverQl: 'with_name("orders")' } });
    expect(ResolveQueryResponse.parse(res.body).entityIds).toEqual(ResolveQueryResponse.parse(named.body).entityIds);
  });

  // issue 22: `InFolder.path` holds opaque folder ids (grpc-facts 5), so the translation keeps the id whole
  test('in_folder translates to inFolder.path holding the folder id, not its segments; it selects the folder deep', async () => {
    const r = await call(emu.url, 'POST', '/api/queries/v1/translate-resolver-ql', { token: reader, body: { resolverQl: 'in_folder(static_paths("folder-wh-prod::mart","folder-wh-prod::raw"))' } });
    expect(r.body.query).toEqual({ parts: [{ inFolder: { path: ['folder-wh-prod::mart', 'folder-wh-prod::raw'] } }] });
    const res = await call(emu.url, 'POST', '/api/queries/v1/resolve', { token: reader, body: { query: { parts: [{ inFolder: { path: ['folder-wh-prod::mart'] } }] }, pagination: { pageSize: 1000 } } });
    const want = entities.filter((e) => e.folder[0] === 'folder-wh-prod' && e.folder[1] === 'mart').map((e) => key(e.id)).sort();
    expect(want.length).toBeGreaterThan(0);
    expect(ResolveQueryResponse.parse(res.body).entityIds.map(key).sort()).toEqual(want);
  });

  test.each([
    { text: 'with_name("x"', offset: 13, reason: 'unclosed call' },
    { text: 'with_nme("x")', offset: 0, reason: 'unknown function' },
  ])('bad ResolverQL ($reason) is INVALID_ARGUMENT naming the offset', async ({ text, offset }) => {
    const r = await call(emu.url, 'POST', '/api/queries/v1/translate-resolver-ql', { token: reader, body: { resolverQl: text } });
    expect(r.status).toBe(400);
    const s = expectStatus(r.body, 3);
    expect(s.message).toContain(`offset ${offset}`);
    expect(s.details?.[0]).toMatchObject({ violations: [{ field: 'resolverQl', ruleId: 'translate_resolver_ql.resolver_ql' }] });
  });

  test('ResolverQL nested 3,000 deep (under the length limit) is INVALID_ARGUMENT naming the depth limit, not a crash', async () => {
    const text = `${'not('.repeat(3000)}with_type("table")${')'.repeat(3000)}`;
    const r = await call(emu.url, 'POST', '/api/queries/v1/translate-resolver-ql', { token: reader, body: { resolverQl: text } });
    expect(r.status).toBe(400);
    const s = expectStatus(r.body, 3);
    expect(s.message).toContain('nested at most 64 deep');
    expect(s.details?.[0]).toMatchObject({ violations: [{ field: 'resolverQl', ruleId: 'translate_resolver_ql.resolver_ql' }] });
  });
});

describe('ResolveQuery', () => {
  test('ResolverQL: every matching entity over several pages, in path order, with the rendered text', async () => {
    const want = entities.filter((e) => e.type.endsWith('_VIEW')).map((e) => key(e.id));
    expect(want.length).toBeGreaterThan(20);
    const r = await resolveAll({ resolverQl: 'with_type( "view" )' }, 10);
    expect(r.pages).toBe(Math.ceil(want.length / 10));
    expect(r.ids.map(key)).toEqual(want);
    expect(r.rendered).toBe('with_type("view")');
  });

  test('query model: annotation part, and the rendered ResolverQL of the query', async () => {
    const want = entities.filter((e) => e.annotations.some((a) => a.name === 'pii')).map((e) => key(e.id));
    const r = await resolveAll({ query: { parts: [{ withAnnotation: { name: 'pii' } }] } }, 25);
    expect(r.ids.map(key)).toEqual(want);
    expect(r.rendered).toBe('with_annotation("pii")');
  });

  test('a query ResolverQL cannot express resolves without renderedResolverQl', async () => {
    const target = entities.find((e) => e.path === 'wh-prod::mart::fct_orders')!;
    const r = await call(emu.url, 'POST', '/api/queries/v1/resolve', { token: reader, body: { query: { parts: [{ identifierList: { identifiers: [target.id] } }] } } });
    expect(r.status).toBe(200);
    expect(r.body.entityIds).toEqual([target.id]);
    expect(r.body.renderedResolverQl).toBeUndefined();
    expect(r.body.pageInfo).toEqual({ count: 1, lastId: '' });
  });

  test.each([
    { body: { resolverQl: 'with_type(' }, reason: 'bad ResolverQL', re: /offset 10/ },
    { body: { resolverQl: 'with_name("a")', query: { parts: [] } }, reason: 'both resolverQl and query', re: /exactly one of/ },
    { body: {}, reason: 'neither', re: /exactly one of/ },
    { body: { resolverQl: 'with_name("a")', pagination: { cursor: 'ent-nope' } }, reason: 'unknown cursor', re: /cursor/ },
  ])('refused: $reason', async ({ body, re }) => {
    const r = await call(emu.url, 'POST', '/api/queries/v1/resolve', { token: reader, body });
    expect(r.status).toBe(400);
    expect(expectStatus(r.body, 3).message).toMatch(re);
  });
});

test('queries need SCOPE_ENTITY_READ', async () => {
  const token = await tokenFor(emu.url, 'no-entity-read', 'secret-x');
  const r = await call(emu.url, 'POST', '/api/queries/v1/translate-resolver-ql', { token, body: { resolverQl: 'with_name("a")' } });
  expect(r.status).toBe(403);
  expect(expectStatus(r.body, 7).message).toContain('SCOPE_ENTITY_READ');
});
