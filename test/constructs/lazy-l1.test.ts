/**
 * An app pays only for the kinds it declares: loading `constructs` loads no generated L1 module
 * (`constructs/generated/<kind>/`) and no kind's desired schemas (`schemas/model/kinds/<file>`),
 * the first construct of a kind loads that kind's (and no other), `l1.<kind>` loads its module
 * when read. Checked in a fresh node process (jest's module
 * registry would hide what node loaded). The L2 is then exactly a subclass of its L1.
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { App } from 'cdktf';
import { Domain, DqStack, Integration, l1, Owner, SqlTest } from '../../constructs';

const ROOT = path.resolve(__dirname, '..', '..');

/** Runs `body` after requiring constructs in a fresh process; the generated modules loaded after each step. */
function loadedAfter(body: string): Record<string, string[]> {
  const script = `
const c = require(${JSON.stringify(path.join(ROOT, 'constructs/index.ts'))});
const steps = {};
const l1s = () => Object.keys(require.cache).map((k) => /constructs[\\\\/]generated[\\\\/]([a-z-]+)[\\\\/]/.exec(k)?.[1]).filter(Boolean).sort();
const models = () => Object.keys(require.cache).map((k) => /schemas[\\/]model[\\/]kinds[\\/]([a-z-]+)\\.ts$/.exec(k)?.[1]).filter(Boolean).sort();
const step = (name) => { steps[name] = l1s(); steps[name + ' schemas'] = models(); };
step('load');
${body}
process.stdout.write(JSON.stringify(steps));`;
  const out = execFileSync(process.execPath, ['--require', require.resolve('tsx/cjs'), '-e', script], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' }, timeout: 60_000 });
  return JSON.parse(out) as Record<string, string[]>;
}

it('loads an L1 module and the desired schemas only when their kind is first used', () => {
  const steps = loadedAfter(`
const app = new c.App();
const s = new c.DqStack(app, 's', { namespace: 'n' });
step('stack');
new c.Domain(s, 'd', { name: 'D' });
new c.Domain(s, 'e', { name: 'E' });
step('domain');
void c.Integration.tfResourceType;
step('static');
void c.l1.owner;
step('l1.owner');`);
  expect(steps).toEqual({
    load: ['provider'],
    stack: ['provider'],
    domain: ['domain', 'provider'],
    static: ['domain', 'provider'],
    'l1.owner': ['domain', 'owner', 'provider'],
    'load schemas': [],
    'stack schemas': [],
    'domain schemas': ['governance'],
    'static schemas': ['governance'],
    'l1.owner schemas': ['governance'],
  });
}, 120_000);

it('an L2 is a subclass of its L1, before and after the first construct', () => {
  expect(Integration.tfResourceType).toBe('dq_integration');
  expect(SqlTest.tfResourceType).toBe('dq_sql_test');
  const stack = new DqStack(new App(), 's', { namespace: 'n' });
  const d = new Domain(stack, 'd', { name: 'D' });
  class Team extends Owner {}
  const t = new Team(stack, 't', { title: 'T' });
  expect(d).toBeInstanceOf(l1.domain.Domain);
  expect(t).toBeInstanceOf(l1.owner.Owner);
  expect(t).toBeInstanceOf(Owner);
  expect(Object.getPrototypeOf(Domain)).toBe(l1.domain.Domain);
  expect(Object.getPrototypeOf(Owner)).toBe(l1.owner.Owner);
  expect(Domain.tfResourceType).toBe('dq_domain');
  expect(t.terraformResourceType).toBe('dq_owner');
  const imported = Integration.generateConfigForImport(stack, 'imp', 'int-1');
  expect(imported.node.id).toBe('imp');
  expect(Object.keys(l1)).toEqual(['alert', 'checkCategorisationRule', 'dataProduct', 'domain', 'integration', 'monitorDeploymentRule', 'owner', 'ownership', 'savedView', 'sqlTest', 'sqlTestDeploymentRule', 'provider']);
});
