import type { Manifest } from '../../schemas/model/manifest';
import { RESOURCE_TYPES, type ResourceType } from '../../schemas/model/manifest';
import { normalise } from '../../src/kinds/shared/normalise';
import type { LiveObject } from '../../src/kinds/shared/types';
import { manifestFromTerraformJson, ManifestError } from '../../src/engine/manifest';
import { computePlan, type HandlerMap, type LiveState } from '../../src/engine/planner';
import { resolveManifest } from '../../src/engine/resolve';
import { executionWaves } from '../../src/engine/graph';
import { deriveId } from '../../src/engine/identity';
import { renderText, renderMarkdown } from '../../src/cli/render';
import { reasonsText } from '../../src/plan/reasons-text';

/** Minimal pure handlers: the planner only needs normalisation and replace rules. */
const DROP = ['id', 'fqn', 'etag', 'configId', 'source', 'createdAt', 'monitorCount'];
const handlers = Object.fromEntries(
  RESOURCE_TYPES.map((t) => [
    t,
    {
      label: t.replace(/^dq_/, '').replace(/_/g, ' '),
      fromLive: (raw: Record<string, unknown>) => normalise(raw, DROP),
      fromDesired: (d: Record<string, unknown>) => normalise(d, DROP),
      replaceReasons: (b: Record<string, unknown>, a: Record<string, unknown>) =>
        t === 'dq_alert' && Object.keys(b).some((k) => k.endsWith('Lifecycle') || k === 'schemaChange') && !Object.keys(a).some((k) => k in b && (k.endsWith('Lifecycle') || k === 'schemaChange'))
          ? ['the alert kind changes']
          : [],
    },
  ]),
) as unknown as HandlerMap;

const NS = 'shop';
const WS = 'demo';
const trigger = { resolver_ql: 'with_type("table")' };
const issueAlert = (name: string) => ({
  name,
  issue_lifecycle: { trigger, targets: [{ slack: { channel: '#data' } }], settings: { severities: ['SEVERITY_ERROR'] } },
});

function tf(resources: Record<string, Record<string, unknown>>, extra: Record<string, unknown> = {}) {
  return { provider: { dq: [{ namespace: NS }] }, resource: resources, ...extra };
}
function load(doc: unknown): Manifest {
  return manifestFromTerraformJson(doc, { stack: 'shop' });
}
function liveAlert(fqn: string, over: Record<string, unknown> = {}): LiveObject {
  const raw = {
    id: `id-${fqn}`,
    fqn,
    name: 'Orders',
    etag: 'W/"a-1"',
    configId: NS,
    issueLifecycle: {
      trigger: { resolverQl: 'with_type( "table" )', renderedResolverQl: 'with_type("table")' },
      targets: [{ slack: { channel: '#data' } }],
      settings: { severities: ['SEVERITY_ERROR'], notifyUpstream: false },
    },
    isDisabled: false,
    ...over,
  };
  return { key: fqn, id: raw.id as string, etag: raw.etag as string, configId: raw.configId as string | undefined, raw };
}

function planOf(doc: unknown, live: LiveState) {
  const m = load(doc);
  return computePlan({ resolution: resolveManifest(m, WS), live, handlers, manifestHash: 'h' });
}

describe('planner actions', () => {
  it.each<[string, Record<string, Record<string, unknown>>, LiveState, Record<string, string>]>([
    ['a declared alert that does not exist is created', { dq_alert: { orders: issueAlert('Orders') } }, {}, { 'dq_alert.orders': 'create' }],
    [
      'an alert equal after normalisation (canonical ResolverQL, zero values) is a noop',
      { dq_alert: { orders: issueAlert('Orders') } },
      { dq_alert: [liveAlert('shop.orders')] },
      { 'dq_alert.orders': 'noop' },
    ],
    ['a changed name is an in-place update', { dq_alert: { orders: issueAlert('Orders v2') } }, { dq_alert: [liveAlert('shop.orders')] }, { 'dq_alert.orders': 'update' }],
    [
      'an alert of the namespace no longer declared is deleted',
      {},
      { dq_alert: [liveAlert('shop.old')] },
      { 'dq_alert["shop.old"]': 'delete' },
    ],
    [
      'an alert of another namespace is reported, never changed',
      {},
      { dq_alert: [liveAlert('other.x', { configId: 'other' })] },
      { 'dq_alert["other.x"]': 'unmanaged' },
    ],
    [
      'a kind change is a replace',
      {
        dq_alert: {
          orders: { name: 'Orders', schema_change: { trigger, targets: [{ slack: { channel: '#data' } }] } },
        },
      },
      { dq_alert: [liveAlert('shop.orders')] },
      { 'dq_alert.orders': 'replace' },
    ],
  ])('%s', (_reason, resources, live, expected) => {
    const p = planOf(tf(resources), live);
    expect(p.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(Object.fromEntries(p.changes.map((c) => [c.address, c.action]))).toEqual(expected);
  });

  it('an update carries only the changed field as a patch and the etag read', () => {
    const p = planOf(tf({ dq_alert: { orders: issueAlert('Orders v2') } }), { dq_alert: [liveAlert('shop.orders')] });
    expect(p.changes[0].patch).toEqual([{ op: 'replace', path: '/name', value: 'Orders v2' }]);
    expect(p.changes[0].etag).toBe('W/"a-1"');
    expect(renderText(p)).toContain('~ name = "Orders" -> "Orders v2"');
    expect(renderText(p)).toContain('Plan: 0 to add, 1 to change, 0 to destroy.');
  });

  it('ignore_changes hides a field from the diff', () => {
    const doc = tf({ dq_alert: { orders: { ...issueAlert('Orders v2'), lifecycle: { ignore_changes: ['name'] } } } });
    expect(planOf(doc, { dq_alert: [liveAlert('shop.orders')] }).changes[0].action).toBe('noop');
  });

  it('ignore_changes of a nested field keeps its siblings: only that field takes the live value (mutation run survivor)', () => {
    const changed = { ...issueAlert('Orders'), issue_lifecycle: { ...issueAlert('Orders').issue_lifecycle, settings: { severities: ['SEVERITY_WARN'] } } };
    const ignored = tf({ dq_alert: { orders: { ...changed, lifecycle: { ignore_changes: ['issue_lifecycle.settings'] } } } });
    expect(planOf(ignored, { dq_alert: [liveAlert('shop.orders')] }).changes[0].action).toBe('noop');
    // a sibling of the ignored field still counts
    const sibling = { ...changed, issue_lifecycle: { ...changed.issue_lifecycle, targets: [{ slack: { channel: '#other' } }] }, lifecycle: { ignore_changes: ['issue_lifecycle.settings'] } };
    const p = planOf(tf({ dq_alert: { orders: sibling } }), { dq_alert: [liveAlert('shop.orders')] });
    expect(p.changes[0].action).toBe('update');
    expect(p.changes[0].patch.map((x) => x.path)).toEqual(['/issueLifecycle/targets/0/slack/channel']);
  });

  it('prevent_destroy turns a replace into an error', () => {
    const doc = tf({
      dq_alert: { orders: { name: 'Orders', schema_change: { trigger, targets: [{ slack: { channel: '#d' } }] }, lifecycle: { prevent_destroy: true } } },
    });
    const p = planOf(doc, { dq_alert: [liveAlert('shop.orders')] });
    expect(p.diagnostics.map((d) => d.summary).join()).toMatch(/preventDestroy forbids destroying it/);
  });

  it('a declared object owned by another namespace is an error naming it, imported or not (issue 12: never write what is not ours); a UI-made one may be imported', () => {
    const live = { dq_alert: [liveAlert('x.pinned', { configId: 'other' })] };
    const res = { dq_alert: { orders: { ...issueAlert('Orders'), fqn: 'x.pinned' } } };
    expect(planOf(tf(res), live).diagnostics[0].summary).toMatch(/already exists and is managed by namespace "other"/);
    const stolen = planOf(tf(res, { import: [{ to: 'dq_alert.orders', id: 'x.pinned' }] }), live);
    expect(stolen.diagnostics.map((d) => `${d.severity}: ${d.address}: ${d.summary}`)).toEqual([
      expect.stringMatching(/^error: dq_alert\.orders: import block: the alert "x\.pinned" is managed by namespace "other", not by namespace "shop" \(this stack\)/),
    ]);
    expect(stolen.changes.filter((c) => c.action !== 'unmanaged')).toEqual([]);
    const fromUi = planOf(tf(res, { import: [{ to: 'dq_alert.orders', id: 'x.pinned' }] }), { dq_alert: [liveAlert('x.pinned', { configId: undefined })] });
    expect(fromUi.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(fromUi.changes[0].action).toBe('update');
    expect(reasonsText(fromUi.changes[0]).join()).toMatch(/imported from existing alert "x\.pinned" \(was made in the UI\)/);
  });

  it('a moved block keeps the identity: no delete and create', () => {
    const p = planOf(tf({ dq_alert: { renamed: issueAlert('Orders') } }, { moved: [{ from: 'dq_alert.orders', to: 'dq_alert.renamed' }] }), {
      dq_alert: [liveAlert('shop.orders')],
    });
    expect(p.changes.map((c) => [c.address, c.action])).toEqual([['dq_alert.renamed', 'noop']]);
  });

  it('governance kinds are pruned by the namespace tag of their id; a removed block still works', () => {
    const id = deriveId(WS, NS, 'dq_owner', 'team');
    const live: LiveState = { dq_owner: [{ key: id, id, raw: { id, title: 'Team', etag: 'e1' }, etag: 'e1' }] };
    const pruned = planOf(tf({}), live);
    expect(pruned.changes.map((c) => [c.address, c.action, reasonsText(c)])).toEqual([[`dq_owner["${id}"]`, 'delete', ['owner "Team" is no longer declared in namespace "shop"']]]);
    const p = planOf(tf({}, { removed: [{ from: 'dq_owner.team', lifecycle: { destroy: true } }] }), live);
    expect(p.changes.map((c) => [c.address, c.action, reasonsText(c)])).toEqual([['dq_owner.team', 'delete', ['declared removed: owner "Team"']]]);
  });

  it('references resolve to derived ids and order the graph', () => {
    const doc = tf({
      dq_owner: { team: { title: 'Team' } },
      dq_ownership: { own: { owner_id: '${dq_owner.team.id}', selection: { query: { resolver_ql: 'with_tag("x")' } } } },
      dq_alert: { a: { name: 'A', issue_lifecycle: { trigger, targets: [{ owner: { owner_path: '${dq_owner.team.entity_id}' } }], settings: { severities: [2] } } } },
    });
    const p = planOf(doc, {});
    const ownerId = deriveId(WS, NS, 'dq_owner', 'team');
    const own = p.changes.find((c) => c.address === 'dq_ownership.own')!;
    expect((own.after as { ownerId: string }).ownerId).toBe(ownerId);
    const alert = p.changes.find((c) => c.address === 'dq_alert.a')!;
    expect(JSON.stringify(alert.after)).toContain(`owner-${ownerId}`);
    const waves = executionWaves(p.changes).map((w) => w.map((c) => c.address));
    expect(waves[0]).toEqual(['dq_owner.team']);
    expect(waves[1].sort()).toEqual(['dq_alert.a', 'dq_ownership.own']);
  });

  it('collects every problem with the address named', () => {
    const doc = tf({
      dq_ownership: { own: { owner_id: '${dq_owner.nobody.id}', selection: { query: { resolver_ql: 'with_type(' } } } },
      dq_alert: { bad: { name: 'B', incident_lifecycle: { targets: [{ email: { recipient_emails: ['a@b.co'] } }], settings: { states: ['STATE_OPEN'] } } } },
      dq_domain: { a: { name: 'A', parent_id: '${dq_domain.b.id}' }, b: { name: 'B', parent_id: '${dq_domain.a.id}' } },
    });
    const p = planOf(doc, {});
    const text = p.diagnostics.map((d) => `${d.address}: ${d.summary}`).join('\n');
    expect(text).toMatch(/dq_ownership\.own: reference \$\{dq_owner\.nobody\.id\} points to nothing/);
    expect(text).toMatch(/dq_ownership\.own: selection\.query\.resolverQl: ResolverQL: at offset/);
    expect(text).toMatch(/dq_alert\.bad: incidentLifecycle\.targets\[0\]: incident-lifecycle alerts cannot send to e-mail/);
    expect(text).toMatch(/dq_domain\.a: domain cycle: dq_domain\.a -> dq_domain\.b -> dq_domain\.a/);
  });

  it('plans are deterministic and markdown stays under the comment limit', () => {
    const many: Record<string, Record<string, unknown>> = {};
    for (let i = 0; i < 400; i++) many[`a${String(i).padStart(3, '0')}`] = issueAlert(`Alert ${i}`);
    const doc = tf({ dq_alert: many });
    const a = JSON.stringify(planOf(doc, {}));
    expect(JSON.stringify(planOf(doc, {}))).toBe(a);
    const md = renderMarkdown(planOf(doc, {}), { limit: 20000 });
    expect(md.length).toBeLessThanOrEqual(20000);
    expect(md).toMatch(/too large for a comment; this is a summary/);
  });
});

describe('manifest loading', () => {
  it.each<[string, unknown, RegExp]>([
    ['no namespace', { resource: {} }, /the stack has no namespace/],
    ['unknown dq type', tf({ dq_thing: { x: {} } } as never), /unknown resource type dq_thing/],
    ['count is refused', tf({ dq_owner: { x: { title: 'X', count: 2 } } }), /dq_owner\.x: "count" is not supported/],
    ['moved to nothing', tf({}, { moved: [{ from: 'dq_alert.a', to: 'dq_alert.b' }] }), /moved block points to dq_alert\.b, which is not declared/],
    ['not an object', 42, /not a Terraform JSON object/],
  ])('%s', (_reason, doc, re) => {
    expect(() => load(doc)).toThrow(ManifestError);
    expect(() => load(doc)).toThrow(re);
  });
});

describe('review fixes: removal, pinned ids, cycles', () => {
  const ownerLive = (id: string, title = 'Team'): LiveState => ({ dq_owner: [{ key: id, id, etag: 'e1', raw: { id, title, etag: 'e1' } }] });

  it('a removed declaration never deletes an object of another namespace', () => {
    const p = planOf(tf({}, { removed: [{ from: 'dq_alert.x', id: 'other.x' }] }), { dq_alert: [liveAlert('other.x', { configId: 'other' })] });
    expect(p.changes.filter((c) => c.action === 'delete')).toEqual([]);
    expect(p.diagnostics.map((d) => d.summary).join()).toMatch(/declared removed, but alert "Orders" \("other.x"\) is managed by namespace "other", not namespace "shop": dqform never deletes it/);
  });

  it('a removed declaration can name a pinned id; one that finds nothing says so', () => {
    // pinned to an id that carries the namespace tag (what import writes): deleted
    const pinned = deriveId(WS, NS, 'dq_owner', 'imported_under_another_name');
    const p = planOf(tf({}, { removed: [{ from: 'dq_owner.pinned_team', id: `owner-${pinned.toUpperCase()}` }] }), ownerLive(pinned));
    expect(p.changes.map((c) => [c.address, c.action, c.id])).toEqual([['dq_owner.pinned_team', 'delete', pinned]]);
    const none = planOf(tf({}, { removed: [{ from: 'dq_owner.gone' }] }), {});
    expect(none.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', summary: expect.stringMatching(/declared removed, but no owner .* exists/) })]);
  });

  it('pinned ids are canonicalised (owner- prefix, case) and references use the bare id', () => {
    // tagged for this namespace (what import writes): the pinned id is this namespace's own object
    const pinned = deriveId(WS, NS, 'dq_owner', 'imported_under_another_name');
    const doc = tf({
      dq_owner: { t: { id: `owner-${pinned.toUpperCase()}`, title: 'Team' } },
      dq_alert: { a: { name: 'A', issue_lifecycle: { trigger, targets: [{ owner: { owner_path: '${dq_owner.t.entity_id}' } }], settings: { severities: [2] } } } },
    });
    const p = planOf(doc, ownerLive(pinned));
    expect(p.changes.find((c) => c.address === 'dq_owner.t')?.action).toBe('noop');
    expect(JSON.stringify(p.changes.find((c) => c.address === 'dq_alert.a')?.after)).toContain(`"owner-${pinned}"`);
    const bad = planOf(tf({ dq_owner: { t: { id: 'not-a-uuid', title: 'T' } } }), {});
    expect(bad.diagnostics.map((d) => d.summary)).toContain('id: "not-a-uuid" is not a UUID');
  });

  // issue 23: adopting is explicit for every kind, not only for alerts (a pinned fqn of a UI alert)
  it.each<[string, string, Record<string, unknown>, string]>([
    ['dq_owner', 'owner', { title: 'Team' }, 'cccccccc-cccc-4ccc-8ccc-cccccccccccc'],
    ['dq_domain', 'domain', { name: 'Sales' }, 'dddddddd-dddd-4ddd-8ddd-dddddddddddd'],
    ['dq_data_product', 'data product', { title: 'Orders' }, 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee'],
    ['dq_ownership', 'ownership', { owner_id: 'abababab-abab-4bab-8bab-abababababab', selection: { query: { resolver_ql: 'with_tag("x")' } } }, 'efefefef-efef-4fef-8fef-efefefefefef'],
  ])('%s: a pinned id of an existing object without this namespace\'s tag is an error without an import block', (type, label, config, id) => {
    const live: LiveState = { [type]: [{ key: id, id, etag: 'e1', raw: { id, ...config, etag: 'e1' } }] };
    const p = planOf(tf({ [type]: { t: { id, ...config } } }), live);
    expect(p.changes.filter((c) => c.address === `${type}.t`)).toEqual([]);
    expect(p.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        address: `${type}.t`,
        summary: `a ${label} ${JSON.stringify(id)} already exists, and its id carries no tag of namespace "shop" (made in the UI, or pinned by hand): dqform adopts it only through an import block`,
        hint: expect.stringMatching(/import block/),
      }),
    ]);
    // not there yet: created under the pinned id
    expect(planOf(tf({ [type]: { t: { id, ...config } } }), {}).changes.map((c) => [c.address, c.action])).toEqual([[`${type}.t`, 'create']]);
  });

  it('kinds with configId (here a SQL test): a pinned id of one made in the UI or by another API client is refused without an import block too', () => {
    const id = 'cdcdcdcd-cdcd-4dcd-8dcd-cdcdcdcdcdcd';
    const config = { id, name: 'T', platform: { warehouse_account: { account: 'a', database: 'd' } }, recurrence_rule: 'FREQ=DAILY', sql_expression: 'select 1' };
    for (const [source, who] of [['SOURCE_APP', 'the UI'], ['SOURCE_API', 'no namespace']]) {
      const live: LiveState = { dq_sql_test: [{ key: id, id, source, raw: { id, name: 'T', sqlExpression: 'select 1' } }] };
      const p = planOf(tf({ dq_sql_test: { t: config } }), live);
      expect(p.changes.filter((c) => c.address === 'dq_sql_test.t')).toEqual([]);
      expect(p.diagnostics.map((d) => [d.severity, d.summary])).toEqual([['error', `a sql test "${id}" already exists and is managed by ${who}`]]);
    }
  });

  it('a UI-made owner pinned by id: adopted with an import block (its contacts dropped only as the reviewed plan says), refused without', () => {
    const id = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';
    const live: LiveState = { dq_owner: [{ key: id, id, etag: 'e1', raw: { id, title: 'UI team', contacts: [{ email: { recipientEmails: ['a@x.io'] } }], etag: 'e1' } }] };
    const refused = planOf(tf({ dq_owner: { t: { id, title: 'Code team' } } }), live);
    expect(refused.changes.filter((c) => c.action === 'update')).toEqual([]);
    expect(refused.diagnostics.map((d) => d.severity)).toEqual(['error']);
    const adopted = planOf(tf({ dq_owner: { t: { title: 'Code team' } } }, { import: [{ to: 'dq_owner.t', id }] }), live);
    expect(adopted.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const c = adopted.changes.find((x) => x.address === 'dq_owner.t')!;
    expect([c.action, c.id]).toEqual(['update', id]);
    expect(reasonsText(c).join()).toMatch(/imported from existing owner/);
  });

  it('a depends_on cycle is a diagnostic naming the chain, not a crash at apply', () => {
    const p = planOf(tf({ dq_owner: { a: { title: 'A', depends_on: ['dq_owner.b'] }, b: { title: 'B', depends_on: ['dq_owner.a'] } } }), {});
    expect(p.diagnostics.map((d) => d.summary).join()).toMatch(/dependency cycle: dq_owner\.a -> dq_owner\.b -> dq_owner\.a/);
  });

  it.each<[string, unknown, RegExp]>([
    ['ignore_changes written as a string', tf({ dq_owner: { a: { title: 'A', lifecycle: { ignore_changes: 'title' } } } }), /ignore_changes must be a list/],
    ['the same address removed twice', tf({}, { removed: [{ from: 'dq_owner.a' }, { from: 'dq_owner.a' }] }), /declared removed twice/],
  ])('%s is refused', (_reason, doc, re) => {
    expect(() => load(doc)).toThrow(re);
  });
});

export type { ResourceType };
