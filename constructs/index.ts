/**
 * dqform constructs: describe a data-quality workspace as CDKTF code. `app.synth()` writes
 * standard Terraform JSON (`cdktf.out/stacks/<stack>/cdk.tf.json`) that the dqform engine reads.
 */
export { DqStack, type DqStackProps, type CredentialsFromProps, type RemovedOptions } from './stack';
/** The L2 constructs, one per resource type, and their props (every export of resources.ts: a new kind's L2 needs no line here). */
export * from './resources';
export { Contact, Entity, OwnerTarget, Query, QueryExpr, Target, type QueryInput, type TargetInput } from './helpers';
/** cdktf's App, so that generated code needs only 'dqform' (and uses dqform's copy of cdktf). */
export { App } from 'cdktf';
export { collectDiagnostics, cronProblem, formatDiagnostic, rruleProblem, validateApp, type Diagnostic } from './validation';
/** The generated L1 bindings (one namespace per resource type, plus `provider`). */
export { l1 } from './generated';
