/**
 * Golden snapshots of the synthesised Terraform JSON of both examples, and determinism.
 * Refresh with `UPDATE_GOLDEN=1 npx jest test/constructs/golden.test.ts`.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { build as buildAcme } from '../../examples/acme/main';
import { build as buildQuickstart } from '../../examples/quickstart/main';
import { camelDeep } from '../../constructs/internal';
import { RESOURCE_SCHEMAS, type ResourceType } from '../../schemas/model/manifest';
import { synth } from './synth';
import { expectGolden } from '../golden/expect-golden';

const GOLDEN = path.join(__dirname, 'golden');
const examples = [
  { name: 'quickstart', build: buildQuickstart },
  { name: 'acme', build: buildAcme },
];

describe.each(examples)('example $name', ({ name, build }) => {
  const file = path.join(GOLDEN, `${name}.cdk.tf.json`);

  it('synthesises exactly the golden JSON', () => {
    const { text } = synth(build, name);
    expectGolden(file, text);
  });

  it('is deterministic: two synths are byte-identical and name no path of this machine', () => {
    const a = synth(build, name).text;
    const b = synth(build, name).text;
    expect(a).toBe(b);
    for (const p of [process.cwd(), os.tmpdir(), os.homedir(), path.resolve(__dirname, '..', '..')]) expect(a).not.toContain(p);
    expect(a).not.toMatch(/"\/(?:tmp|home|root|work|Users)\//);
  });

  it('every resource converts (snake -> camel) into its desired schema, as the engine reads it', () => {
    const { json } = synth(build, name);
    let count = 0;
    for (const [type, byName] of Object.entries(json.resource)) {
      for (const [logicalId, raw] of Object.entries(byName)) {
        const { '//': _m, lifecycle: _l, depends_on: _d, ...config } = raw;
        const parsed = RESOURCE_SCHEMAS[type as ResourceType].safeParse(camelDeep(config));
        expect({ address: `${type}.${logicalId}`, issues: parsed.success ? [] : parsed.error.issues }).toEqual({ address: `${type}.${logicalId}`, issues: [] });
        count++;
      }
    }
    expect(count).toBeGreaterThan(5);
  });
});

it('acme covers every resource type and the removed / lifecycle declarations', () => {
  const { json } = synth(buildAcme, 'acme');
  // every type but dq_integration: its ids are server-assigned, which the lifecycle harness that
  // applies acme (test/lifecycle) cannot map to the plan yet; integrations have their own e2e
  // (test/e2e/integrations.test.ts) and example (docs/integrations.md)
  expect(Object.keys(json.resource).sort()).toEqual(Object.keys(RESOURCE_SCHEMAS).filter((t) => t !== 'dq_integration').sort());
  expect(json.removed).toEqual([{ from: 'dq_domain.marketing', lifecycle: { destroy: true } }]);
  expect(json.resource.dq_domain.retail.lifecycle).toEqual({ prevent_destroy: true });
  expect(json.resource.dq_owner.team_supply_chain.lifecycle).toEqual({ ignore_changes: ['contacts'] });
  expect(json.provider.dq).toEqual([{ namespace: 'acme-prod' }]);
  expect(json.terraform).toEqual({ backend: { local: { path: 'terraform.acme.tfstate' } }, required_providers: { dq: { source: 'dqform/dq', version: '0.1.0' } } });
});
