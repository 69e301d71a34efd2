/**
 * `dq_saved_view` offline: its config validation (errors naming the field), the YAML section and
 * the construct giving one manifest, construct diagnostics, and the handler's comparable form and
 * write message (every field explicit, because the platform keeps what an upsert omits).
 */
import { DqStack, Query, SavedView } from '../../constructs';
import { Change } from '../../schemas/model/plan';
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import { resolveManifest } from '../../src/engine/resolve';
import { manifestFromYaml } from '../../src/engine/yaml';
import { configProblems } from '../../src/kinds/validation';
import { canonicalSavedView, savedViewWrite } from '../../src/kinds/saved-view/handler';
import { synth, synthError } from '../constructs/synth';
import { decodeRead, unmodelledOf } from '../../schemas/platform/wire';
import { ListSavedViewsResponse } from '../../schemas/platform/saved-views';

const problems = (desired: Record<string, unknown>) => configProblems('dq_saved_view', { title: 'V', ...desired }, {}).map((p) => [p.field, p.message]);

describe('saved view validation', () => {
  it('accepts a consistent view', () => {
    expect(problems({ selection: { resolverQl: 'with_tag("pii")' }, config: { columns: ['a', 'b'], sortBy: 'b', sortDescending: true, groupBy: 'a' }, visibility: 'VISIBILITY_WORKSPACE', grants: [{ groupId: 'g', permission: 'PERMISSION_EDIT' }] })).toEqual([]);
  });

  it('names the field at fault', () => {
    expect(problems({ selection: {} })).toEqual([['selection.resolverQl', 'selection is set without selection.resolverQl']]);
    expect(problems({ config: { sortDescending: true } })).toEqual([['config.sortDescending', 'config.sortDescending is set without config.sortBy']]);
    expect(problems({ config: { columns: ['a'], sortBy: 'b', groupBy: 'c' } })).toEqual([
      ['config.sortBy', 'config.sortBy names "b", which is not one of config.columns (a)'],
      ['config.groupBy', 'config.groupBy names "c", which is not one of config.columns (a)'],
    ]);
    expect(problems({ grants: [{ userEmail: 'Ada@x.io', permission: 'PERMISSION_VIEW' }, { groupId: 'g', permission: 'PERMISSION_EDIT' }, { userEmail: 'ada@x.io', permission: 'PERMISSION_EDIT' }] })).toEqual([
      ['grants[2]', 'grants[2] grants user ada@x.io again (grants[0] already does)'],
    ]);
    expect(problems({ visibility: 'VISIBILITY_WORKSPACE', grants: [{ groupId: 'g', permission: 'PERMISSION_VIEW' }] })).toEqual([
      ['grants[0].permission', 'grants[0] grants PERMISSION_VIEW on a VISIBILITY_WORKSPACE view, which everyone may see already'],
    ]);
  });

  it('reaches plan as an error on the address and field, from YAML', () => {
    const m = manifestFromYaml('namespace: v\nsavedViews:\n  v:\n    title: V\n    config: { columns: [a], sortBy: b }\n', { file: 'w.yaml' });
    const d = resolveManifest(m, 'demo').diagnostics.filter((x) => x.severity === 'error');
    expect(d).toEqual([expect.objectContaining({ address: 'dq_saved_view.v', field: 'config.sortBy', summary: 'config.sortBy: config.sortBy names "b", which is not one of config.columns (a)', hint: 'add "b" to config.columns or pick one of them' })]);
  });
});

describe('savedViews: in YAML and SavedView in constructs', () => {
  it('give the same desired config (selection as ResolverQL text in both)', () => {
    const yaml = manifestFromYaml(
      'namespace: v\nsavedViews:\n  pii:\n    title: PII\n    context: issues\n    selection: \'with_tag("pii")\'\n    config: { columns: [title], sortBy: title }\n    visibility: VISIBILITY_WORKSPACE\n    grants: [{ groupId: g, permission: PERMISSION_EDIT }]\n',
      { file: 'w.yaml' },
    );
    const { json } = synth((app) => {
      const s = new DqStack(app, 'v', { namespace: 'v' });
      new SavedView(s, 'pii', { title: 'PII', context: 'issues', selection: Query.withTag('pii'), config: { columns: ['title'], sortBy: 'title' }, visibility: 'VISIBILITY_WORKSPACE', grants: [{ groupId: 'g', permission: 'PERMISSION_EDIT' }] });
    }, 'v');
    const fromTs = manifestFromTerraformJson(json, { stack: 'v' });
    const config = (m: typeof yaml) => m.resources.map((r) => [r.type, r.name, r.config]);
    expect(config(fromTs)).toEqual(config(yaml));
    expect(config(yaml)[0][2]).toMatchObject({ selection: { resolverQl: 'with_tag("pii")' } });
  });

  it('a YAML typo names the field and the closest known name', () => {
    let err: { diagnostics?: { summary: string; field?: string; source?: string; hint?: string }[] } = {};
    try {
      manifestFromYaml('namespace: v\nsavedViews:\n  v:\n    title: V\n    visiblity: VISIBILITY_WORKSPACE\n', { file: 'w.yaml' });
    } catch (e) {
      err = e as typeof err;
    }
    expect(err.diagnostics).toEqual([expect.objectContaining({ summary: 'unknown field "visiblity" in savedViews.v', source: 'w.yaml:5:5', hint: expect.stringContaining('visibility') })]);
  });

  it('a selection with no ResolverQL form fails synth naming selection.resolverQl', () => {
    const msg = synthError((app) => new SavedView(new DqStack(app, 's', { namespace: 'ns' }), 'v', { title: 'V', selection: Query.model({ parts: [] } as never) }));
    expect(msg).toContain('s/v: selection.resolverQl: selection.resolverQl takes ResolverQL text');
  });
});

describe('saved view handler', () => {
  it('compares without the owner, the reader\'s pin, timestamps and etag; private is the default; grants are unordered', () => {
    const live = {
      id: 'x',
      etag: 'W/"x-3"',
      ownerId: 'client:someone',
      pinned: true,
      createdAt: 't',
      updatedAt: 't',
      title: 'V',
      description: '',
      visibility: 'VISIBILITY_PRIVATE',
      selection: { resolverQl: 'with_tag( "pii" )' },
      config: {},
      grants: [{ userEmail: 'b@x.io', permission: 'PERMISSION_VIEW' }, { groupId: 'g', permission: 'PERMISSION_EDIT' }],
    };
    const desired = { title: 'V', selection: { resolverQl: 'with_tag("pii")' }, grants: [{ groupId: 'g', permission: 'PERMISSION_EDIT' }, { userEmail: 'b@x.io', permission: 'PERMISSION_VIEW' }] };
    expect(canonicalSavedView(live)).toEqual(canonicalSavedView(desired));
    expect(canonicalSavedView({ ...live, visibility: 'VISIBILITY_WORKSPACE' })).not.toEqual(canonicalSavedView(desired));
  });

  it('writes every field, so what code no longer declares is cleared', () => {
    const change = Change.parse({ address: 'dq_saved_view.v', type: 'dq_saved_view', action: 'update', id: 'id-1', before: null, after: { title: 'V' }, etag: 'W/"id-1-2"' });
    expect(savedViewWrite(change)).toEqual({ id: 'id-1', title: 'V', description: '', context: '', selection: {}, config: {}, visibility: 'VISIBILITY_PRIVATE', grants: { grants: [] } });
  });
});

describe('saved view reads', () => {
  it('read what the platform sends: numbers, nulls and zero values as absent; an unknown enum value or field marks only that view', () => {
    const r = decodeRead(ListSavedViewsResponse, {
      views: [
        { id: 'a', title: 'A', description: '', selection: null, config: null, visibility: 2, grants: [{ groupId: 'g', permission: 2, userEmail: '' }], pinned: false, etag: 'W/"a-1"' },
        { id: 'b', title: 'B', visibility: 9, sharedWithTeams: ['x'] },
      ],
      pageInfo: { lastId: '' },
    });
    expect(r.success).toBe(true);
    const [a, b] = r.data!.views;
    expect(a).toMatchObject({ id: 'a', visibility: 'VISIBILITY_WORKSPACE', grants: [{ groupId: 'g', permission: 'PERMISSION_EDIT' }] });
    expect(a.selection).toBeUndefined();
    expect(unmodelledOf(a)).toBeUndefined();
    expect(unmodelledOf(b)?.join('; ')).toMatch(/visibility[\s\S]*sharedWithTeams|sharedWithTeams[\s\S]*visibility/);
  });
});
