/**
 * Where the lean validator (schemas/tools/lean.ts) stands in front of zod (issue 27): the
 * client's parse of every response (`decodeRead`), the manifest's validation and each desired
 * object's. zod's `safeParse` of those schemas runs only when the lean parse refuses (for its
 * issues and messages), so a valid value never reaches it; an invalid one gets zod's words.
 */
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import { manifestFromYaml } from '../../src/engine/yaml';
import { DqformYaml } from '../../schemas/model/dqform-yaml';
import { resolveManifest } from '../../src/engine/resolve';
import { Manifest, RESOURCE_SCHEMAS } from '../../schemas/model/manifest';
import { ListOwnersResponse } from '../../schemas/platform/governance';
import { decodeRead } from '../../schemas/platform/wire';

afterEach(() => jest.restoreAllMocks());

const tf = (resource: Record<string, unknown>) => ({ provider: { dq: [{ namespace: 'shop' }] }, resource });

describe('the client reads responses lean first', () => {
  it('a valid response is parsed without zod, enum numbers read as names', () => {
    const spy = jest.spyOn(ListOwnersResponse, 'safeParse');
    const r = decodeRead(ListOwnersResponse, { owners: [{ id: 'o1', title: 'Team', source: 1, extra: 'x' }], pageInfo: { lastId: '' } });
    expect(spy).not.toHaveBeenCalled();
    expect(r.success && r.data).toEqual({ owners: [{ id: 'o1', title: 'Team', contacts: [], source: 'SOURCE_EXTERNAL_CATALOG' }], pageInfo: {} });
  });

  it('an invalid one gets zod\'s issues', () => {
    const spy = jest.spyOn(ListOwnersResponse, 'safeParse');
    const r = decodeRead(ListOwnersResponse, { owners: 'nope' });
    expect(spy).toHaveBeenCalledTimes(1);
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join('.'))).toEqual(['owners']);
  });
});

describe('the engine validates the manifest and the desired objects lean first', () => {
  it('a valid stack never reaches zod\'s safeParse', () => {
    const manifestSpy = jest.spyOn(Manifest, 'safeParse');
    const ownerSpy = jest.spyOn(RESOURCE_SCHEMAS.dq_owner, 'safeParse');
    const m = manifestFromTerraformJson(tf({ dq_owner: { a: { title: 'A' } } }), { stack: 'prod' });
    const r = resolveManifest(m, 'w');
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(manifestSpy).not.toHaveBeenCalled();
    expect(ownerSpy).not.toHaveBeenCalled();
  });

  it('an invalid desired object gets zod\'s message', () => {
    const ownerSpy = jest.spyOn(RESOURCE_SCHEMAS.dq_owner, 'safeParse');
    const m = manifestFromTerraformJson(tf({ dq_owner: { a: { title: 7 } } }), { stack: 'prod' });
    const errors = resolveManifest(m, 'w').diagnostics.filter((d) => d.severity === 'error').map((d) => d.summary);
    expect(ownerSpy).toHaveBeenCalledTimes(1);
    expect(errors).toEqual([expect.stringMatching(/^title: /)]);
  });
});

describe('the YAML front end validates its document and entries lean first', () => {
  it('a valid workspace never reaches zod\'s safeParse', () => {
    const docSpy = jest.spyOn(DqformYaml, 'safeParse');
    const manifestSpy = jest.spyOn(Manifest, 'safeParse');
    const ownerSpy = jest.spyOn(RESOURCE_SCHEMAS.dq_owner, 'safeParse');
    const m = manifestFromYaml('namespace: shop\nowners:\n  team: { title: Team }\n', { file: 'w.yaml' });
    expect(m.resources.map((r) => [r.address, r.config])).toEqual([['dq_owner.team', { title: 'Team' }]]);
    expect([docSpy, manifestSpy, ownerSpy].map((s) => s.mock.calls.length)).toEqual([0, 0, 0]);
  });

  it('a wrong value gets zod\'s message', () => {
    const docSpy = jest.spyOn(DqformYaml, 'safeParse');
    expect(() => manifestFromYaml('namespace: shop\nowners:\n  team: { title: 7 }\n', { file: 'w.yaml' })).toThrow(/title/);
    expect(docSpy).toHaveBeenCalled();
  });
});
