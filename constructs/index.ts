/**
 * dqform constructs: describe a data-quality workspace as CDKTF code. `app.synth()` writes
 * standard Terraform JSON (`cdktf.out/stacks/<stack>/cdk.tf.json`) that the dqform engine reads.
 */
export { DqStack, type DqStackProps, type CredentialsFromProps, type RemovedOptions } from './stack';
export {
  Alert,
  CheckCategorisationRule,
  DataProduct,
  Domain,
  MonitorDeploymentRule,
  Owner,
  Ownership,
  SqlTest,
  SqlTestDeploymentRule,
  type AlertProps,
  type CategorisationAttributesProps,
  type CategorisationMatcherProps,
  type CheckCategorisationRuleProps,
  type DataProductPartInput,
  type DataProductProps,
  type DomainPartInput,
  type DomainProps,
  type DqResourceProps,
  type IncidentLifecycleProps,
  type IssueLifecycleProps,
  type IssueLifecycleSettingsProps,
  type MonitorDeploymentRuleProps,
  type MonitorSettingsProps,
  type OwnerProps,
  type OwnershipProps,
  type RuleProductConfigProps,
  type RuleQueryConfigProps,
  type RuleStaticConfigProps,
  type SchemaChangeProps,
  type SqlTestDeploymentRuleProps,
  type SqlTestProps,
  type SqlTestRuleSettingsProps,
} from './resources';
export { Contact, Entity, OwnerTarget, Query, QueryExpr, Target, type QueryInput, type TargetInput } from './helpers';
/** cdktf's App, so that generated code needs only 'dqform' (and uses dqform's copy of cdktf). */
export { App } from 'cdktf';
export { collectDiagnostics, cronProblem, formatDiagnostic, rruleProblem, validateApp, type Diagnostic } from './validation';
/** The generated L1 bindings (one namespace per resource type, plus `provider`). */
export * as l1 from './generated';
