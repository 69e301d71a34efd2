/**
 * The hand-written (L2) resource constructs, and `Secret` (an integration secret's reference).
 * Each extends its generated L1 class (loaded when the kind is first used: `lazyL1`; so the resource type, the logical id, `id`/`entityId`
 * attribute tokens, `lifecycle`, `moveTo`, `moveFromId` and `importFrom` are cdktf's own) and
 * takes props named as the API names the fields. Ids are never computed here: `id` (and an alert's `fqn`) is written only when pinned;
 * the engine derives the rest at plan time from (workspace, namespace, type, logical id).
 */
import type { ITerraformDependable, TerraformResourceLifecycle } from 'cdktf';
import type { Construct } from 'constructs';
import type { AlertSeverityInput, AlertTarget, AlertTemplate, Grouping, IncidentState, Ongoing } from '../schemas/platform/alerts';
import type { DelayModel, MetricId, Sensitivity, Severity } from '../schemas/platform/deployment-rules';
import type { EntityIdentifier, Query as QueryModel } from '../schemas/platform/entities';
import type { OwnerContact, OwnershipAlert, Priority } from '../schemas/platform/governance';
import type { DataPlatform, RuleTest, SqlTestAnnotation, SqlTestTemplate } from '../schemas/platform/sql-tests';
import type { SavedViewGrant, Visibility } from '../schemas/platform/saved-views';
import type { CheckType } from '../schemas/platform/categorisation-rules';
import type * as catRules from '../schemas/platform/categorisation-rules';
import type * as l1alert from './generated/alert';
import type * as l1catrule from './generated/check-categorisation-rule';
import type { CONFIG_VARIANTS, SECRET_FIELDS } from '../schemas/platform/integrations';
import type * as integrations from '../schemas/platform/integrations';
import type { z } from 'zod';
import type * as l1dp from './generated/data-product';
import type * as l1domain from './generated/domain';
import type * as l1integration from './generated/integration';
import type * as l1mdr from './generated/monitor-deployment-rule';
import type * as l1owner from './generated/owner';
import type * as l1ownership from './generated/ownership';
import type * as l1sqltest from './generated/sql-test';
import type * as l1sqlrule from './generated/sql-test-deployment-rule';
import type * as l1view from './generated/saved-view';
import { OwnerTarget, queryExpr, type QueryInput, type TargetInput } from './helpers';
import { addLocalDiagnostic, lazyL1, reference, toL1, type Referenceable } from './internal';
import { checkProps } from './prop-keys';

/** Meta-arguments every resource construct takes. */
export interface DqResourceProps {
  /**
   * Terraform lifecycle. `preventDestroy: true` turns any plan that would delete the object into
   * an error; `ignoreChanges` lists fields (snake_case, as in the JSON) that plan ignores, or `"all"`.
   * @default - none
   */
  readonly lifecycle?: TerraformResourceLifecycle;
  /**
   * Explicit ordering dependencies (references already imply them).
   * @default - none
   */
  readonly dependsOn?: ITerraformDependable[];
}

const meta = (p: DqResourceProps) => ({ lifecycle: p.lifecycle, dependsOn: p.dependsOn });
const clean = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** Query fields that accept ResolverQL text or a query model: text wins when there is text. */
function queryFields(q: QueryInput): { resolverQl?: string; query?: QueryModel } {
  const e = queryExpr(q);
  return e.resolverQl !== undefined ? { resolverQl: e.resolverQl } : { query: e.toModel() };
}
/** Fields that take ResolverQL only. */
function resolverQlOnly(scope: Construct, field: string, q: QueryInput): string {
  const e = queryExpr(q);
  if (e.resolverQl !== undefined) return e.resolverQl;
  addLocalDiagnostic(scope, {
    field,
    summary: `${field} takes ResolverQL text, but the query given (${e.toString()}) has no ResolverQL form`,
    hint: 'build the selection from Query.withType/withName/withAnnotation/inFolder/and/or/not or ResolverQL text',
  });
  return e.toString();
}
/** A query model (for fields that take the model only). */
function modelOnly(scope: Construct, field: string, q: QueryInput): QueryModel {
  try {
    return queryExpr(q).toModel();
  } catch (err) {
    addLocalDiagnostic(scope, { field, summary: `${field}: ${(err as Error).message}`, hint: 'fix the ResolverQL text (see design.md for the subset)' });
    return { parts: [] };
  }
}

function targetsOf(scope: Construct, field: string, targets: TargetInput[]): AlertTarget[] {
  return targets.map((t, i) =>
    t instanceof OwnerTarget
      ? { owner: { ownerPath: typeof t.owner === 'string' ? t.owner : reference(scope, `${field}[${i}].owner.ownerPath`, t.owner, 'entity_id') } }
      : t,
  );
}

/** An alert owner's wire form `{ ownerPath, ownershipId }` (references filled in at plan time). */
function ownerOf(scope: Construct, field: string, o: AlertOwnerInput | undefined): { ownerPath: string; ownershipId: string } | undefined {
  if (o === undefined) return undefined;
  if (o instanceof Ownership) {
    return { ownerPath: ref(scope, `${field}.ownerPath`, o.ownerRef, 'entity_id') ?? '', ownershipId: ref(scope, `${field}.ownershipId`, o, 'id') ?? '' };
  }
  return { ownerPath: ref(scope, `${field}.ownerPath`, o.ownerPath, 'entity_id') ?? '', ownershipId: ref(scope, `${field}.ownershipId`, o.ownershipId, 'id') ?? '' };
}

function ref(scope: Construct, field: string, target: Referenceable | string | undefined, attr: 'id' | 'entity_id'): string | undefined {
  if (target === undefined || typeof target === 'string') return target;
  return reference(scope, field, target, attr);
}

// ---------------------------------------------------------------------------------------------
// Alerts

/** Settings of an issue-lifecycle alert (the API's `issueLifecycle.settings`). */
export interface IssueLifecycleSettingsProps {
  /**
   * Issue severities that notify; at least one, e.g. `['SEVERITY_ERROR', 'SEVERITY_FATAL']`
   * (the old spellings `ALERT_SEVERITY_*` still work, with a deprecation warning).
   */
  readonly severities: AlertSeverityInput[];
  /** @default false */
  readonly notifyUpstream?: boolean;
  /** @default false */
  readonly allowSqlTestAuditLink?: boolean;
  /** Repeat notifications: `{ disabled: {} }`, `{ stream: {} }` or `{ schedule: { cron } }`. @default - the platform's default */
  readonly ongoing?: Ongoing;
  /** `{ noGrouping: {} }` (needed with webhook targets) or `{ systemDetected: {} }`. @default - the platform's default */
  readonly grouping?: Grouping;
}
/** An issue-lifecycle alert: notifies on issues of the entities the trigger selects. */
export interface IssueLifecycleProps {
  /** The entities watched: ResolverQL text or a {@link Query} expression. */
  readonly trigger: QueryInput;
  /** At least one target ({@link Target}). */
  readonly targets: TargetInput[];
  readonly settings: IssueLifecycleSettingsProps;
  /** The owner of the alert (fixed at create; changing it replaces the alert). @default - none */
  readonly owner?: AlertOwnerInput;
}
/**
 * An alert's owner: an {@link Ownership} construct (its owner's entity id and its id are filled
 * in), or both parts given (`ownerPath` is the owner's entity id, `owner-<uuid>`).
 */
export type AlertOwnerInput = Ownership | { readonly ownerPath: Referenceable | string; readonly ownershipId: Referenceable | string };
/** A schema-change alert. Webhook targets are not allowed. */
export interface SchemaChangeProps {
  readonly trigger: QueryInput;
  readonly targets: TargetInput[];
  /** @default {} */
  readonly settings?: { readonly notifyUpstream?: boolean; readonly ongoing?: Ongoing };
  /** The owner of the alert (fixed at create; changing it replaces the alert). @default - none */
  readonly owner?: AlertOwnerInput;
}
/** An incident-lifecycle alert. E-mail and Teams targets are not allowed. */
export interface IncidentLifecycleProps {
  readonly targets: TargetInput[];
  /** Incident states that notify, e.g. `['STATE_OPEN']`. */
  readonly settings: { readonly states: IncidentState[] };
}
/** Props of {@link Alert}: exactly one of `issueLifecycle`, `schemaChange`, `incidentLifecycle`. */
export interface AlertProps extends DqResourceProps {
  /** Display name (1-255 characters). */
  readonly name: string;
  /** Pinned fqn. @default `<namespace>.<logical id>` (derived by the engine) */
  readonly fqn?: string;
  /** @default false */
  readonly isDisabled?: boolean;
  /** Message template. @default - the platform's */
  readonly template?: AlertTemplate;
  readonly issueLifecycle?: IssueLifecycleProps;
  readonly schemaChange?: SchemaChangeProps;
  readonly incidentLifecycle?: IncidentLifecycleProps;
}

/** An alert (`dq_alert`). Addressed by fqn; pruned by namespace. */
export class Alert extends lazyL1('dq_alert', () => (require('./generated/alert') as typeof l1alert).Alert) {
  constructor(scope: Construct, id: string, props: AlertProps) {
    super(scope, id, { ...meta(props), ...toL1<l1alert.AlertConfig>('dq_alert', Alert.desired(scope, props)) });
    checkProps(this, 'dq_alert', props);
    if (props.fqn !== undefined) this.addOverride('fqn', props.fqn);
    // References are resolved once the construct exists (they need its stack).
    const il = props.issueLifecycle;
    const sc = props.schemaChange;
    const inc = props.incidentLifecycle;
    const patch = toL1<l1alert.AlertConfig>('dq_alert', {
      issueLifecycle: il && { ...Alert.issue(il), targets: targetsOf(this, 'issueLifecycle.targets', il.targets), owner: ownerOf(this, 'issueLifecycle.owner', il.owner) },
      schemaChange: sc && { ...Alert.schema(sc), targets: targetsOf(this, 'schemaChange.targets', sc.targets), owner: ownerOf(this, 'schemaChange.owner', sc.owner) },
      incidentLifecycle: inc && { targets: targetsOf(this, 'incidentLifecycle.targets', inc.targets), settings: inc.settings },
    });
    if (patch.issueLifecycle) this.putIssueLifecycle(patch.issueLifecycle);
    if (patch.schemaChange) this.putSchemaChange(patch.schemaChange);
    if (patch.incidentLifecycle) this.putIncidentLifecycle(patch.incidentLifecycle);
  }
  private static issue(il: IssueLifecycleProps) {
    return { trigger: queryFields(il.trigger), settings: clean({ ...il.settings }) };
  }
  private static schema(sc: SchemaChangeProps) {
    return { trigger: queryFields(sc.trigger), settings: sc.settings ?? {} };
  }
  private static desired(_scope: Construct, p: AlertProps): Record<string, unknown> {
    return clean({ name: p.name, isDisabled: p.isDisabled, template: p.template });
  }
}

// ---------------------------------------------------------------------------------------------
// Monitor deployment rules

/** Monitor settings every deploying config carries. */
export interface MonitorSettingsProps {
  /** Severity of the monitors' issues. */
  readonly severity: Severity;
  /** Anomaly sensitivity. */
  readonly sensitivity: Sensitivity;
  /** Metrics to monitor: at least one, unique. */
  readonly metricIds: MetricId[];
}
/** Deploys monitors on the entities a query selects. */
export interface RuleQueryConfigProps extends MonitorSettingsProps {
  /** ResolverQL text or a {@link Query} expression. */
  readonly query: QueryInput;
  /** Per-metric sensitivity overrides. @default - none */
  readonly metricOptions?: { sensitivity: Sensitivity; metricId: MetricId }[];
  /** @default - the platform's */
  readonly delayModel?: DelayModel;
  /** @default false */
  readonly keepDeletedMonitors?: boolean;
}
/** Deploys monitors on one asset path. */
export interface RuleStaticConfigProps extends MonitorSettingsProps {
  /** Asset path, e.g. `wh-prod::mart::orders`. */
  readonly path: string;
}
/** Deploys monitors on a data product's assets. */
export interface RuleProductConfigProps extends MonitorSettingsProps {
  /** The data product: a {@link DataProduct} in the same stack, or its id. */
  readonly product: Referenceable | string;
  /** Also monitor upstream: `{ all: {} }` or `{ sources: {} }`. @default - none */
  readonly upstream?: { all?: Record<string, never>; sources?: Record<string, never> };
  /** Which of the product's own assets: `{ all: {} }` or `{ selection: query }`. @default - none */
  readonly self?: { all?: Record<string, never>; selection?: QueryInput };
  /** @default false */
  readonly keepDeletedMonitors?: boolean;
}
/** Props of {@link MonitorDeploymentRule}: a title and exactly one config. */
export interface MonitorDeploymentRuleProps extends DqResourceProps {
  /** Title (1-100 characters). */
  readonly title: string;
  /** Pinned id (a UUID). @default - derived by the engine */
  readonly id?: string;
  readonly queryConfig?: RuleQueryConfigProps;
  /** Excludes the selected entities from other rules. */
  readonly exclusiveQueryConfig?: { readonly query: QueryInput };
  readonly staticConfig?: RuleStaticConfigProps;
  /** Excludes one asset path from other rules. */
  readonly exclusiveStaticConfig?: { readonly path: string };
  readonly productConfig?: RuleProductConfigProps;
}

/** An automated-monitor deployment rule (`dq_monitor_deployment_rule`). */
export class MonitorDeploymentRule extends lazyL1('dq_monitor_deployment_rule', () => (require('./generated/monitor-deployment-rule') as typeof l1mdr).MonitorDeploymentRule) {
  constructor(scope: Construct, id: string, props: MonitorDeploymentRuleProps) {
    super(scope, id, { ...meta(props), ...toL1<l1mdr.MonitorDeploymentRuleConfig>('dq_monitor_deployment_rule', { id: props.id, title: props.title }) });
    checkProps(this, 'dq_monitor_deployment_rule', props, { productConfig: { product: ['productId'] } });
    const qc = props.queryConfig;
    const pc = props.productConfig;
    const cfg = toL1<l1mdr.MonitorDeploymentRuleConfig>('dq_monitor_deployment_rule', {
      queryConfig: qc && clean({ ...qc, query: undefined, ...queryFields(qc.query) }),
      exclusiveQueryConfig: props.exclusiveQueryConfig && queryFields(props.exclusiveQueryConfig.query),
      staticConfig: props.staticConfig,
      exclusiveStaticConfig: props.exclusiveStaticConfig,
      productConfig: pc && clean({
        productId: ref(this, 'productConfig.productId', pc.product, 'id'),
        severity: pc.severity,
        sensitivity: pc.sensitivity,
        metricIds: pc.metricIds,
        upstream: pc.upstream,
        self: pc.self && clean({ all: pc.self.all, selection: pc.self.selection !== undefined ? { query: modelOnly(this, 'productConfig.self.selection.query', pc.self.selection) } : undefined }),
        keepDeletedMonitors: pc.keepDeletedMonitors,
      }),
    });
    if (cfg.queryConfig) this.putQueryConfig(cfg.queryConfig);
    if (cfg.exclusiveQueryConfig) this.putExclusiveQueryConfig(cfg.exclusiveQueryConfig);
    if (cfg.staticConfig) this.putStaticConfig(cfg.staticConfig);
    if (cfg.exclusiveStaticConfig) this.putExclusiveStaticConfig(cfg.exclusiveStaticConfig);
    if (cfg.productConfig) this.putProductConfig(cfg.productConfig);
  }
}

// ---------------------------------------------------------------------------------------------
// SQL tests

/** Props of {@link SqlTest}: exactly one of `sqlExpression` and `template`. */
export interface SqlTestProps extends DqResourceProps {
  /** Pinned id (1-200 characters). @default - derived by the engine */
  readonly id?: string;
  /** Name (1-255 characters). */
  readonly name: string;
  /** @default - none */
  readonly description?: string;
  /** @default - the platform's */
  readonly severity?: Severity;
  /** Where the test runs, e.g. `{ warehouseAccount: { account: 'wh-prod', database: 'analytics' } }` or `{ integrationId }`. */
  readonly platform: DataPlatform;
  /** iCal RRULE, e.g. `FREQ=DAILY;BYHOUR=6`. @default - none: the test runs on demand */
  readonly recurrenceRule?: string;
  /** IANA time zone. @default "UTC" */
  readonly timezone?: string;
  /** @default - none */
  readonly annotations?: SqlTestAnnotation[];
  /** @default false */
  readonly saveFailures?: boolean;
  /** A SQL expression that returns the failing rows. */
  readonly sqlExpression?: string;
  /** A template test on one table: `{ identifier: Entity.warehouseAccountTable({...}), notNull: { columns: ['id'] } }`. */
  readonly template?: SqlTestTemplate;
}

/** A SQL test (`dq_sql_test`). */
export class SqlTest extends lazyL1('dq_sql_test', () => (require('./generated/sql-test') as typeof l1sqltest).SqlTest) {
  constructor(scope: Construct, id: string, props: SqlTestProps) {
    const { lifecycle: _l, dependsOn: _d, ...desired } = props;
    super(scope, id, { ...meta(props), ...toL1<l1sqltest.SqlTestConfig>('dq_sql_test', clean(desired)) });
    checkProps(this, 'dq_sql_test', props);
  }
}

/** Settings every deploying SQL-test rule config carries. */
export interface SqlTestRuleSettingsProps {
  /** Tests deployed on every matched table: at least one. */
  readonly tests: RuleTest[];
  /** iCal RRULE, e.g. `FREQ=DAILY`. @default - none: the tests run on demand */
  readonly recurrenceRule?: string;
  /** @default "UTC" */
  readonly timezone?: string;
  /** @default - the platform's */
  readonly severity?: Severity;
  /** @default false */
  readonly saveFailures?: boolean;
}
/** Props of {@link SqlTestDeploymentRule}: a title and exactly one config. */
export interface SqlTestDeploymentRuleProps extends DqResourceProps {
  readonly title: string;
  /** Pinned id (a UUID). @default - derived by the engine */
  readonly id?: string;
  /** `keepRemovedTests` (query configs only): tests the rule stops deploying are kept, detached. */
  readonly queryConfig?: SqlTestRuleSettingsProps & { readonly query: QueryInput; readonly keepRemovedTests?: boolean };
  readonly exclusiveQueryConfig?: { readonly query: QueryInput };
  readonly staticConfig?: SqlTestRuleSettingsProps & { readonly path: string };
  readonly exclusiveStaticConfig?: { readonly path: string };
}

/** A SQL-test deployment rule (`dq_sql_test_deployment_rule`). */
export class SqlTestDeploymentRule extends lazyL1('dq_sql_test_deployment_rule', () => (require('./generated/sql-test-deployment-rule') as typeof l1sqlrule).SqlTestDeploymentRule) {
  constructor(scope: Construct, id: string, props: SqlTestDeploymentRuleProps) {
    const qc = props.queryConfig;
    super(scope, id, {
      ...meta(props),
      ...toL1<l1sqlrule.SqlTestDeploymentRuleConfig>('dq_sql_test_deployment_rule', clean({
        id: props.id,
        title: props.title,
        queryConfig: qc && clean({ ...qc, query: undefined, ...queryFields(qc.query) }),
        exclusiveQueryConfig: props.exclusiveQueryConfig && queryFields(props.exclusiveQueryConfig.query),
        staticConfig: props.staticConfig,
        exclusiveStaticConfig: props.exclusiveStaticConfig,
      })),
    });
    checkProps(this, 'dq_sql_test_deployment_rule', props);
  }
}

// ---------------------------------------------------------------------------------------------
// Governance: owners, domains, data products, ownerships

/** Props of {@link Owner}. */
export interface OwnerProps extends DqResourceProps {
  /** Pinned id (a UUID). @default - derived by the engine */
  readonly id?: string;
  /** Title (1-500 characters). */
  readonly title: string;
  /** How to reach the owner ({@link Contact}). @default - none (contacts are left as they are) */
  readonly contacts?: OwnerContact[];
}
/** An owner (`dq_owner`). `owner.id` and `owner.entityId` are references for other constructs. */
export class Owner extends lazyL1('dq_owner', () => (require('./generated/owner') as typeof l1owner).Owner) {
  constructor(scope: Construct, id: string, props: OwnerProps) {
    super(scope, id, { ...meta(props), ...toL1<l1owner.OwnerConfig>('dq_owner', clean({ id: props.id, title: props.title, contacts: props.contacts })) });
    checkProps(this, 'dq_owner', props);
  }
}

/** One part of a domain's definition. Set exactly one key. */
export interface DomainPartInput {
  /** An entity id (opaque). */
  readonly entityId?: string;
  /** A data product construct (same stack) or data product id. */
  readonly dataProduct?: Referenceable | string;
  /** A sub-domain construct (same stack) or domain id. */
  readonly domain?: Domain | string;
  /** Entities selected by ResolverQL. */
  readonly query?: QueryInput;
}
/** Props of {@link Domain}. */
export interface DomainProps extends DqResourceProps {
  /** Pinned id (a UUID). @default - derived by the engine */
  readonly id?: string;
  /** Name (1-100 characters). */
  readonly name: string;
  /** @default - none */
  readonly description?: string;
  /** The parent domain (same stack) or its id. @default - top level */
  readonly parent?: Domain | string;
  /**
   * Members. Data products declared with `domain: thisDomain` are added here too. An empty
   * list clears the definition.
   * @default - no definition written (left as it is), unless data products join
   */
  readonly parts?: DomainPartInput[];
}

/** A domain (`dq_domain`). */
export class Domain extends lazyL1('dq_domain', () => (require('./generated/domain') as typeof l1domain).Domain) {
  private parentDomain?: Domain;
  private readonly partList: Record<string, unknown>[] = [];
  /** @internal Sub-domains named in parts (for cycle checks). */
  readonly _subDomains: Domain[] = [];
  private hasDefinition = false;

  constructor(scope: Construct, id: string, props: DomainProps) {
    super(scope, id, { ...meta(props), ...toL1<l1domain.DomainConfig>('dq_domain', clean({ id: props.id, name: props.name, description: props.description })) });
    checkProps(this, 'dq_domain', props, { '': { parent: ['parentId'], parts: ['definition', 'parts'] }, 'parts[]': { dataProduct: ['dataproductId'], domain: ['domainId'] } });
    if (props.parent !== undefined) this.setParent(props.parent);
    if (props.parts !== undefined) {
      this.hasDefinition = true;
      props.parts.forEach((p) => this.addPart(p));
      this.writeDefinition();
    }
  }
  /** The parent domain construct, if one was given. */
  get parent(): Domain | undefined {
    return this.parentDomain;
  }
  /** Sets (or moves to) a parent domain: a construct in the same stack or a domain id. */
  setParent(parent: Domain | string): void {
    this.parentDomain = typeof parent === 'string' ? undefined : parent;
    this.parentId = typeof parent === 'string' ? parent : reference(this, 'parentId', parent, 'id');
  }
  /** Adds one member (see {@link DomainPartInput}). */
  addPart(part: DomainPartInput): void {
    const i = this.partList.length;
    const field = `definition.parts[${i}]`;
    const keys = (['entityId', 'dataProduct', 'domain', 'query'] as const).filter((k) => part[k] !== undefined);
    if (keys.length !== 1) {
      addLocalDiagnostic(this, { field, summary: `${field}: set exactly one of entityId, dataProduct, domain, query; got ${keys.length ? keys.join(' and ') : 'none'}`, hint: 'split the part into one part per member' });
    }
    if (part.domain instanceof Domain) this._subDomains.push(part.domain);
    this.partList.push(clean({
      entityId: part.entityId,
      dataproductId: ref(this, `${field}.dataproductId`, part.dataProduct, 'id'),
      domainId: typeof part.domain === 'string' ? part.domain : part.domain && reference(this, `${field}.domainId`, part.domain, 'id'),
      query: part.query !== undefined ? { resolverQl: resolverQlOnly(this, `${field}.query.resolverQl`, part.query) } : undefined,
    }));
    this.hasDefinition = true;
    this.writeDefinition();
  }
  private writeDefinition(): void {
    if (!this.hasDefinition) return;
    const cfg = toL1<l1domain.DomainConfig>('dq_domain', { definition: { parts: this.partList } });
    this.putDefinition(cfg.definition!);
  }
}

/** One part of a data product's definition (leaf parts only): set exactly one key. */
export interface DataProductPartInput {
  readonly entityId?: string;
  readonly query?: QueryInput;
}
/** Props of {@link DataProduct}. */
export interface DataProductProps extends DqResourceProps {
  /** Pinned id (a UUID). @default - derived by the engine */
  readonly id?: string;
  /** Title (1-500 characters). */
  readonly title: string;
  /** @default - none */
  readonly description?: string;
  /** @default - none */
  readonly folder?: string;
  /** `PRIORITY_P1`, `PRIORITY_P2` or `PRIORITY_P3`. @default - none */
  readonly priority?: Priority;
  /** Members. @default - no definition written */
  readonly parts?: DataProductPartInput[];
  /** A domain this product belongs to: adds `{ dataproductId }` to that domain's definition. @default - none */
  readonly domain?: Domain;
}
/** A data product (`dq_data_product`). */
export class DataProduct extends lazyL1('dq_data_product', () => (require('./generated/data-product') as typeof l1dp).DataProduct) {
  constructor(scope: Construct, id: string, props: DataProductProps) {
    super(scope, id, { ...meta(props), ...toL1<l1dp.DataProductConfig>('dq_data_product', clean({ id: props.id, title: props.title, description: props.description, folder: props.folder, priority: props.priority })) });
    checkProps(this, 'dq_data_product', props, { '': { parts: ['definition', 'parts'], domain: null } });
    if (props.parts !== undefined) {
      const parts = props.parts.map((p, i) => {
        const field = `definition.parts[${i}]`;
        if ((p.entityId === undefined) === (p.query === undefined)) {
          addLocalDiagnostic(this, { field, summary: `${field}: set exactly one of entityId and query`, hint: 'use one part per member' });
        }
        return clean({ entityId: p.entityId, query: p.query !== undefined ? { resolverQl: resolverQlOnly(this, `${field}.query.resolverQl`, p.query) } : undefined });
      });
      this.putDefinition(toL1<l1dp.DataProductConfig>('dq_data_product', { definition: { parts } }).definition!);
    }
    if (props.domain) props.domain.addPart({ dataProduct: this });
  }
}

/** Props of {@link Ownership}: an owner and exactly one of `dataProduct` and `query`. */
export interface OwnershipProps extends DqResourceProps {
  /** Pinned id (a UUID). @default - derived by the engine */
  readonly id?: string;
  /** The owner: an {@link Owner} in the same stack or an owner id. */
  readonly owner: Referenceable | string;
  /** Owns a data product (construct in the same stack, or id). */
  readonly dataProduct?: Referenceable | string;
  /** Owns the entities a ResolverQL query selects. */
  readonly query?: QueryInput;
  /** Owner alerting: `{ severities, notifyUpstream, ongoing, allowSqlTestAuditLink, isDisabled }`. @default - none */
  readonly alert?: OwnershipAlertInput;
}
/** {@link OwnershipAlert} as code writes it: severities may use the deprecated `ALERT_SEVERITY_*` spellings. */
export type OwnershipAlertInput = Omit<OwnershipAlert, 'severities'> & { readonly severities?: AlertSeverityInput[] };
/** An ownership (`dq_ownership`). */
export class Ownership extends lazyL1('dq_ownership', () => (require('./generated/ownership') as typeof l1ownership).Ownership) {
  /** The owner this ownership belongs to (what an alert's `owner.ownerPath` names). */
  readonly ownerRef: Referenceable | string;
  constructor(scope: Construct, id: string, props: OwnershipProps) {
    super(scope, id, { ...meta(props), ownerId: '', selection: {} as l1ownership.OwnershipSelection });
    checkProps(this, 'dq_ownership', props, { '': { owner: ['ownerId'], dataProduct: ['selection', 'dataproductId'], query: ['selection', 'query'] } });
    this.ownerRef = props.owner;
    this.ownerId = ref(this, 'ownerId', props.owner, 'id') ?? '';
    if ((props.dataProduct === undefined) === (props.query === undefined)) {
      addLocalDiagnostic(this, { field: 'selection', summary: 'selection: set exactly one of dataProduct and query', hint: 'declare one Ownership per selection' });
    }
    const cfg = toL1<l1ownership.OwnershipConfig>('dq_ownership', clean({
      id: props.id,
      selection: clean({
        dataproductId: ref(this, 'selection.dataproductId', props.dataProduct, 'id'),
        query: props.query !== undefined ? { resolverQl: resolverQlOnly(this, 'selection.query.resolverQl', props.query) } : undefined,
      }),
      alert: props.alert,
    }));
    if (cfg.id !== undefined) this.id = cfg.id;
    this.putSelection(cfg.selection ?? ({} as l1ownership.OwnershipSelection));
    if (cfg.alert) this.putAlert(cfg.alert);
  }
}

/** @internal Identifiers are exported for helpers' typings. */
export type { EntityIdentifier };

// ---------------------------------------------------------------------------------------------
// Policies: check categorisation rules

/** What a categorisation rule matches by attribute: every attribute given must hold (at least one). */
export interface CategorisationAttributesProps {
  /** The kinds of check matched: `sqlTest`, `monitor`. @default - any kind */
  readonly checkTypes?: CheckType[];
  /** Matches checks whose name contains this text (case-insensitive). @default - any name */
  readonly nameContains?: string;
  /** Matches checks on assets whose path starts with this, e.g. `wh-prod::mart`. @default - any asset */
  readonly assetPathPrefix?: string;
}
/** What a categorisation rule matches. Set exactly one key. */
export interface CategorisationMatcherProps {
  readonly attributes?: CategorisationAttributesProps;
  /** ResolverQL (text or a {@link Query} expression) evaluated on the check's asset. */
  readonly expression?: QueryInput;
}
/** Props of {@link CheckCategorisationRule}. */
export interface CheckCategorisationRuleProps extends DqResourceProps {
  /** Pinned id (a UUID). @default - derived by the engine */
  readonly id?: string;
  /** The dimension categorised: `TECHNICAL` or `GOVERNANCE`. */
  readonly dimension: 'TECHNICAL' | 'GOVERNANCE';
  /** Title (1-200 characters). */
  readonly title: string;
  /** The category given to the checks the rule matches (1-200 characters), e.g. `Freshness`. */
  readonly category: string;
  /** What the rule matches. */
  readonly matcher: CategorisationMatcherProps;
  /** Among matching rules the highest priority wins (-1000000 to 1000000). @default 0 */
  readonly priority?: number;
}
/**
 * A check categorisation rule (`dq_check_categorisation_rule`): checks its matcher selects get
 * `category` on `dimension`, unless the check or its tool sets one, or a rule of higher priority
 * matches. The plan previews how many checks it would categorise.
 */
export class CheckCategorisationRule extends lazyL1('dq_check_categorisation_rule', () => (require('./generated/check-categorisation-rule') as typeof l1catrule).CheckCategorisationRule) {
  constructor(scope: Construct, id: string, props: CheckCategorisationRuleProps) {
    const m = props.matcher ?? {};
    super(scope, id, {
      ...meta(props),
      ...toL1<l1catrule.CheckCategorisationRuleConfig>('dq_check_categorisation_rule', clean({
        id: props.id,
        dimension: props.dimension,
        title: props.title,
        category: props.category,
        matcher: clean({ attributes: m.attributes && clean({ ...m.attributes }), expression: m.expression === undefined ? undefined : queryExpr(m.expression).toString() }),
        priority: props.priority,
      })),
    });
    checkProps(this, 'dq_check_categorisation_rule', props, { matcher: { expression: null } });
    this.validate(props);
  }
  private validate(props: CheckCategorisationRuleProps): void {
    // the platform's limits, from the kind's wire schemas (loaded with the first rule)
    const { RULE_EXPRESSION_MAX, RULE_PRIORITY_MAX, RULE_TEXT_MAX } = require('../schemas/platform/categorisation-rules') as typeof catRules;
    const bad = (field: string, summary: string, hint: string) => addLocalDiagnostic(this, { field, summary: `${field}: ${summary}`, hint });
    if (props.dimension !== 'TECHNICAL' && props.dimension !== 'GOVERNANCE') bad('dimension', `must be TECHNICAL or GOVERNANCE; got ${JSON.stringify(props.dimension)}`, 'set dimension to TECHNICAL or GOVERNANCE');
    for (const f of ['title', 'category'] as const) {
      const v = props[f];
      if (typeof v !== 'string' || v.length < 1 || v.length > RULE_TEXT_MAX) bad(f, `must be 1 to ${RULE_TEXT_MAX} characters`, `shorten ${f}`);
    }
    const p = props.priority;
    if (p !== undefined && (!Number.isInteger(p) || Math.abs(p) > RULE_PRIORITY_MAX)) bad('priority', `must be a whole number from -${RULE_PRIORITY_MAX} to ${RULE_PRIORITY_MAX}; got ${p}`, 'pick a priority in range');
    const m = props.matcher ?? {};
    const set = (['attributes', 'expression'] as const).filter((k) => m[k] !== undefined);
    if (set.length !== 1) bad('matcher', `set exactly one of attributes and expression; got ${set.length ? set.join(' and ') : 'none'}`, 'match by attributes or by a ResolverQL expression, not both');
    else if (set[0] === 'expression') {
      const e = queryExpr(m.expression!);
      if (e.resolverQl === undefined) resolverQlOnly(this, 'matcher.expression', m.expression!);
      else if (e.resolverQl.length < 1 || e.resolverQl.length > RULE_EXPRESSION_MAX) bad('matcher.expression', `must be 1 to ${RULE_EXPRESSION_MAX} characters`, 'give a ResolverQL expression, e.g. with_annotation("pii")');
    } else {
      const a = m.attributes!;
      if (a.checkTypes === undefined && a.nameContains === undefined && a.assetPathPrefix === undefined) bad('matcher.attributes', 'needs at least one of checkTypes, nameContains, assetPathPrefix', 'an empty attribute set would match every check');
    }
  }
}

/**
 * A write-only secret of an {@link Integration}: the NAME of an environment variable or the path
 * of a file, read by `dqform apply` only when it sends the secret (never at synth: the value is
 * never in `cdktf.out`, a plan or any output). Raise the field's `...Version` to send it again.
 */
export class Secret {
  /** The secret is the value of environment variable `name` when apply runs (e.g. `PG_PASSWORD`). */
  static fromEnv(name: string): Secret {
    return new Secret({ fromEnv: name });
  }
  /** The secret is the content of the file at `path` when apply runs (one trailing newline dropped; relative to the current directory). */
  static fromFile(path: string): Secret {
    return new Secret({ fromFile: path });
  }
  private constructor(private readonly ref: { readonly fromEnv?: string; readonly fromFile?: string }) {}
  /** The reference as the manifest holds it. */
  toJSON(): { fromEnv?: string; fromFile?: string } {
    return { ...this.ref };
  }
}

type SecretName = (typeof SECRET_FIELDS)[number];
/** A config variant as code gives it: secret fields take a {@link Secret}, each with its `<field>Version` counter. */
export type WithSecrets<T> = {
  [K in keyof T]: K extends SecretName ? Secret : NonNullable<T[K]> extends readonly unknown[] ? T[K] : NonNullable<T[K]> extends object ? WithSecrets<NonNullable<T[K]>> : T[K];
} & { readonly [K in keyof T as K extends SecretName ? `${K}Version` : never]?: number };
/** The config of an integration: exactly one variant (wire-facts 8.1). */
export type IntegrationConfigInput = { readonly [V in keyof typeof CONFIG_VARIANTS]?: WithSecrets<z.input<(typeof CONFIG_VARIANTS)[V]>> };

/** Props of {@link Integration}. */
export interface IntegrationProps extends DqResourceProps {
  /**
   * The platform's id of an integration adopted with `importFrom` (what `dqform import` pins), or
   * the id dqform gave one it created. @default - derived by the engine, carried in the title's marker
   */
  readonly id?: string;
  /** Title (dqform appends its identity marker `[dqform:<id>]` on the platform; 255 characters in all). */
  readonly title: string;
  /** @default true */
  readonly enabled?: boolean;
  /** The connection: exactly one config variant. A change of variant replaces the integration. */
  readonly config: IntegrationConfigInput;
}

/** The secret fields' names, from the integrations' wire schemas (loaded with the first integration). */
let secretNames: ReadonlySet<string> | undefined;
const SECRET_NAMES = {
  has: (k: string): boolean => (secretNames ??= new Set((require('../schemas/platform/integrations') as typeof integrations).SECRET_FIELDS)).has(k),
};
/** Plain `{ fromEnv }`/`{ fromFile }` objects for every {@link Secret} in `v`. */
function secretRefs(v: unknown): unknown {
  if (v instanceof Secret) return v.toJSON();
  if (Array.isArray(v)) return v.map(secretRefs);
  // a literal at a secret field never reaches cdktf.out (literalSecrets reports it)
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, SECRET_NAMES.has(k) && !(x instanceof Secret) ? undefined : secretRefs(x)]));
  return v;
}

/** A connection to a data system (`dq_integration`); secrets only as {@link Secret} references. */
export class Integration extends lazyL1('dq_integration', () => (require('./generated/integration') as typeof l1integration).Integration) {
  constructor(scope: Construct, id: string, props: IntegrationProps) {
    const config = secretRefs(props.config) as Record<string, unknown>;
    super(scope, id, { ...meta(props), ...toL1<l1integration.IntegrationConfig>('dq_integration', clean({ id: props.id, title: props.title, enabled: props.enabled, config })) });
    checkProps(this, 'dq_integration', { ...props, config });
    literalSecrets(this, 'config', props.config);
  }
}
/** A diagnostic for every secret field given a literal instead of a {@link Secret} (at any depth; the value is never echoed). */
function literalSecrets(c: Construct, at: string, v: unknown): void {
  if (!v || typeof v !== 'object' || v instanceof Secret) return;
  for (const [k, x] of Object.entries(v)) {
    if (SECRET_NAMES.has(k) && x !== undefined && !(x instanceof Secret)) {
      addLocalDiagnostic(c, { field: `${at}.${k}`, summary: `${at}.${k} is a write-only secret and cannot be a value in code`, hint: "use Secret.fromEnv('NAME') or Secret.fromFile(path): apply reads it, synth never does" });
    } else literalSecrets(c, `${at}.${k}`, x);
  }
}

// ---------------------------------------------------------------------------------------------
// Saved views

/** How a saved view shows what it selects. */
export interface SavedViewDisplay {
  /** The columns shown, in order. @default - the platform's */
  readonly columns?: string[];
  /** The column sorted by (one of `columns` when they are given). @default - none */
  readonly sortBy?: string;
  /** Sort descending (needs `sortBy`). @default false */
  readonly sortDescending?: boolean;
  /** The column grouped by (one of `columns` when they are given). @default - none */
  readonly groupBy?: string;
}
/** Props of {@link SavedView}. */
export interface SavedViewProps extends DqResourceProps {
  /** Pinned id (a UUID). @default - derived by the engine */
  readonly id?: string;
  /** Title (1-200 characters). */
  readonly title: string;
  /** @default - none */
  readonly description?: string;
  /** The screen the view belongs to, e.g. `issues`. @default - none */
  readonly context?: string;
  /** What the view shows: ResolverQL text or a {@link Query} with a ResolverQL form. @default - everything */
  readonly selection?: QueryInput;
  /** Columns, sorting, grouping. @default - the platform's */
  readonly config?: SavedViewDisplay;
  /** `VISIBILITY_PRIVATE` (its owner and grantees) or `VISIBILITY_WORKSPACE`. @default VISIBILITY_PRIVATE */
  readonly visibility?: Visibility;
  /** Who the view is shared with: `{ userEmail }` or `{ groupId }`, and a `permission`. @default - none */
  readonly grants?: SavedViewGrant[];
}
/**
 * A saved view (`dq_saved_view`). Writing one needs SCOPE_SAVED_VIEW_EDIT (views the credential
 * owns) or SCOPE_SAVED_VIEW_ADMIN (any view). Per-user pins are each user's own: not managed.
 */
export class SavedView extends lazyL1('dq_saved_view', () => (require('./generated/saved-view') as typeof l1view).SavedView) {
  constructor(scope: Construct, id: string, props: SavedViewProps) {
    super(scope, id, {
      ...meta(props),
      ...toL1<l1view.SavedViewConfig>('dq_saved_view', clean({
        id: props.id,
        title: props.title,
        description: props.description,
        context: props.context,
        config: props.config && clean({ ...props.config }),
        visibility: props.visibility,
        grants: props.grants,
      })),
    });
    checkProps(this, 'dq_saved_view', props);
    if (props.selection !== undefined) {
      const selection = { resolverQl: resolverQlOnly(this, 'selection.resolverQl', props.selection) };
      this.putSelection(toL1<l1view.SavedViewConfig>('dq_saved_view', { selection }).selection!);
    }
  }
}
