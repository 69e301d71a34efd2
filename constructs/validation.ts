/**
 * Offline validation of the desired state, before any network call. Every finding is collected
 * (never first-error-only) as a {@link Diagnostic} naming the construct path, the field and what
 * to do. `app.synth()` fails with all errors of a stack ({@link DqStack} registers
 * {@link collectDiagnostics} with `node.addValidation`); {@link validateApp} returns them as data.
 *
 * What is checked:
 * - each resource's desired config, exactly as the engine will read it (the synthesised
 *   attributes, keys converted to lowerCamelCase, references `${...}` resolved to their text),
 *   against `RESOURCE_SCHEMAS[type]`;
 * - alert kind/target rules (`alertRuleViolations`): incident-lifecycle alerts with e-mail or
 *   Teams targets, schema-change alerts with webhooks, ...;
 * - ResolverQL text (`checkResolverQlText`: malformed text; unknown functions are left to validate's warning), cron expressions (5 fields), RRULEs (`FREQ=...`), time
 *   zones (IANA names) (schemas/tools/text-checks.ts, shared with the engine's validate);
 * - duplicate pinned ids and fqns in the app, two stacks of one namespace declaring the same
 *   address, references to constructs in another stack, domain cycles, `removed` declarations.
 */
import { App, DefaultTokenResolver, StringConcat, TerraformResource, TerraformStack, Tokenization } from 'cdktf';
import type { IConstruct } from 'constructs';
import type { z } from 'zod';
import { alertRuleViolations, type AlertWrite } from '../schemas/platform/alerts';
import { Manifest, RESOURCE_SCHEMAS, RESOURCE_TYPES, type ResourceType } from '../schemas/model/manifest';
import { checkResolverQlText, RESOLVERQL_FUNCTIONS } from '../schemas/tools/resolverql';
import { deprecatedEnums } from '../schemas/platform/wire';
import { cronProblem, ruleScheduleProblem, rruleProblem, timezoneProblem, EXAMPLE_DTSTART } from '../schemas/tools/text-checks';
import { camel, camelDeep, localDiagnostics, type Diagnostic } from './internal';
import { Domain } from './resources';

export type { Diagnostic };

const STACK = Symbol.for('dqform.constructs.DqStack');
const META_KEYS = ['lifecycle', 'depends_on', 'provider', 'count', 'for_each', 'provisioner', 'connection', '//'];

/** One line per diagnostic: `<path>: <field>: <summary> (<hint>)`. */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.constructPath}${d.field ? `: ${d.field}` : ''}: ${d.summary}${d.hint ? `. Fix: ${d.hint}` : ''}`;
}

function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

function hintFor(issue: z.core.$ZodIssue, field: string): string {
  if (field.endsWith('metricIds') && issue.code === 'too_small') return 'list at least one metric, e.g. METRIC_ID_ROW_COUNT';
  switch (issue.code) {
    case 'too_small':
      return `give ${field} at least ${String((issue as { minimum?: unknown }).minimum)} ${(issue as { origin?: string }).origin === 'array' ? 'item(s)' : 'character(s)'}`;
    case 'too_big':
      return `shorten ${field} to at most ${String((issue as { maximum?: unknown }).maximum)}`;
    case 'invalid_value':
      return `use one of ${((issue as { values?: unknown[] }).values ?? []).map(String).join(', ')}`;
    case 'invalid_type':
      return `set ${field} to a ${(issue as { expected?: string }).expected ?? 'valid value'}`;
    default:
      return `correct ${field || 'the props'} of this construct`;
  }
}

const isRef = (s: string) => s.includes('${');

export { cronProblem, rruleProblem, timezoneProblem };

/**
 * Walks a desired value for text fields with their own grammar. `path` is the field path so far
 * (pushed and popped while walking; the field text is built only for a finding).
 */
function textChecks(v: unknown, path: (string | number)[], out: (field: string, summary: string, hint: string) => void, ruleSchedule = false): void {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      path.push(i);
      textChecks(v[i], path, out, ruleSchedule);
      path.pop();
    }
    return;
  }
  if (v === null || typeof v !== 'object') return;
  for (const k of Object.keys(v)) {
    const x = (v as Record<string, unknown>)[k];
    path.push(k);
    if (typeof x === 'string') {
      if (!isRef(x)) textCheck(k, x, path, out, ruleSchedule);
    } else if (x !== null && typeof x === 'object') textChecks(x, path, out, ruleSchedule);
    path.pop();
  }
}

function textCheck(k: string, x: string, path: (string | number)[], out: (field: string, summary: string, hint: string) => void, ruleSchedule: boolean): void {
  if (k === 'resolverQl') {
    try {
      checkResolverQlText(x); // a function dqform does not know is not an error: validate and plan warn, the platform checks it
    } catch (err) {
      out(fieldPath(path), `bad ResolverQL: ${(err as Error).message}`, `fix the query text; the functions dqform knows are ${RESOLVERQL_FUNCTIONS.join(', ')}`);
    }
  } else if (k === 'cron') {
    const why = cronProblem(x);
    if (why) out(fieldPath(path), `bad cron "${x}": ${why}`, 'write 5 fields, e.g. "0 9 * * 1-5"');
  } else if (k === 'recurrenceRule') {
    const why = rruleProblem(x);
    // a SQL-test rule's schedule needs an inline DTSTART: (grpc-facts `recurrence_rule`)
    const dt = why || !ruleSchedule ? undefined : ruleScheduleProblem(x);
    if (why) out(fieldPath(path), `bad RRULE ${JSON.stringify(x)}: ${why}`, ruleSchedule ? `write an inline start and an RRULE, e.g. ${JSON.stringify(`${EXAMPLE_DTSTART}\nRRULE:FREQ=DAILY;BYHOUR=6`)}` : 'write an iCal RRULE, e.g. "FREQ=DAILY;BYHOUR=6"');
    else if (dt) out(fieldPath(path), `RRULE ${JSON.stringify(x)} has no inline DTSTART: ${dt.why}`, `write ${JSON.stringify(dt.fixed)} (any start date and time)`);
  } else if (k === 'timezone') {
    const why = timezoneProblem(x);
    if (why) out(fieldPath(path), `bad time zone: ${why}`, 'use an IANA zone name, e.g. "Europe/Berlin" or "UTC"');
  }
}

function isDqType(t: string): t is ResourceType {
  return (RESOURCE_TYPES as string[]).includes(t);
}

interface Entry {
  resource: TerraformResource;
  stack: TerraformStack;
  type: ResourceType;
  logicalId: string;
  config: Record<string, unknown>;
  namespace?: string;
}

/** A stack's Terraform JSON as cdktf writes it to `cdk.tf.json` (the part read here). */
interface StackJson {
  resource?: Record<string, Record<string, Record<string, unknown>>>;
}

/**
 * A stack's Terraform JSON, resolved once (`TerraformStack.toTerraform`, never a cached
 * result): the values exactly as `cdk.tf.json` will hold them.
 */
export function resolveStack(stack: TerraformStack): StackJson {
  return TerraformStack.prototype.toTerraform.call(stack) as StackJson;
}

/**
 * The dq resources among `nodes` with their desired config. Each stack is resolved once
 * (`resolved` may already hold some, e.g. the stack being synthesised) and each resource's
 * config is read from its stack's JSON by logical id, so validation costs one resolution per
 * stack, not one per resource.
 */
function entriesOf(nodes: readonly IConstruct[], resolved: Map<TerraformStack, StackJson>): Entry[] {
  const out: Entry[] = [];
  for (const c of nodes) {
    if (!TerraformResource.isTerraformResource(c) || !isDqType(c.terraformResourceType)) continue;
    const stack = TerraformStack.of(c);
    let tf = resolved.get(stack);
    if (tf === undefined) resolved.set(stack, (tf = resolveStack(stack)));
    const logicalId = c.friendlyUniqueId;
    const raw = tf.resource?.[c.terraformResourceType]?.[logicalId] ?? resolveResource(c, stack);
    const config: Record<string, unknown> = {};
    for (const k of Object.keys(raw)) if (!META_KEYS.includes(k)) config[camel(k)] = camelDeep(raw[k]);
    const ns = STACK in stack ? (stack as unknown as { namespace: string }).namespace : undefined;
    out.push({ resource: c, stack, type: c.terraformResourceType, logicalId, config, namespace: ns });
  }
  return out;
}

/** One resource's resolved attributes (for a resource its stack's JSON does not list under its logical id). */
function resolveResource(c: TerraformResource, stack: TerraformStack): Record<string, unknown> {
  const tf = Tokenization.resolve(c.toTerraform(), { scope: stack, resolver: new DefaultTokenResolver(new StringConcat()), preparing: false }) as { resource: Record<string, Record<string, Record<string, unknown>>> };
  return Object.values(tf.resource[c.terraformResourceType])[0];
}

function resourceDiagnostics(e: Entry): Diagnostic[] {
  const out: Diagnostic[] = [];
  const path = e.resource.node.path;
  const add = (field: string, summary: string, hint: string) => out.push({ severity: 'error', summary, detail: `${e.type}.${e.logicalId} (${path}): ${field ? `${field}: ` : ''}${summary}`, constructPath: path, field: field || undefined, hint });
  const schema = RESOURCE_SCHEMAS[e.type] as unknown as z.ZodType;
  const parsed = schema.safeParse(e.config);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldPath(issue.path);
      add(field, issue.message, hintFor(issue, field));
    }
  }
  for (const d of deprecatedEnums(schema, e.config)) {
    out.push({
      severity: 'warning',
      summary: `"${d.old}" is a deprecated spelling; write "${d.now}"`,
      detail: `${e.type}.${e.logicalId} (${path}): ${d.field}: "${d.old}" is a deprecated spelling of "${d.now}"`,
      constructPath: path,
      field: d.field,
      hint: `replace "${d.old}" with "${d.now}" (the platform's own name; the old spelling still works for now)`,
    });
  }
  if (e.type === 'dq_alert') {
    for (const v of alertRuleViolations((parsed.success ? parsed.data : e.config) as AlertWrite)) {
      add(v.field ?? '', v.message ?? v.ruleId ?? 'alert rule violated', 'change the targets or settings as the message says');
    }
  }
  textChecks(e.config, [], add, e.type === 'dq_sql_test_deployment_rule');
  return out;
}


/** Diagnostics that need the whole app: duplicates, cycles, removed declarations. */
function appDiagnostics(all: Entry[], nodes: readonly IConstruct[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const dup = (key: (e: Entry) => string | undefined, what: (e: Entry, k: string) => string, hint: string) => {
    const seen = new Map<string, Entry[]>();
    for (const e of all) {
      const k = key(e);
      if (k === undefined) continue;
      seen.set(k, [...(seen.get(k) ?? []), e]);
    }
    for (const [k, es] of seen) {
      if (es.length < 2) continue;
      for (const e of es) {
        const others = es.filter((o) => o !== e).map((o) => o.resource.node.path).join(', ');
        const summary = `${what(e, k)} is also used by ${others}`;
        out.push({ severity: 'error', summary, detail: summary, constructPath: e.resource.node.path, field: what(e, k).split(' ')[0], hint });
      }
    }
  };
  dup(
    (e) => (typeof e.config.id === 'string' && !isRef(e.config.id) ? `${e.type}\u0000${e.config.id}` : undefined),
    (e) => `id "${String(e.config.id)}" (${e.type})`,
    'pin a different id, or remove the pin and let the engine derive one',
  );
  dup(
    (e) => (e.type === 'dq_alert' ? (typeof e.config.fqn === 'string' ? e.config.fqn : e.namespace !== undefined ? `${e.namespace}.${e.logicalId}` : undefined) : undefined),
    (_e, k) => `fqn "${k}"`,
    'pin a distinct fqn or rename one of the constructs',
  );
  dup(
    (e) => (e.namespace !== undefined ? `${e.namespace}\u0000${e.type}.${e.logicalId}` : undefined),
    (e) => `address ${e.type}.${e.logicalId} in namespace "${e.namespace}"`,
    'two stacks with one namespace must not declare the same address: rename one construct or use distinct namespaces',
  );
  // Domain cycles: child -> parent edges, from `parent` and from sub-domain parts.
  const domains = nodes.filter((c): c is Domain => c instanceof Domain);
  const parents = new Map<Domain, Domain[]>();
  for (const d of domains) {
    if (d.parent) parents.set(d, [...(parents.get(d) ?? []), d.parent]);
    for (const sub of d._subDomains) parents.set(sub, [...(parents.get(sub) ?? []), d]);
  }
  const state = new Map<Domain, 1 | 2>();
  const inCycle = new Set<Domain>();
  const visit = (d: Domain, stack: Domain[]) => {
    if (state.get(d) === 2) return;
    if (state.get(d) === 1) {
      stack.slice(stack.indexOf(d)).forEach((x) => inCycle.add(x));
      return;
    }
    state.set(d, 1);
    for (const p of parents.get(d) ?? []) visit(p, [...stack, d]);
    state.set(d, 2);
  };
  domains.forEach((d) => visit(d, []));
  for (const d of domains) {
    if (!inCycle.has(d)) continue;
    const summary = `domain hierarchy has a cycle through ${[...inCycle].map((x) => x.node.path).sort().join(' -> ')}`;
    out.push({ severity: 'error', summary, detail: summary, constructPath: d.node.path, field: 'parentId', hint: 'a domain cannot be its own ancestor: remove one parent or sub-domain link' });
  }
  // Stacks: namespace, removed declarations that are still declared.
  for (const s of nodes.filter((c): c is TerraformStack => TerraformStack.isStack(c))) {
    if (!(STACK in s)) continue;
    const ns = (s as unknown as { namespace: string }).namespace;
    const nsCheck = Manifest.shape.namespace.safeParse(ns);
    if (!nsCheck.success) out.push({ severity: 'error', summary: `namespace "${ns}": ${nsCheck.error.issues[0].message}`, detail: nsCheck.error.issues[0].message, constructPath: s.node.path, field: 'namespace', hint: 'choose a namespace like "acme-prod"' });
    const declared = new Set(all.filter((e) => e.stack === s).map((e) => `${e.type}.${e.logicalId}`));
    ((s as unknown as { removedList: readonly string[] }).removedList ?? []).forEach((addr, i) => {
      if (declared.has(addr)) {
        const summary = `${addr} is declared removed but is still in the stack`;
        out.push({ severity: 'error', summary, detail: summary, constructPath: s.node.path, field: `removed[${i}]`, hint: `delete the construct for ${addr} or drop the removed() declaration` });
      }
    });
  }
  return out;
}

function sortDiagnostics(ds: Diagnostic[]): Diagnostic[] {
  const key = (d: Diagnostic) => `${d.constructPath}\u0000${d.field ?? ''}\u0000${d.summary}`;
  const seen = new Set<string>();
  return ds
    .filter((d) => (seen.has(key(d)) ? false : (seen.add(key(d)), true)))
    .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/**
 * All diagnostics for the constructs under `scope` (an app, a stack, or any construct), sorted
 * by construct path and field. App-wide checks (duplicates, cycles) look at the whole app but
 * report only findings on constructs under `scope`.
 */
export function collectDiagnostics(scope: IConstruct): Diagnostic[] {
  return diagnosticsWith(scope, new Map());
}

/**
 * {@link collectDiagnostics} with some stacks' Terraform JSON already resolved (`resolved`,
 * filled in with the others as they are resolved).
 * @internal
 */
export function diagnosticsWith(scope: IConstruct, resolved: Map<TerraformStack, StackJson>): Diagnostic[] {
  const app = scope.node.root;
  const underPath = (p: string) => scope.node.path === '' || p === scope.node.path || p.startsWith(`${scope.node.path}/`);
  const under = (c: IConstruct) => underPath(c.node.path);
  const nodes = app.node.findAll();
  const all = entriesOf(nodes, resolved);
  const out: Diagnostic[] = [];
  for (const c of scope === app ? nodes : scope.node.findAll()) {
    const local = localDiagnostics(c);
    if (local.length > 0) out.push(...local);
  }
  for (const e of all) if (under(e.resource)) out.push(...resourceDiagnostics(e));
  for (const d of appDiagnostics(all, nodes)) if (underPath(d.constructPath)) out.push(d);
  return sortDiagnostics(out);
}

/** Every diagnostic of the app (all stacks), as data. Empty when the app is valid. */
export function validateApp(app: App): Diagnostic[] {
  return collectDiagnostics(app);
}
