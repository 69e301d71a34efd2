/**
 * The kinds' import renderings (`dqform import`: the TypeScript props, the references, the friendly
 * YAML), called through each kind's module with recording helpers (test/kinds/fixtures/render.ts):
 * exact outputs, in-process, so that mutation testing counts them (test/import/import.test.ts is
 * too slow for it).
 */
import { sqlTestRuleToWire, sqlTestToWire } from '../../schemas/platform/sql-tests';
import { alertImport } from '../../src/kinds/alert/import';
import { dataProductImport } from '../../src/kinds/data-product/import';
import { domainImport } from '../../src/kinds/domain/import';
import { monitorDeploymentRuleImport } from '../../src/kinds/monitor-deployment-rule/import';
import { ownerImport } from '../../src/kinds/owner/import';
import { ownershipImport } from '../../src/kinds/ownership/import';
import { ALERT_BODIES } from '../../src/kinds/shared/import';
import { ruleTs } from '../../src/kinds/shared/rule-import';
import { sqlTestDeploymentRuleImport } from '../../src/kinds/sql-test-deployment-rule/import';
import { sqlTestImport } from '../../src/kinds/sql-test/import';
import { importRenderingOf } from '../../src/kinds/import';
import type { Json } from '../../src/kinds/shared/yaml';
import { recordingSub, tsHelpers, yamlHelpers, type Imported } from './fixtures/render';

const OBJECTS: Imported[] = [
  { type: 'dq_owner', name: 'ops', key: 'k-ops' },
  { type: 'dq_owner', name: 'later', key: 'k-later' },
  { type: 'dq_owner', name: 'up', key: 'OWNER-9' },
  { type: 'dq_owner', name: 'x', key: 'xowner-1' },
  { type: 'dq_data_product', name: 'sales', key: 'k-sales' },
  { type: 'dq_data_product', name: 'hr', key: 'k-hr' },
  { type: 'dq_domain', name: 'root', key: 'k-root' },
  { type: 'dq_domain', name: 'sub', key: 'k-sub' },
];
const DECLARED = ['dq_owner.ops', 'dq_owner.up', 'dq_owner.x', 'dq_data_product.sales', 'dq_domain.root'];
const ts = () => tsHelpers(OBJECTS, DECLARED);
const keys = (o: unknown) => Object.keys(o as Json);

describe('owner import', () => {
  it('renders each contact as its Contact factory and keeps an unknown one', () => {
    const { h, used } = ts();
    const c = { title: 'T', id: 'i', contacts: [{ slack: { channel: '#a' } }, { email: { recipientEmails: ['a@x', 'b@x'] } }, { msTeams: { channelId: 'c1' } }, { users: { userEmails: ['u@x'] } }, { pager: { n: 1 } }] };
    const out = ownerImport.ts!(c, h);
    expect(out).toStrictEqual({
      contacts: [{ code: "Contact.slack('#a')" }, { code: 'Contact.email(lit["a@x","b@x"])' }, { code: "Contact.msTeams('c1')" }, { code: 'Contact.users(lit["u@x"])' }, { pager: { n: 1 } }],
      id: 'i',
      title: 'T',
    });
    expect(keys(out)).toEqual(['contacts', 'id', 'title']);
    expect(used).toEqual(['Contact', 'Contact', 'Contact', 'Contact', 'Contact']);
  });

  it('leaves contacts that are not a list and uses no class', () => {
    const { h, used } = ts();
    expect(ownerImport.ts!({ contacts: 'x', b: 1, a: 2 }, h)).toStrictEqual({ a: 2, b: 1, contacts: 'x' });
    expect(keys(ownerImport.ts!({ b: 1, a: 2 }, h))).toEqual(['a', 'b']);
    expect(used).toEqual([]);
  });
});

describe('ownership import', () => {
  it('renders declared owner and product as variables, in id/owner/dataProduct/alert order, dropping the rest', () => {
    const { h } = ts();
    const out = ownershipImport.ts!({ alert: { on: true }, extra: 'x', selection: { dataproductId: '${dq_data_product.sales.id}' }, ownerId: '${dq_owner.ops.id}', id: 'o1' }, h);
    expect(out).toStrictEqual({ id: 'o1', owner: { code: 'var_ops' }, dataProduct: { code: 'var_sales' }, alert: { on: true } });
    expect(keys(out)).toEqual(['id', 'owner', 'dataProduct', 'alert']);
  });

  it('renders undeclared references as the ids they stand for', () => {
    const { h } = ts();
    expect(ownershipImport.ts!({ id: 'o2', ownerId: '${dq_owner.later.id}', selection: { dataproductId: '${dq_data_product.hr.id}' } }, h)).toStrictEqual({ id: 'o2', owner: 'k-later', dataProduct: 'k-hr' });
    expect(ownershipImport.ts!({ id: 'o3', ownerId: 'raw-owner', selection: { dataproductId: 'raw-dp' } }, h)).toStrictEqual({ id: 'o3', owner: 'raw-owner', dataProduct: 'raw-dp' });
  });

  it('renders a query selection through queryInput and omits what is absent', () => {
    const { h, used } = ts();
    expect(ownershipImport.ts!({ id: 'o4', ownerId: 'w', selection: { query: { resolverQl: 'Q' } } }, h)).toStrictEqual({ id: 'o4', owner: 'w', query: 'Q' });
    expect(used).toEqual([]);
    expect(ownershipImport.ts!({ id: 'o5', ownerId: 'w', selection: { query: { query: { parts: [1] } } } }, h)).toStrictEqual({ id: 'o5', owner: 'w', query: { code: 'Query.model({"parts":[1]})' } });
    expect(used).toEqual(['Query']);
    expect(ownershipImport.ts!({ id: 'o6', ownerId: 'w', selection: { query: 'not-an-object' } }, h)).toStrictEqual({ id: 'o6', owner: 'w' });
    expect(ownershipImport.ts!({ id: 'o7', ownerId: 'w' }, h)).toStrictEqual({ id: 'o7', owner: 'w' });
  });

  it('substitutes the owner and, in a selection, the data product', () => {
    const r = recordingSub();
    const x = { ownerId: 'a', selection: { dataproductId: 'b' } };
    ownershipImport.refs!(x, r.sub);
    expect(r.calls).toEqual(['ownerId:dq_owner', 'dataproductId:dq_data_product']);
    expect(r.on[0]).toBe(x);
    expect(r.on[1]).toBe(x.selection);
    const r2 = recordingSub();
    ownershipImport.refs!({ ownerId: 'a', selection: 'x' }, r2.sub);
    expect(r2.calls).toEqual(['ownerId:dq_owner']);
  });

  it('yaml: names the owner and a lone product or query selection', () => {
    const a: Json = { id: 'i', ownerId: '${dq_owner.ops.id}', selection: { dataproductId: '${dq_data_product.sales.id}' } };
    ownershipImport.yaml!(a, yamlHelpers);
    expect(a).toStrictEqual({ id: 'i', owner: 'ops', dataProduct: 'sales' });
    const b: Json = { ownerId: '${dq_owner.ops.entity_id}', selection: { query: { resolverQl: '' } } };
    ownershipImport.yaml!(b, yamlHelpers);
    expect(b).toStrictEqual({ ownerId: '${dq_owner.ops.entity_id}', query: '' });
  });

  it('yaml: keeps a selection it cannot name whole', () => {
    for (const selection of [{ dataproductId: 'raw' }, { dataproductId: '${dq_data_product.sales.id}', other: 1 }, { query: { resolverQl: 'Q' }, other: 1 }, { query: { resolverQl: 'Q', parts: [] } }, { dataproductId: '${dq_domain.root.id}' }, { dataproductId: '${dq_data_product.sales.entity_id}' }]) {
      const x: Json = { ownerId: 'raw', selection };
      ownershipImport.yaml!(x, yamlHelpers);
      expect(x).toStrictEqual({ ownerId: 'raw', selection });
    }
    const none: Json = { ownerId: '${dq_owner.ops.id}' };
    ownershipImport.yaml!(none, yamlHelpers);
    expect(none).toStrictEqual({ owner: 'ops' });
  });
});

describe('domain import', () => {
  it('renders parent and parts as variables, ids or queries', () => {
    const { h, used } = ts();
    const c = {
      title: 'D',
      parentId: '${dq_domain.root.id}',
      definition: {
        parts: [
          { dataproductId: '${dq_data_product.sales.id}' },
          { dataproductId: '${dq_data_product.hr.id}' },
          { domainId: '${dq_domain.root.id}' },
          { domainId: '${dq_domain.sub.id}' },
          { query: { resolverQl: 'Q' } },
          { query: { query: { parts: [4] } } },
          { query: 'odd' },
        ],
      },
    };
    const out = domainImport.ts!(c, h);
    expect(out).toStrictEqual({
      parent: { code: 'var_root' },
      parts: [{ dataProduct: { code: 'var_sales' } }, { dataProduct: 'k-hr' }, { domain: { code: 'var_root' } }, { domain: 'k-sub' }, { query: 'Q' }, { query: { code: 'Query.model({"parts":[4]})' } }, { query: 'odd' }],
      title: 'D',
    });
    expect(used).toEqual(['Query']);
  });

  it('renders an undeclared parent as its id; no parent, no definition or no parts render as such', () => {
    const { h } = ts();
    expect(domainImport.ts!({ parentId: '${dq_domain.sub.id}' }, h)).toStrictEqual({ parent: 'k-sub' });
    expect(domainImport.ts!({ title: 'T' }, h)).toStrictEqual({ title: 'T' });
    expect(domainImport.ts!({ title: 'T', definition: {} }, h)).toStrictEqual({ parts: [], title: 'T' });
  });

  it('substitutes the parent and each part’s product and domain', () => {
    const r = recordingSub();
    const x = { parentId: 'p', definition: { parts: [{ dataproductId: 'a' }, { domainId: 'b' }] } };
    domainImport.refs!(x, r.sub);
    expect(r.calls).toEqual(['parentId:dq_domain', 'dataproductId:dq_data_product', 'domainId:dq_domain', 'dataproductId:dq_data_product', 'domainId:dq_domain']);
    expect(r.on[0]).toBe(x);
    expect(r.on[1]).toBe(x.definition.parts[0]);
    expect(r.on[4]).toBe(x.definition.parts[1]);
    for (const definition of [undefined, 'x', { parts: 'x' }]) {
      const r2 = recordingSub();
      domainImport.refs!({ parentId: 'p', definition }, r2.sub);
      expect(r2.calls).toEqual(['parentId:dq_domain']);
    }
  });

  it('yaml: names the parent and each part it can', () => {
    const x: Json = {
      parentId: '${dq_domain.root.id}',
      definition: {
        parts: [
          { dataproductId: '${dq_data_product.sales.id}', domainId: '${dq_domain.sub.id}' },
          { domainId: '${dq_domain.sub.id}' },
          { query: { resolverQl: '' } },
          { dataproductId: 'raw' },
          { dataproductId: '${dq_data_product.sales.entity_id}' },
          { domainId: '${dq_domain.sub.entity_id}' },
        ],
      },
    };
    domainImport.yaml!(x, yamlHelpers);
    expect(x).toStrictEqual({
      definition: { parts: [{ dataProduct: 'sales' }, { domain: 'sub' }, { query: '' }, { dataproductId: 'raw' }, { dataproductId: '${dq_data_product.sales.entity_id}' }, { domainId: '${dq_domain.sub.entity_id}' }] },
      parent: 'root',
    });
    for (const y of [{ parentId: 'raw' }, { parentId: '${dq_domain.root.entity_id}', definition: { parts: 'x' } }, { definition: 'x' }]) {
      const copy = structuredClone(y);
      domainImport.yaml!(copy as Json, yamlHelpers);
      expect(copy).toStrictEqual(y);
    }
  });
});

describe('data product import', () => {
  it('renders the definition’s parts with queries through queryInput', () => {
    const { h, used } = ts();
    expect(dataProductImport.ts!({ title: 'P', definition: { parts: [{ query: { resolverQl: 'Q' } }, { query: { query: { parts: [2] } } }, { other: 1 }] } }, h)).toStrictEqual({
      parts: [{ query: 'Q' }, { query: { code: 'Query.model({"parts":[2]})' } }, { other: 1 }],
      title: 'P',
    });
    expect(used).toEqual(['Query']);
    expect(dataProductImport.ts!({ title: 'P', definition: {} }, h)).toStrictEqual({ parts: [], title: 'P' });
    expect(dataProductImport.ts!({ title: 'P' }, h)).toStrictEqual({ title: 'P' });
  });

  it('yaml: a lone ResolverQL query becomes a string', () => {
    const x: Json = { definition: { parts: [{ query: { resolverQl: 'Q' } }, { query: { resolverQl: '' } }, { query: { resolverQl: 'Q', other: 1 } }, { other: 1 }] } };
    dataProductImport.yaml!(x, yamlHelpers);
    expect(x).toStrictEqual({ definition: { parts: [{ query: 'Q' }, { query: '' }, { query: { resolverQl: 'Q', other: 1 } }, { other: 1 }] } });
    for (const y of [{ definition: { parts: 'x' } }, { definition: 'x' }, {}]) {
      const copy = structuredClone(y);
      dataProductImport.yaml!(copy as Json, yamlHelpers);
      expect(copy).toStrictEqual(y);
    }
  });
});

describe('alert import', () => {
  it('has the three bodies', () => {
    expect(ALERT_BODIES).toEqual(['issueLifecycle', 'schemaChange', 'incidentLifecycle']);
  });

  it('renders triggers, owner targets and the issue owner of every body', () => {
    const { h, used } = ts();
    const c = {
      fqn: 'f',
      issueLifecycle: {
        trigger: { resolverQl: 'Q' },
        owner: '${dq_owner.ops.entity_id}',
        targets: [{ owner: { ownerPath: '${dq_owner.ops.entity_id}' } }, { owner: { ownerPath: '${dq_owner.later.entity_id}' } }, { owner: { ownerPath: '${dq_owner.ops.id}' } }, { owner: { ownerPath: 7, extra: 1 }, note: 'n' }, { owner: 'x' }, { slack: { channel: '#c' } }],
      },
      schemaChange: { trigger: { query: { parts: [3] } }, owner: '${dq_owner.later.entity_id}', targets: 'x' },
      incidentLifecycle: { trigger: 'raw', owner: '${dq_owner.ops.id}' },
    };
    const out = alertImport.ts!(c, h);
    expect(out).toStrictEqual({
      fqn: 'f',
      incidentLifecycle: { trigger: 'raw', owner: 'k-ops' },
      issueLifecycle: {
        trigger: 'Q',
        owner: { code: 'var_ops' },
        targets: [{ code: 'Target.owner(var_ops)' }, { owner: { ownerPath: 'owner-k-later' } }, { owner: { ownerPath: 'k-ops' } }, { owner: { ownerPath: 7, extra: 1 }, note: 'n' }, { owner: 'x' }, { slack: { channel: '#c' } }],
      },
      schemaChange: { trigger: { code: 'Query.model({"parts":[3]})' }, owner: 'owner-k-later', targets: 'x' },
    });
    expect(keys(out)).toEqual(['fqn', 'incidentLifecycle', 'issueLifecycle', 'schemaChange']);
    expect(used).toEqual(['Target', 'Query']);
  });

  it('renders an owner id as a variable only when it starts with owner- (any case)', () => {
    const { h } = ts();
    const out = alertImport.ts!({ issueLifecycle: { owner: '${dq_owner.up.id}' }, schemaChange: { owner: '${dq_owner.x.id}' }, incidentLifecycle: { owner: 'owner-raw' } }, h);
    expect(out).toStrictEqual({ incidentLifecycle: { owner: 'owner-raw' }, issueLifecycle: { owner: { code: 'var_up' } }, schemaChange: { owner: 'xowner-1' } });
    expect(alertImport.ts!({ issueLifecycle: 'x', schemaChange: { title: 't' } }, h)).toStrictEqual({ issueLifecycle: 'x', schemaChange: { title: 't' } });
  });

  it('substitutes the issue owner and every owner target', () => {
    const r = recordingSub();
    const x = {
      issueLifecycle: { owner: 'o', targets: [{ owner: { ownerPath: 'a' } }, { slack: {} }, { owner: 'n' }] },
      schemaChange: { owner: 'o', targets: [{ owner: { ownerPath: 'b' } }] },
      incidentLifecycle: { owner: 'o' },
    };
    alertImport.refs!(x, r.sub);
    expect(r.calls).toEqual(['owner:dq_owner', 'ownerPath:dq_owner', 'ownerPath:dq_owner']);
    expect(r.on[0]).toBe(x.issueLifecycle);
    expect(r.on[1]).toBe(x.issueLifecycle.targets[0].owner);
    expect(r.on[2]).toBe(x.schemaChange.targets[0].owner);
    const r2 = recordingSub();
    alertImport.refs!({ issueLifecycle: 'x' }, r2.sub);
    expect(r2.calls).toEqual([]);
  });

  it('yaml: lone ResolverQL triggers become strings, lone owner entity-id targets become names', () => {
    const x: Json = {
      issueLifecycle: {
        trigger: { resolverQl: '' },
        targets: [{ owner: { ownerPath: '${dq_owner.ops.entity_id}' } }, { owner: { ownerPath: '${dq_owner.ops.id}' } }, { owner: { ownerPath: '${dq_owner.ops.entity_id}', x: 1 } }, { owner: 'n' }, { slack: {} }],
      },
      schemaChange: { trigger: { resolverQl: 'Q', other: 1 }, targets: 'x' },
      incidentLifecycle: { trigger: { resolverQl: 'I' }, targets: [{ owner: { ownerPath: '${dq_domain.root.entity_id}' } }] },
    };
    alertImport.yaml!(x, yamlHelpers);
    expect(x).toStrictEqual({
      issueLifecycle: {
        trigger: '',
        targets: [{ owner: 'ops' }, { owner: { ownerPath: '${dq_owner.ops.id}' } }, { owner: { ownerPath: '${dq_owner.ops.entity_id}', x: 1 } }, { owner: 'n' }, { slack: {} }],
      },
      schemaChange: { trigger: { resolverQl: 'Q', other: 1 }, targets: 'x' },
      incidentLifecycle: { trigger: 'I', targets: [{ owner: { ownerPath: '${dq_domain.root.entity_id}' } }] },
    });
    const y: Json = { issueLifecycle: 'x' };
    alertImport.yaml!(y, yamlHelpers);
    expect(y).toStrictEqual({ issueLifecycle: 'x' });
  });
});

describe('deployment rule imports (ruleTs)', () => {
  it('renders queries first, the product as a variable and a self selection as Query.model', () => {
    const { h, used } = ts();
    const c = {
      title: 'R',
      queryConfig: { schedule: 's', resolverQl: 'Q', query: { translated: true } },
      exclusiveQueryConfig: { query: { parts: [1] }, z: 1 },
      productConfig: { self: { selection: { query: { a: 1 } }, other: 2 }, productId: '${dq_data_product.sales.id}', more: 3 },
    };
    const out = ruleTs(c, h);
    expect(out).toStrictEqual({
      exclusiveQueryConfig: { query: { code: 'Query.model({"parts":[1]})' }, z: 1 },
      productConfig: { product: { code: 'var_sales' }, self: { selection: { code: 'Query.model(lit6{"a":1})' }, other: 2 }, more: 3 },
      queryConfig: { query: 'Q', schedule: 's' },
      title: 'R',
    });
    expect(keys(out.queryConfig)).toEqual(['query', 'schedule']);
    expect(keys(out.exclusiveQueryConfig)).toEqual(['query', 'z']);
    expect(keys(out.productConfig)).toEqual(['product', 'self', 'more']);
    expect(used).toEqual(['Query', 'Query']);
  });

  it('renders an undeclared product as its id and leaves a self without a query selection', () => {
    const { h, used } = ts();
    for (const self of [{ selection: { query: 'x' } }, { selection: 'x' }, { other: 1 }]) {
      expect(ruleTs({ productConfig: { productId: '${dq_data_product.hr.id}', self: structuredClone(self) } }, h)).toStrictEqual({ productConfig: { product: 'k-hr', self } });
    }
    expect(ruleTs({ productConfig: { productId: 'raw' } }, h)).toStrictEqual({ productConfig: { product: 'raw' } });
    expect(ruleTs({ queryConfig: 'x', productConfig: 'y', b: 1, a: 2 }, h)).toStrictEqual({ a: 2, b: 1, productConfig: 'y', queryConfig: 'x' });
    expect(used).toEqual([]);
  });

  it('both rule kinds render with ruleTs', () => {
    expect(monitorDeploymentRuleImport.ts).toBe(ruleTs);
    expect(sqlTestDeploymentRuleImport.ts).toBe(ruleTs);
  });

  it('monitor rule: substitutes and names the product', () => {
    const r = recordingSub();
    const x = { productConfig: { productId: 'p' } };
    monitorDeploymentRuleImport.refs!(x, r.sub);
    expect(r.calls).toEqual(['productId:dq_data_product']);
    expect(r.on[0]).toBe(x.productConfig);
    const r2 = recordingSub();
    monitorDeploymentRuleImport.refs!({ productConfig: 'p' }, r2.sub);
    expect(r2.calls).toEqual([]);

    const y: Json = { productConfig: { self: true, productId: '${dq_data_product.sales.id}' } };
    monitorDeploymentRuleImport.yaml!(y, yamlHelpers);
    expect(y).toStrictEqual({ productConfig: { product: 'sales', self: true } });
    expect(keys(y.productConfig)).toEqual(['product', 'self']);
    for (const z of [{ productConfig: { productId: '${dq_data_product.sales.entity_id}' } }, { productConfig: { productId: 'raw' } }, { productConfig: 'x' }, {}]) {
      const copy = structuredClone(z);
      monitorDeploymentRuleImport.yaml!(copy as Json, yamlHelpers);
      expect(copy).toStrictEqual(z);
    }
  });
});

describe('SQL test imports read the platform messages back in dqform’s shape', () => {
  it('SQL test', () => {
    const test = { title: 't', template: { identifier: { tablePath: 'a.b' }, notNull: { columns: ['c'] } } };
    const wire = sqlTestToWire(test);
    expect(wire).not.toEqual(test);
    expect(sqlTestImport.fromLive!(wire)).toEqual(test);
  });

  it('SQL-test deployment rule', () => {
    const rule = { title: 'r', queryConfig: { tests: [{ testName: 'n', notNull: { columns: ['c'] } }] } };
    const wire = sqlTestRuleToWire(rule);
    expect(wire).not.toEqual(rule);
    expect(sqlTestDeploymentRuleImport.fromLive!(wire)).toEqual(rule);
  });
});

describe('importRenderingOf', () => {
  it('gives each kind its own rendering, and nothing for an unknown type', () => {
    expect(importRenderingOf('dq_owner')).toBe(ownerImport);
    expect(importRenderingOf('dq_ownership')).toBe(ownershipImport);
    expect(importRenderingOf('dq_domain')).toBe(domainImport);
    expect(importRenderingOf('dq_data_product')).toBe(dataProductImport);
    expect(importRenderingOf('dq_alert')).toBe(alertImport);
    expect(importRenderingOf('dq_monitor_deployment_rule')).toBe(monitorDeploymentRuleImport);
    expect(importRenderingOf('dq_sql_test')).toBe(sqlTestImport);
    expect(importRenderingOf('dq_sql_test_deployment_rule')).toBe(sqlTestDeploymentRuleImport);
    expect(importRenderingOf('dq_widget')).toStrictEqual({});
  });
});
