/**
 * The kinds' YAML bindings (`dqform.yaml`'s friendly forms -> the desired shape), called through
 * each kind's module and through `translateYaml`, with a recording `named`: the exact config, the
 * field path a bad name is reported at, and that the entry read is never changed.
 */
import { alertYaml } from '../../src/kinds/alert/yaml';
import { dataProductYaml } from '../../src/kinds/data-product/yaml';
import { domainYaml } from '../../src/kinds/domain/yaml';
import { monitorDeploymentRuleYaml } from '../../src/kinds/monitor-deployment-rule/yaml';
import { ownershipYaml } from '../../src/kinds/ownership/yaml';
import { isObj, partsOf, qlSel, type Json, type Named, type PathSeg } from '../../src/kinds/shared/yaml';
import { translateYaml } from '../../src/kinds/yaml';

/** A `named` that returns the reference and records `type name at attr`. */
function recordingNamed() {
  const calls: string[] = [];
  const named: Named = (type, name, at: PathSeg[], attr) => {
    calls.push(`${type} ${String(name)} ${JSON.stringify(at)} ${attr}`);
    return `\${${type}.${String(name)}.${attr}}`;
  };
  return { named, calls };
}

describe('shared YAML helpers', () => {
  it('isObj: plain objects only', () => {
    expect([{}, { a: 1 }].map(isObj)).toEqual([true, true]);
    expect([null, [], 'x', 1, undefined].map(isObj)).toEqual([false, false, false, false, false]);
  });
  it('qlSel: a string becomes a resolverQl selection, anything else stays', () => {
    expect(qlSel('Q')).toEqual({ resolverQl: 'Q' });
    expect(qlSel('')).toEqual({ resolverQl: '' });
    const o = { query: {} };
    expect(qlSel(o)).toBe(o);
    expect(qlSel(3)).toBe(3);
  });
  it('partsOf: the definition’s parts when they are a list', () => {
    const parts = [1];
    expect(partsOf({ definition: { parts } })).toBe(parts);
    expect(partsOf({ definition: { parts: 'x' } })).toBeUndefined();
    expect(partsOf({ definition: 'x' })).toBeUndefined();
    expect(partsOf({})).toBeUndefined();
  });
});

describe('alert YAML', () => {
  it('turns string triggers into selections and owner names into entity-id references, in every body', () => {
    const { named, calls } = recordingNamed();
    const c: Json = {
      fqn: 'f',
      issueLifecycle: { trigger: 'Q1', targets: [{ slack: { channel: '#a' } }, { owner: 'ops', extra: 1 }, { owner: { ownerPath: 'p' } }, 'odd'] },
      schemaChange: { trigger: { resolverQl: 'Q2' }, targets: 'x' },
      incidentLifecycle: { trigger: '', targets: [{ owner: 'dev' }] },
      other: { trigger: 'not a body' },
    };
    expect(alertYaml(c, named)).toBe(c);
    expect(c).toStrictEqual({
      fqn: 'f',
      issueLifecycle: { trigger: { resolverQl: 'Q1' }, targets: [{ slack: { channel: '#a' } }, { owner: { ownerPath: '${dq_owner.ops.entity_id}' }, extra: 1 }, { owner: { ownerPath: 'p' } }, 'odd'] },
      schemaChange: { trigger: { resolverQl: 'Q2' }, targets: 'x' },
      incidentLifecycle: { trigger: { resolverQl: '' }, targets: [{ owner: { ownerPath: '${dq_owner.dev.entity_id}' } }] },
      other: { trigger: 'not a body' },
    });
    expect(calls).toEqual(['dq_owner ops ["issueLifecycle","targets",1,"owner"] entity_id', 'dq_owner dev ["incidentLifecycle","targets",0,"owner"] entity_id']);
  });

  it('leaves a body that is not an object', () => {
    const { named, calls } = recordingNamed();
    expect(alertYaml({ issueLifecycle: 'x', schemaChange: null }, named)).toStrictEqual({ issueLifecycle: 'x', schemaChange: null });
    expect(calls).toEqual([]);
  });
});

describe('data product YAML', () => {
  it('turns string queries of parts into selections', () => {
    const c: Json = { title: 'P', definition: { other: 1, parts: [{ query: 'Q' }, { query: { resolverQl: 'R' } }, { query: '' }, { other: 2 }, 'odd'] } };
    expect(dataProductYaml(c, recordingNamed().named)).toBe(c);
    expect(c).toStrictEqual({ title: 'P', definition: { other: 1, parts: [{ query: { resolverQl: 'Q' } }, { query: { resolverQl: 'R' } }, { query: { resolverQl: '' } }, { other: 2 }, 'odd'] } });
  });
  it('leaves a definition without a parts list', () => {
    for (const c of [{ definition: { parts: 'x' } }, { definition: 'x' }, { title: 't' }]) expect(dataProductYaml(structuredClone(c), recordingNamed().named)).toStrictEqual(c);
  });
});

describe('domain YAML', () => {
  it('turns parent and part names into id references, at their field paths', () => {
    const { named, calls } = recordingNamed();
    const c: Json = { title: 'D', parent: 'root', definition: { parts: [{ dataProduct: 'sales' }, { domain: 'sub' }, { query: 'Q' }, { query: { resolverQl: 'R' } }, 'odd', { dataproductId: 'raw' }] } };
    expect(domainYaml(c, named)).toBe(c);
    expect(c).toStrictEqual({
      title: 'D',
      definition: { parts: [{ dataproductId: '${dq_data_product.sales.id}' }, { domainId: '${dq_domain.sub.id}' }, { query: { resolverQl: 'Q' } }, { query: { resolverQl: 'R' } }, 'odd', { dataproductId: 'raw' }] },
      parentId: '${dq_domain.root.id}',
    });
    expect(calls).toEqual(['dq_domain root ["parent"] id', 'dq_data_product sales ["definition","parts",0,"dataProduct"] id', 'dq_domain sub ["definition","parts",1,"domain"] id']);
  });

  it('does not change the parts it reads', () => {
    const part = { dataProduct: 'sales' };
    const c: Json = { definition: { parts: [part] } };
    domainYaml(c, recordingNamed().named);
    expect(part).toStrictEqual({ dataProduct: 'sales' });
  });

  it('leaves an entry without parent or parts list', () => {
    const { named, calls } = recordingNamed();
    for (const c of [{ title: 't' }, { definition: { parts: 'x' } }, { parentId: 'raw' }]) expect(domainYaml(structuredClone(c), named)).toStrictEqual(c);
    expect(calls).toEqual([]);
  });
});

describe('monitor deployment rule YAML', () => {
  it('turns productConfig.product into a product id reference', () => {
    const { named, calls } = recordingNamed();
    const c: Json = { title: 'R', productConfig: { product: 'sales', self: true } };
    expect(monitorDeploymentRuleYaml(c, named)).toBe(c);
    expect(c).toStrictEqual({ title: 'R', productConfig: { self: true, productId: '${dq_data_product.sales.id}' } });
    expect(calls).toEqual(['dq_data_product sales ["productConfig","product"] id']);
  });
  it('leaves a productConfig without product', () => {
    const { named, calls } = recordingNamed();
    for (const c of [{ productConfig: { productId: 'raw' } }, { productConfig: 'x' }, {}]) expect(monitorDeploymentRuleYaml(structuredClone(c), named)).toStrictEqual(c);
    expect(calls).toEqual([]);
  });
});

describe('ownership YAML', () => {
  it('turns owner and dataProduct names into references', () => {
    const { named, calls } = recordingNamed();
    const c: Json = { owner: 'ops', dataProduct: 'sales', query: 'ignored when a product is named' };
    expect(ownershipYaml(c, named)).toBe(c);
    expect(c).toStrictEqual({ ownerId: '${dq_owner.ops.id}', selection: { dataproductId: '${dq_data_product.sales.id}' }, query: 'ignored when a product is named' });
    expect(calls).toEqual(['dq_owner ops ["owner"] id', 'dq_data_product sales ["dataProduct"] id']);
  });
  it('turns a query into a query selection', () => {
    const { named, calls } = recordingNamed();
    expect(ownershipYaml({ ownerId: 'raw', query: 'Q' }, named)).toStrictEqual({ ownerId: 'raw', selection: { query: { resolverQl: 'Q' } } });
    expect(ownershipYaml({ query: { resolverQl: 'R' } }, named)).toStrictEqual({ selection: { query: { resolverQl: 'R' } } });
    expect(ownershipYaml({ query: '' }, named)).toStrictEqual({ selection: { query: { resolverQl: '' } } });
    expect(ownershipYaml({ ownerId: 'raw', selection: { x: 1 } }, named)).toStrictEqual({ ownerId: 'raw', selection: { x: 1 } });
    expect(calls).toEqual([]);
  });
});

describe('translateYaml', () => {
  it('translates with the kind’s binding and never changes the entry it reads', () => {
    const { named, calls } = recordingNamed();
    const entry = { owner: 'ops', query: 'Q' };
    expect(translateYaml('dq_ownership', entry, named)).toStrictEqual({ ownerId: '${dq_owner.ops.id}', selection: { query: { resolverQl: 'Q' } } });
    expect(entry).toStrictEqual({ owner: 'ops', query: 'Q' });
    expect(calls).toEqual(['dq_owner ops ["owner"] id']);
    const domain = { parent: 'root', definition: { parts: [{ query: 'Q' }] } };
    expect(translateYaml('dq_domain', domain, named)).toStrictEqual({ definition: { parts: [{ query: { resolverQl: 'Q' } }] }, parentId: '${dq_domain.root.id}' });
    expect(domain).toStrictEqual({ parent: 'root', definition: { parts: [{ query: 'Q' }] } });
    expect(translateYaml('dq_data_product', { definition: { parts: [{ query: 'Q' }] } }, named)).toStrictEqual({ definition: { parts: [{ query: { resolverQl: 'Q' } }] } });
    expect(translateYaml('dq_alert', { issueLifecycle: { trigger: 'Q' } }, named)).toStrictEqual({ issueLifecycle: { trigger: { resolverQl: 'Q' } } });
    expect(translateYaml('dq_monitor_deployment_rule', { productConfig: { product: 'p' } }, named)).toStrictEqual({ productConfig: { productId: '${dq_data_product.p.id}' } });
  });

  it('returns a copy, unchanged, for kinds without friendly forms', () => {
    const { named, calls } = recordingNamed();
    for (const type of ['dq_owner', 'dq_sql_test', 'dq_sql_test_deployment_rule', 'dq_widget']) {
      const entry = { owner: 'ops', query: 'Q', parent: 'p', productConfig: { product: 'p' } };
      const out = translateYaml(type, entry, named);
      expect(out).toStrictEqual(entry);
      expect(out).not.toBe(entry);
      expect(out.productConfig).not.toBe(entry.productConfig);
    }
    expect(calls).toEqual([]);
  });
});
