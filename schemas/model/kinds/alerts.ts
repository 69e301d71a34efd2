/**
 * The alerts kind in dqform's model: what code declares (the desired shape), the `dqform.yaml`
 * entry and the kind's record (../kind.ts); the wire shapes they build on are in
 * schemas/platform/alerts.ts.
 */
import { z } from 'zod';
import { AlertTarget, AlertTemplate, AlertTrigger, IncidentLifecycleAlert, IssueLifecycleAlert, SchemaChangeAlert } from '../../platform/alerts';
import { oneof, withOneof } from '../../platform/common';
import { type Shape, defineKind, nameRef, ql, unwrapped, yamlMeta } from '../kind';

// ---- the kind (schemas/model/kind.ts) ----
export const DesiredAlert = withOneof(
  {
    /** Pinned fqn; default `<namespace>.<resource name>`. */
    fqn: z.string().min(1).max(500).optional().describe('pinned fully qualified name (the alert\'s identity); default <namespace>.<name>'),
    name: z.string().min(1).max(255).describe('the alert\'s display name'),
    isDisabled: z.boolean().optional().describe('create or keep the alert switched off'),
    template: AlertTemplate.optional().describe('the message template (title and plain or structured text)'),
  },
  {
    issueLifecycle: IssueLifecycleAlert.describe('alert on data-quality issues of the entities the trigger selects'),
    schemaChange: SchemaChangeAlert.describe('alert on schema changes of the entities the trigger selects'),
    incidentLifecycle: IncidentLifecycleAlert.describe('alert on incidents opening, closing or being cancelled'),
  },
);
export type DesiredAlert = z.infer<typeof DesiredAlert>;

// ---- dqform.yaml ----
const ownerTarget = unwrapped(AlertTarget as unknown as { shape: Shape }, ['owner']).owner;
/** An alert target; `owner` also takes an owner's name in this file. */
export const YamlAlertTarget = oneof({
  ...unwrapped(AlertTarget as unknown as { shape: Shape }, ['slack', 'email', 'msTeams', 'webhook']),
  owner: z.union([nameRef('an owner'), ownerTarget]).describe('an owner of this file by name, or { ownerPath }'),
});
const yamlTrigger = z.union([ql, AlertTrigger]).describe('which entities the alert watches: ResolverQL text, or { resolverQl } / { query }');
const yamlTargets = z.array(YamlAlertTarget).min(1).describe('where notifications go: slack, email, owner (a name in this file), msTeams or webhook');
export const YamlAlert = withOneof(
  { fqn: DesiredAlert.shape.fqn, name: DesiredAlert.shape.name, isDisabled: DesiredAlert.shape.isDisabled, template: DesiredAlert.shape.template, ...yamlMeta },
  {
    issueLifecycle: IssueLifecycleAlert.extend({ trigger: yamlTrigger, targets: yamlTargets }).describe('alert on data-quality issues of the entities the trigger selects'),
    schemaChange: SchemaChangeAlert.extend({ trigger: yamlTrigger, targets: yamlTargets }).describe('alert on schema changes of the entities the trigger selects'),
    incidentLifecycle: IncidentLifecycleAlert.extend({ targets: yamlTargets }).describe('alert on incidents opening, closing or being cancelled'),
  },
);

export const alertKindRecord = defineKind({
  type: 'dq_alert',
  order: 50,
  desired: DesiredAlert,
  yaml: { section: 'alerts', entry: YamlAlert, what: 'alerts' },
});
