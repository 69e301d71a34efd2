/**
 * Alerts v2 (spec 2.2, 4.3, 4.4; upstream facts "Alerts v2").
 */
import { z } from 'zod';
import { Empty, Etag, oneof, protoEnum, required, Source, Timestamp, Violation, withOneof } from './common';
import { Query } from './entities';
import { tolerant } from './wire';

/**
 * Alert severity (issue alerts, ownership alerts): `SEVERITY_WARN=1, SEVERITY_ERROR=2,
 * SEVERITY_FATAL=3`, the platform's own names (wire-facts, decisions). Not the rule numbering
 * (rules: WARNING/ERROR/INFO). The names dqform used before (`ALERT_SEVERITY_*`) are deprecated
 * aliases: still accepted in code and YAML, with a warning naming the new spelling.
 */
export const AlertSeverityEnum = protoEnum(
  {
    SEVERITY_UNSPECIFIED: 0,
    SEVERITY_WARN: 1,
    SEVERITY_ERROR: 2,
    SEVERITY_FATAL: 3,
  },
  {
    aliases: {
      ALERT_SEVERITY_UNSPECIFIED: 'SEVERITY_UNSPECIFIED',
      ALERT_SEVERITY_WARN: 'SEVERITY_WARN',
      ALERT_SEVERITY_ERROR: 'SEVERITY_ERROR',
      ALERT_SEVERITY_FATAL: 'SEVERITY_FATAL',
    },
  },
);
export const AlertSeverity = required(AlertSeverityEnum);
export type AlertSeverity = z.infer<typeof AlertSeverity>;
/** @deprecated spellings of {@link AlertSeverity}: use `SEVERITY_WARN`, `SEVERITY_ERROR`, `SEVERITY_FATAL`. */
export type DeprecatedAlertSeverity = 'ALERT_SEVERITY_WARN' | 'ALERT_SEVERITY_ERROR' | 'ALERT_SEVERITY_FATAL';
/** What code may write for an alert severity: the current names, or (deprecated, with a warning) the old ones. */
export type AlertSeverityInput = AlertSeverity | DeprecatedAlertSeverity;

/** Incident states that trigger an incident-lifecycle alert. 0 is refused. */
export const IncidentStateEnum = protoEnum({ STATE_UNSPECIFIED: 0, STATE_OPEN: 1, STATE_CLOSED: 2, STATE_CANCELLED: 3 });
export const IncidentState = required(IncidentStateEnum);
export type IncidentState = z.infer<typeof IncidentState>;

const email = z.string().regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, 'must be an e-mail address');

/** Where an alert goes: exactly one of slack, email, owner, msTeams, webhook. */
export const AlertTarget = oneof({
  slack: z.object({ channel: z.string().min(1).describe('Slack channel, e.g. #data-alerts') }).describe('a Slack channel'),
  email: z.object({ recipientEmails: z.array(email).min(1).describe('e-mail addresses') }).describe('e-mail recipients'),
  /** `ownerPath` is the owner's `entityId`, `owner-<uuid>`. */
  owner: z.object({ ownerPath: z.string().min(1).describe('the owner\'s entity id (owner-<uuid>) or ${dq_owner.<name>.entity_id}') }).describe('an owner, reached through its contacts'),
  msTeams: z.object({ channel: z.string().min(1).describe('Teams channel') }).describe('a Microsoft Teams channel'),
  webhook: z.object({ webhookId: z.string().min(1).describe('id of a webhook integration') }).describe('a webhook'),
});
export type AlertTarget = z.infer<typeof AlertTarget>;
export const ALERT_TARGET_KINDS = ['slack', 'email', 'owner', 'msTeams', 'webhook'] as const;

/** Repeat notifications for an ongoing issue. */
export const Ongoing = oneof({
  disabled: Empty.describe('no repeats'),
  stream: Empty.describe('a notification on every change'),
  schedule: z.object({ cron: z.string().min(1).describe('5-field cron expression, e.g. 0 9 * * 1-5') }).describe('repeat on a schedule'),
});
export type Ongoing = z.infer<typeof Ongoing>;
export const Grouping = oneof({
  noGrouping: Empty.describe('one notification per issue'),
  systemDetected: Empty.describe('group related issues as the platform detects them'),
});
export type Grouping = z.infer<typeof Grouping>;

/** Which entities an entity alert watches. `resolverQl` wins over `query` on write. */
export const AlertTrigger = z.object({
  query: Query.optional().describe('the entities watched, as a query'),
  resolverQl: z.string().optional().describe('the entities watched, as ResolverQL (wins over query)'),
  /** Output only: the server's canonical form of `resolverQl`. */
  renderedResolverQl: z.string().optional().describe('output only: the server\'s canonical ResolverQL'),
});
export type AlertTrigger = z.infer<typeof AlertTrigger>;

const notifyUpstream = z.boolean().optional().describe('also alert on issues upstream of the watched entities');
const ongoing = Ongoing.optional().describe('repeat notifications while an issue stays open');
export const IssueLifecycleSettings = z.object({
  severities: z.array(AlertSeverity).min(1).describe('issue severities that alert: SEVERITY_WARN, SEVERITY_ERROR, SEVERITY_FATAL'),
  notifyUpstream,
  allowSqlTestAuditLink: z.boolean().optional().describe('link SQL test audits in the alert'),
  ongoing,
  grouping: Grouping.optional().describe('how issues are grouped into notifications'),
});
export type IssueLifecycleSettings = z.infer<typeof IssueLifecycleSettings>;
export const SchemaChangeSettings = z.object({ notifyUpstream, ongoing });
export type SchemaChangeSettings = z.infer<typeof SchemaChangeSettings>;
export const IncidentLifecycleSettings = z.object({ states: z.array(IncidentState).min(1).describe('incident states that alert: STATE_OPEN, STATE_CLOSED, STATE_CANCELLED') });
export type IncidentLifecycleSettings = z.infer<typeof IncidentLifecycleSettings>;

/** The owner an entity alert belongs to: `{ ownerPath (owner-<uuid>), ownershipId }`, both required. */
export const AlertOwner = z.object({
  ownerPath: z.string().min(1).describe('the owner\'s entity id, owner-<uuid>'),
  ownershipId: z.string().min(1).describe('the ownership the alert belongs to'),
});
export type AlertOwner = z.infer<typeof AlertOwner>;

const trigger = AlertTrigger.describe('which entities the alert watches');
const targets = z.array(AlertTarget).min(1).describe('where notifications go: slack, email, owner, msTeams or webhook');
const alertOwner = AlertOwner.optional().describe('the owner the alert belongs to; fixed at create (changing it replaces the alert)');
export const IssueLifecycleAlert = z.object({
  trigger,
  targets,
  settings: IssueLifecycleSettings.describe('which issues alert, and how'),
  /** Fixed at create: changing it is a replace. */
  owner: alertOwner,
});
export const SchemaChangeAlert = z.object({
  trigger,
  targets,
  settings: SchemaChangeSettings.default({}).describe('how schema changes alert'),
  /** Fixed at create: changing it is a replace. */
  owner: alertOwner,
});
export const IncidentLifecycleAlert = z.object({
  targets,
  settings: IncidentLifecycleSettings.describe('which incident states alert'),
});
export type IssueLifecycleAlert = z.infer<typeof IssueLifecycleAlert>;
export type SchemaChangeAlert = z.infer<typeof SchemaChangeAlert>;
export type IncidentLifecycleAlert = z.infer<typeof IncidentLifecycleAlert>;

export const ALERT_KINDS = ['issueLifecycle', 'schemaChange', 'incidentLifecycle'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
const kinds = { issueLifecycle: IssueLifecycleAlert, schemaChange: SchemaChangeAlert, incidentLifecycle: IncidentLifecycleAlert };

/** A block of a structured template: `{ name? (server assigns when unset), content }`. */
export const TemplateBlock = z.object({
  name: z.string().min(1).optional().describe('block name (the server assigns one when unset)'),
  content: z.string().describe('the block\'s text'),
});
/** An alert's message template: `title` and at most one of `plain` | `structured`. */
export const AlertTemplate = withOneof(
  { title: z.string().optional().describe('the notification\'s title') },
  {
    plain: z.string().describe('the message as plain text'),
    structured: z
      .object({
        summary: z.array(TemplateBlock).default([]).describe('blocks of the summary'),
        issueDetails: z.array(TemplateBlock).default([]).describe('blocks of the issue details'),
      })
      .describe('the message as summary and issue-detail blocks'),
  },
  { optional: true },
);
export type AlertTemplate = z.infer<typeof AlertTemplate>;

/**
 * Fields of the Create and Upsert bodies (flat: `body: "*"`). wire-facts Create: `name`, `fqn`,
 * `template?`, one kind; the spec's newer revision adds `configId` (and dqform writes `source`).
 * `isDisabled` is NOT a write field: it is set with ToggleEnabled.
 */
export const alertWriteFields = {
  name: z.string().min(1).max(255),
  fqn: z.string().min(1).max(500),
  template: AlertTemplate.optional(),
  configId: z.string().optional(),
  /** Who made it; the server defaults to SOURCE_API for API writes. */
  source: Source.optional(),
};

/** An alert as written: fields plus exactly one kind. */
export const AlertWrite = withOneof(alertWriteFields, kinds);
export type AlertWrite = z.infer<typeof AlertWrite>;

/** An alert as read: `id`, `createdAt`, `isDisabled`, `etag` besides the written fields. */
export const Alert = withOneof(
  {
    ...alertWriteFields,
    id: z.string(),
    createdAt: Timestamp.optional(),
    isDisabled: z.boolean().optional(),
    etag: Etag.optional(),
  },
  kinds,
);
export type Alert = z.infer<typeof Alert>;

/** The kind an alert holds. */
export function alertKind(a: Partial<Record<AlertKind, unknown>>): AlertKind | undefined {
  return ALERT_KINDS.find((k) => a[k] !== undefined);
}

/**
 * Kind and target rules from the upstream facts, shared by the emulator (which refuses),
 * the constructs and the engine (which report before any network call).
 */
export function alertRuleViolations(a: AlertWrite): Violation[] {
  const out: Violation[] = [];
  const kind = alertKind(a);
  if (!kind) return out;
  const body = a[kind] as { targets?: AlertTarget[]; settings?: { ongoing?: Ongoing; grouping?: Grouping } };
  const targets = body.targets ?? [];
  targets.forEach((t, i) => {
    if (kind === 'incidentLifecycle' && (t.email || t.msTeams)) {
      out.push({
        field: `incidentLifecycle.targets[${i}]`,
        ruleId: 'alert.incident_lifecycle.targets',
        message: `incident-lifecycle alerts cannot send to ${t.email ? 'e-mail' : 'Teams'} targets; use slack, owner or webhook`,
      });
    }
    if (kind === 'schemaChange' && t.webhook) {
      out.push({ field: `schemaChange.targets[${i}]`, ruleId: 'alert.schema_change.targets', message: 'schema-change alerts cannot send to webhook targets' });
    }
  });
  const settings = body.settings;
  if (kind === 'schemaChange' && settings?.ongoing?.disabled) {
    out.push({ field: 'schemaChange.settings.ongoing', ruleId: 'alert.schema_change.ongoing', message: 'schema-change alerts refuse ongoing "disabled"; use stream or schedule' });
  }
  if (targets.some((t) => t.webhook)) {
    if (settings?.ongoing?.schedule) {
      out.push({ field: `${kind}.settings.ongoing`, ruleId: 'alert.webhook.schedule', message: 'webhook targets cannot combine with scheduled repeats (ongoing.schedule)' });
    }
    if (kind === 'issueLifecycle' && !settings?.grouping?.noGrouping) {
      out.push({ field: 'issueLifecycle.settings.grouping', ruleId: 'alert.webhook.grouping', message: 'webhook targets need grouping { noGrouping: {} }' });
    }
  }
  return out;
}

/** Addresses an alert by id or fqn. */
export const AlertIdentifier = oneof({ id: z.string().min(1), fqn: z.string().min(1) });
export type AlertIdentifier = z.infer<typeof AlertIdentifier>;

// ---- requests and responses (every op is `body: "*"`: the fields ARE the body) ----

/** Create POST `/api/alerts/v2`: the alert's fields at the top level. */
export const CreateAlertRequest = AlertWrite;
/** Upsert PUT `/api/alerts/v2`: the Create fields plus `etag?`. */
export const UpsertAlertRequest = withOneof({ ...alertWriteFields, etag: Etag.optional() }, kinds);
export const AlertResponse = z.object({ alert: Alert });
export type AlertResponse = z.infer<typeof AlertResponse>;
export const DeleteAlertRequest = z.object({ identifier: AlertIdentifier, etag: Etag.optional() });
/**
 * Rename, UpdateTargets, UpdateTemplate and ToggleEnabled declare no `etag` (wire-facts 3; the
 * spec gives one to Upsert, Delete and UpdateSettings only): the gateway would drop one silently,
 * so the client never sends it and the emulator refuses it as an undeclared key.
 */
export const RenameAlertRequest = z.object({ identifier: AlertIdentifier, name: z.string().min(1).max(255) });
/** Spec 4.4; the five rules are enforced by the server. */
export const UpdateAlertSettingsRequest = z.object({
  identifier: AlertIdentifier,
  trigger: AlertTrigger.optional(),
  issueLifecycle: IssueLifecycleSettings.optional(),
  schemaChange: SchemaChangeSettings.optional(),
  incidentLifecycle: IncidentLifecycleSettings.optional(),
  etag: Etag.optional(),
});
export type UpdateAlertSettingsRequest = z.infer<typeof UpdateAlertSettingsRequest>;
export const UpdateAlertTargetsRequest = z.object({ identifier: AlertIdentifier, targets: z.array(AlertTarget).min(1) });
/** Omitting `template` clears it. */
export const UpdateAlertTemplateRequest = z.object({ identifier: AlertIdentifier, template: AlertTemplate.optional() });
export const ToggleAlertEnabledRequest = z.object({ identifier: AlertIdentifier, isEnabled: z.boolean() });
export const ToggleIncidentOwnerAlertRequest = z.object({ isEnabled: z.boolean() });
export const ToggleIncidentOwnerAlertResponse = z.object({ isEnabled: z.boolean().default(false) });
/** SendTestAlert's message kind: 0 generic, 1 issue, 2 schema change, 3 incident. */
export const TestAlertKindEnum = protoEnum({
  TEST_ALERT_KIND_UNSPECIFIED: 0,
  TEST_ALERT_KIND_ISSUE: 1,
  TEST_ALERT_KIND_SCHEMA_CHANGE: 2,
  TEST_ALERT_KIND_INCIDENT: 3,
});
export const SendTestAlertRequest = z.object({
  name: z.string().max(255).optional(),
  kind: TestAlertKindEnum.schema.optional(),
  targets: z.array(AlertTarget).min(1),
});
export const TestAlertDispatch = z.object({ target: AlertTarget.optional(), dispatched: z.boolean().default(false), error: z.string().optional() });
export type TestAlertDispatch = z.infer<typeof TestAlertDispatch>;
export const SendTestAlertResponse = z.object({ dispatches: z.array(TestAlertDispatch).default([]) });
/** List POST `/api/alerts/v2/list`: the only filter is an owner. */
export const ListAlertsRequest = z.object({ owner: AlertOwner.optional() });
export const ListAlertsResponse = z.object({ alertsIds: z.array(z.string()).default([]) });
export const BatchGetAlertsRequest = z.object({ identifiers: z.array(AlertIdentifier).min(1) });
/** Items are read tolerantly: one alert this version cannot model never fails the read. */
export const BatchGetAlertsResponse = z.object({ alerts: z.record(z.string(), tolerant(Alert)).default({}) });
export type BatchGetAlertsResponse = z.infer<typeof BatchGetAlertsResponse>;
export const EmptyResponse = z.object({});
