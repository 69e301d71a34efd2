/**
 * Alerts v2 (spec 2.2, 4.3, 4.4; upstream facts "Alerts v2").
 */
import { z } from 'zod';
import { ConfigsFilter, Empty, Etag, oneof, protoEnum, required, Source, Timestamp, Violation, withOneof } from './common';
import { Query } from './entities';

/** Alert severity (issue alerts, ownership alerts): WARN=1, ERROR=2, FATAL=3. Not the rule numbering. */
export const AlertSeverityEnum = protoEnum({
  ALERT_SEVERITY_UNSPECIFIED: 0,
  ALERT_SEVERITY_WARN: 1,
  ALERT_SEVERITY_ERROR: 2,
  ALERT_SEVERITY_FATAL: 3,
});
export const AlertSeverity = required(AlertSeverityEnum);
export type AlertSeverity = z.infer<typeof AlertSeverity>;

/** Incident states that trigger an incident-lifecycle alert. 0 is refused. */
export const IncidentStateEnum = protoEnum({ STATE_UNSPECIFIED: 0, STATE_OPEN: 1, STATE_CLOSED: 2, STATE_CANCELLED: 3 });
export const IncidentState = required(IncidentStateEnum);
export type IncidentState = z.infer<typeof IncidentState>;

const email = z.string().regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, 'must be an e-mail address');

/** Where an alert goes: exactly one of slack, email, owner, msTeams, webhook. */
export const AlertTarget = oneof({
  slack: z.object({ channel: z.string().min(1) }),
  email: z.object({ recipientEmails: z.array(email).min(1) }),
  /** `ownerPath` is the owner's `entityId`, `owner-<uuid>`. */
  owner: z.object({ ownerPath: z.string().min(1) }),
  msTeams: z.object({ channel: z.string().min(1) }),
  webhook: z.object({ webhookId: z.string().min(1) }),
});
export type AlertTarget = z.infer<typeof AlertTarget>;
export const ALERT_TARGET_KINDS = ['slack', 'email', 'owner', 'msTeams', 'webhook'] as const;

/** Repeat notifications for an ongoing issue. */
export const Ongoing = oneof({ disabled: Empty, stream: Empty, schedule: z.object({ cron: z.string().min(1) }) });
export type Ongoing = z.infer<typeof Ongoing>;
export const Grouping = oneof({ noGrouping: Empty, systemDetected: Empty });
export type Grouping = z.infer<typeof Grouping>;

/** Which entities an entity alert watches. `resolverQl` wins over `query` on write. */
export const AlertTrigger = z.object({
  query: Query.optional(),
  resolverQl: z.string().optional(),
  /** Output only: the server's canonical form of `resolverQl`. */
  renderedResolverQl: z.string().optional(),
});
export type AlertTrigger = z.infer<typeof AlertTrigger>;

export const IssueLifecycleSettings = z.object({
  severities: z.array(AlertSeverity).min(1),
  notifyUpstream: z.boolean().optional(),
  allowSqlTestAuditLink: z.boolean().optional(),
  ongoing: Ongoing.optional(),
  grouping: Grouping.optional(),
});
export type IssueLifecycleSettings = z.infer<typeof IssueLifecycleSettings>;
export const SchemaChangeSettings = z.object({ notifyUpstream: z.boolean().optional(), ongoing: Ongoing.optional() });
export type SchemaChangeSettings = z.infer<typeof SchemaChangeSettings>;
export const IncidentLifecycleSettings = z.object({ states: z.array(IncidentState).min(1) });
export type IncidentLifecycleSettings = z.infer<typeof IncidentLifecycleSettings>;

export const IssueLifecycleAlert = z.object({
  trigger: AlertTrigger,
  targets: z.array(AlertTarget).min(1),
  settings: IssueLifecycleSettings,
  /** Fixed at create: changing it is a replace. */
  owner: z.string().optional(),
});
export const SchemaChangeAlert = z.object({
  trigger: AlertTrigger,
  targets: z.array(AlertTarget).min(1),
  settings: SchemaChangeSettings.default({}),
});
export const IncidentLifecycleAlert = z.object({
  targets: z.array(AlertTarget).min(1),
  settings: IncidentLifecycleSettings,
});
export type IssueLifecycleAlert = z.infer<typeof IssueLifecycleAlert>;
export type SchemaChangeAlert = z.infer<typeof SchemaChangeAlert>;
export type IncidentLifecycleAlert = z.infer<typeof IncidentLifecycleAlert>;

export const ALERT_KINDS = ['issueLifecycle', 'schemaChange', 'incidentLifecycle'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
const kinds = { issueLifecycle: IssueLifecycleAlert, schemaChange: SchemaChangeAlert, incidentLifecycle: IncidentLifecycleAlert };

export const AlertTemplate = z.object({ title: z.string().optional(), plain: z.string().optional() });
export type AlertTemplate = z.infer<typeof AlertTemplate>;

/** Fields a writer sets (Create and Upsert bodies). */
export const alertWriteFields = {
  name: z.string().min(1).max(255),
  fqn: z.string().min(1).max(500),
  isDisabled: z.boolean().optional(),
  template: AlertTemplate.optional(),
  configId: z.string().optional(),
  /** Who made it; the server defaults to SOURCE_API for API writes. */
  source: Source.optional(),
};

/** An alert as written: fields plus exactly one kind. */
export const AlertWrite = withOneof(alertWriteFields, kinds);
export type AlertWrite = z.infer<typeof AlertWrite>;

/** An alert as read. */
export const Alert = withOneof(
  {
    ...alertWriteFields,
    id: z.string(),
    createdAt: Timestamp.optional(),
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

// ---- requests and responses ----

export const CreateAlertRequest = z.object({ alert: AlertWrite });
export const UpsertAlertRequest = z.object({ alert: AlertWrite, etag: Etag.optional() });
export const AlertResponse = z.object({ alert: Alert });
export type AlertResponse = z.infer<typeof AlertResponse>;
export const DeleteAlertRequest = z.object({ identifier: AlertIdentifier, etag: Etag.optional() });
export const RenameAlertRequest = z.object({ identifier: AlertIdentifier, name: z.string().min(1).max(255), etag: Etag.optional() });
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
export const UpdateAlertTargetsRequest = z.object({ identifier: AlertIdentifier, targets: z.array(AlertTarget).min(1), etag: Etag.optional() });
/** Omitting `template` clears it. */
export const UpdateAlertTemplateRequest = z.object({ identifier: AlertIdentifier, template: AlertTemplate.optional(), etag: Etag.optional() });
export const ToggleAlertEnabledRequest = z.object({ identifier: AlertIdentifier, isEnabled: z.boolean(), etag: Etag.optional() });
export const ToggleIncidentOwnerAlertRequest = z.object({ isEnabled: z.boolean() });
export const ToggleIncidentOwnerAlertResponse = z.object({ isEnabled: z.boolean() });
export const SendTestAlertRequest = z.object({ targets: z.array(AlertTarget).min(1) });
export const SendTestAlertResponse = z.object({ deliveryIds: z.array(z.string()).default([]) });
export const ListAlertsRequest = z.object({ configsFilter: ConfigsFilter.optional(), sources: z.array(Source).optional() });
export const ListAlertsResponse = z.object({ alertsIds: z.array(z.string()).default([]) });
export const BatchGetAlertsRequest = z.object({ identifiers: z.array(AlertIdentifier) });
export const BatchGetAlertsResponse = z.object({ alerts: z.record(z.string(), Alert).default({}) });
export type BatchGetAlertsResponse = z.infer<typeof BatchGetAlertsResponse>;
export const EmptyResponse = z.object({});
