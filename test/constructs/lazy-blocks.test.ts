/**
 * The generated L1 classes build their block references lazily (constructs/codegen
 * `lazyBlockReferences`) and the L2 constructs make light same-stack references: both must
 * behave exactly as cdktf's eager references do.
 */
import { App, Fn, TerraformOutput, TerraformStack } from 'cdktf';
import { DqStack, l1, Owner, Ownership, Query } from '../../constructs';
import { newApp, synth, synthStack } from './synth';

const ALERT = { name: 'n' };
/** The generated config types mark oneof members as required: these tests pass partial configs on purpose. */
const cfg = (x: object) => x as unknown as l1.alert.AlertConfig;

it('a block value a fresh reference reports as absent is left out, as with an eager reference', () => {
  const { outdir } = newApp();
  // Not valid dq alerts: validation off, this is about the L1 bindings alone.
  const app = new App({ outdir, skipValidation: true });
  {
    const s = new DqStack(app, 's', { namespace: 'ns' });
    // Keys that are all undefined: cdktf's reference reports the block as absent.
    new l1.alert.Alert(s, 'degenerate', cfg({ ...ALERT, issueLifecycle: { settings: undefined, trigger: undefined } }));
    // An empty object is kept as an empty block.
    new l1.alert.Alert(s, 'empty', cfg({ ...ALERT, schemaChange: {} }));
  }
  const { json } = synthStack(app, outdir, 's');
  expect(json.resource.dq_alert.degenerate.issue_lifecycle).toBeUndefined();
  expect(json.resource.dq_alert.empty.schema_change).toEqual({});
});

it('a block stored without a reference is handed to the reference when one is asked for', () => {
  const { json } = synth((app) => {
    const s = new DqStack(app, 's', { namespace: 'ns' });
    const a = new l1.alert.Alert(s, 'a', cfg({ ...ALERT, issueLifecycle: { targets: [{ slack: { channel: '#x' } }], settings: { severities: ['SEVERITY_ERROR'] } } }));
    expect(a.issueLifecycleInput).toMatchObject({ settings: { severities: ['SEVERITY_ERROR'] } });
    // Asking for the reference builds it with the stored value; changes through it count.
    a.issueLifecycle.putTrigger({ resolverQl: 'with_type("table")' });
    a.issueLifecycle.settings.notifyUpstream = true;
    expect(a.issueLifecycleInput).toMatchObject({ trigger: { resolverQl: 'with_type("table")' }, settings: { severities: ['SEVERITY_ERROR'], notifyUpstream: true } });
    new TerraformOutput(s, 'severities', { value: a.issueLifecycle.settings.severities });
    a.resetSchemaChange();
  }, 's');
  expect(json.resource.dq_alert.a.issue_lifecycle).toEqual({
    settings: { notify_upstream: true, severities: ['SEVERITY_ERROR'] },
    targets: [{ slack: { channel: '#x' } }],
    trigger: { resolver_ql: 'with_type("table")' },
  });
  expect((json.output as Record<string, { value: string }>).severities.value).toBe('${dq_alert.a.issue_lifecycle.settings.severities}');
});

it('same-stack references resolve like cdktf references, inside expressions and across stacks', () => {
  let ownerId = '';
  const { json } = synth((app) => {
    const s = new DqStack(app, 's', { namespace: 'ns' });
    const o = new Owner(s, 'o', { title: 'Team' });
    const own = new Ownership(s, 'own', { owner: o, query: Query.withType('table') });
    ownerId = own.ownerIdInput ?? '';
    new TerraformOutput(s, 'lower', { value: Fn.lower(ownerId) });
    // The token passed on to another stack becomes a cross-stack reference, as cdktf's would.
    const other = new TerraformStack(app, 'other');
    new TerraformOutput(other, 'passed', { value: ownerId });
  }, 's');
  expect(json.resource.dq_ownership.own.owner_id).toBe('${dq_owner.o.id}');
  expect((json.output as Record<string, { value: string }>).lower.value).toBe('${lower(dq_owner.o.id)}');
  const outputs = Object.keys(json.output as object);
  expect(outputs.some((k) => k.startsWith('cross-stack-output-dq_ownero'))).toBe(true);
});
