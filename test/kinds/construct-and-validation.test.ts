/**
 * Facts of the kinds that imported code and `plan` show a user: the construct class each kind is
 * written with (and the suffix of its variables), and the alert rules checked offline.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateAlert } from '../../src/kinds/alert/validate';
import { KINDS } from '../../src/kinds/descriptors';
import { configProblems } from '../../src/kinds/validation';

describe('construct facts', () => {
  // read as text: loading the construct library takes seconds, too slow for a mutation run
  it('each kind names the construct-library class of its resource type', () => {
    const dir = join(__dirname, '../../constructs');
    const resources = readFileSync(join(dir, 'resources.ts'), 'utf8');
    // each L2 extends its generated L1, loaded on first use: `extends lazyL1('<type>', () => (require('./generated/<kind>') as ...).<L1>)`
    const typeOfClass = new Map(
      [...resources.matchAll(/^export class (\w+) extends lazyL1\('(dq_\w+)', \(\) => \(require\('\.\/(generated\/[\w-]+)'\) as typeof \w+\)\.\w+\) \{$/gm)].map((m) => [
        m[1],
        [m[2], /tfResourceType = "(\w+)"/.exec(readFileSync(join(dir, `${m[3]}/index.ts`), 'utf8'))?.[1]],
      ]),
    );
    expect(typeOfClass.size).toBe(KINDS.length);
    for (const k of KINDS) expect([k.type, typeOfClass.get(k.construct.className)]).toEqual([k.type, [k.type, k.type]]);
  });

  it('variables of imported code end in the kind’s suffix for the kinds referenced by others', () => {
    expect(Object.fromEntries(KINDS.filter((k) => k.construct.varSuffix !== undefined).map((k) => [k.type, k.construct.varSuffix]))).toEqual({ dq_owner: 'Owner', dq_domain: 'Domain', dq_data_product: 'Product' });
  });
});

describe('alert validation', () => {
  const incident = { name: 'a', incidentLifecycle: { targets: [{ slack: { channel: '#a' } }, { email: { recipientEmails: ['x@y'] } }] } };

  it('reports the platform’s alert rules with the field and the rule as hint', () => {
    expect(validateAlert(incident, { fqn: 'f' })).toEqual([
      { field: 'incidentLifecycle.targets[1]', message: 'incident-lifecycle alerts cannot send to e-mail targets; use slack, owner or webhook', hint: 'rule alert.incident_lifecycle.targets' },
    ]);
    expect(validateAlert({ name: 'a', incidentLifecycle: { targets: [{ slack: { channel: '#a' } }] } }, {})).toEqual([]);
  });

  it('configProblems checks alerts only', () => {
    expect(configProblems('dq_alert', incident, { fqn: 'f' })).toHaveLength(1);
    expect(configProblems('dq_alert', incident, { fqn: 'f' })[0].hint).toBe('rule alert.incident_lifecycle.targets');
    expect(configProblems('dq_owner', incident, {})).toEqual([]);
    expect(configProblems('dq_widget', incident, {})).toEqual([]);
  });
});
