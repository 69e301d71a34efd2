/**
 * Internal plumbing shared by the L2 constructs: key-case conversion, handing desired values to
 * the generated L1 classes, references between constructs, per-construct diagnostics.
 * Not exported from the package root.
 */
import { ref, TerraformResource, TerraformStack, Token, type IResolvable, type IResolveContext } from 'cdktf';
import type { IConstruct } from 'constructs';
import type { ResourceType } from '../schemas/model/manifest';
import { SHAPES, type ShapeNode } from './generated/shapes';

/** lowerCamelCase -> snake_case. */
export function snake(s: string): string {
  return s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/([A-Z])([A-Z][a-z])/g, '$1_$2').toLowerCase();
}
/** snake_case -> lowerCamelCase. */
export function camel(s: string): string {
  return s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Converts every object key to snake_case, recursively (values untouched). */
export function snakeDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(snakeDeep);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (x !== undefined) out[snake(k)] = snakeDeep(x);
    return out;
  }
  return v;
}
/** Converts every object key to lowerCamelCase, recursively (the engine's conversion). */
export function camelDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(camelDeep);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[camel(k)] = camelDeep(x);
    return out;
  }
  return v;
}

function toL1Block(v: Record<string, unknown>, shape: Record<string, ShapeNode>, where: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (x === undefined) continue;
    const node = shape[snake(k)];
    // an unknown prop (a typo): left out here, reported with its construct path by checkProps (prop-keys.ts)
    if (!node) continue;
    if (node.kind === 'dynamic') out[node.ts] = snakeDeep(x);
    else if (node.kind === 'block') out[node.ts] = toL1Block(x as Record<string, unknown>, node.children ?? {}, `${where}.${k}`);
    else if (node.kind === 'list') out[node.ts] = (x as Record<string, unknown>[]).map((e, i) => toL1Block(e, node.children ?? {}, `${where}.${k}[${i}]`));
    else out[node.ts] = x;
  }
  return out;
}

/**
 * Turns a desired value (lowerCamelCase, the shape of `RESOURCE_SCHEMAS[type]`) into the config
 * object of the generated L1 class: nested blocks keep camelCase (the L1 converts them), free-form
 * `dynamic` attributes (queries, identifiers) are written in snake_case here.
 */
export function toL1<T>(type: ResourceType, desired: Record<string, unknown>): T {
  return toL1Block(desired, SHAPES[type], type) as T;
}

/** One finding about the desired state: what, where, and what to do next. */
export interface Diagnostic {
  severity: 'error' | 'warning';
  /** One line. */
  summary: string;
  /** More context (may repeat the summary). */
  detail: string;
  /** The construct path, e.g. `acme/orders_alert`. */
  constructPath: string;
  /** Field path in the desired shape (lowerCamelCase, e.g. `issueLifecycle.targets[0]`), if any. */
  field?: string;
  /** What to do next. */
  hint?: string;
}

const LOCAL = Symbol.for('dqform.constructs.diagnostics');
/** Records a diagnostic found while building a construct (reported at validation time). */
export function addLocalDiagnostic(c: IConstruct, d: Omit<Diagnostic, 'constructPath' | 'severity' | 'detail'> & { severity?: Diagnostic['severity']; detail?: string }): void {
  const holder = c as unknown as { [LOCAL]?: Diagnostic[] };
  (holder[LOCAL] ??= []).push({ severity: d.severity ?? 'error', summary: d.summary, detail: d.detail ?? d.summary, constructPath: c.node.path, field: d.field, hint: d.hint });
}
/** The diagnostics recorded on a construct while it was built. */
export function localDiagnostics(c: IConstruct): Diagnostic[] {
  return [...((c as unknown as { [LOCAL]?: Diagnostic[] })[LOCAL] ?? [])];
}

/** Something with Terraform attributes we reference: an L1/L2 resource. */
export interface Referenceable extends IConstruct {
  readonly terraformResourceType: string;
  getStringAttribute(name: string): string;
}

/**
 * A reference to `<type>.<logical id>.<attribute>` made for use in its own stack: what
 * `resource.getStringAttribute(attr)` makes (cdktf's `Reference`), resolving the same way
 * (`${identifier}`, or the bare identifier inside an expression), without recording a creation
 * stack trace: cdktf's tokens capture an unbounded, source-mapped stack trace each, which cost
 * more than everything else in building 10,000 constructs. Resolved in another stack (a user
 * passing the token on), it hands over to a real cdktf reference, which sets up the cross-stack
 * output as cdktf does.
 */
class StackReference implements IResolvable {
  readonly creationStack: string[] = [];
  private crossStack?: IResolvable;
  constructor(
    private readonly identifier: string,
    private readonly stack: TerraformStack,
  ) {}
  resolve(context: IResolveContext): unknown {
    if (TerraformStack.of(context.scope) !== this.stack) return (this.crossStack ??= ref(this.identifier, this.stack)).resolve(context);
    const braces = !context.suppressBraces;
    context.suppressBraces = true;
    return braces ? `\${${this.identifier}}` : this.identifier;
  }
  toString(): string {
    return Token.asString(this);
  }
}

/**
 * A reference from `from` (field `field`) to attribute `attr` of `target`: the cdktf token
 * (`${dq_owner.x.id}` after resolution) when both live in the same stack. A target in another
 * stack is an error (the engine resolves references within one stack only); the literal
 * reference string is written instead so cdktf adds no cross-stack outputs.
 */
export function reference(from: IConstruct, field: string, target: Referenceable, attr: string): string {
  const a = TerraformStack.of(from);
  const b = TerraformStack.of(target);
  if (a === b) {
    if (!TerraformResource.isTerraformResource(target) || target.forEach !== undefined) return target.getStringAttribute(attr);
    return Token.asString(new StackReference(`${target.terraformResourceType}.${target.friendlyUniqueId}.${attr}`, b));
  }
  addLocalDiagnostic(from, {
    field,
    summary: `${field} references ${target.node.path}, which is in stack "${b.node.id}", not in this stack "${a.node.id}"`,
    hint: 'references work within one stack only: declare both constructs in the same DqStack, or pass the pinned id as a string',
  });
  return `\${${target.terraformResourceType}.${b.getLogicalId(target as never)}.${attr}}`;
}

/** A generated L1 resource class: its statics as cdktf generates them. */
type L1Class = (abstract new (...args: never[]) => TerraformResource) & { readonly tfResourceType: string; generateConfigForImport(...args: never[]): unknown };

/**
 * The base an L2 construct extends in place of its generated L1 class, so that the L1's module
 * (up to 420 KB of generated code) is loaded only when the kind is first used: an app pays only
 * for the kinds it declares. The first `new` of the L2 (or of a subclass of it) loads the L1 and
 * puts it into the L2's prototype chain where `extends L1` would have put it (so the L2 then is
 * exactly a subclass of the L1: `instanceof`, `super`, statics), then constructs through it.
 * Before that, the L1's statics answer without loading it (`tfResourceType`) or load it first
 * (`generateConfigForImport`). Types: `load`'s cast, from an `import type` of the L1 module.
 */
export function lazyL1<C extends L1Class>(tfResourceType: string, load: () => C): C {
  class LazyL1 {
    static readonly tfResourceType = tfResourceType;
    static generateConfigForImport(...args: never[]): unknown {
      return load().generateConfigForImport(...args);
    }
    constructor(...args: unknown[]) {
      const l1 = load();
      let l2: object = new.target;
      while (Object.getPrototypeOf(l2) !== LazyL1) l2 = Object.getPrototypeOf(l2) as object;
      Object.setPrototypeOf(l2, l1);
      Object.setPrototypeOf((l2 as { prototype: object }).prototype, l1.prototype);
      return Reflect.construct(l1, args, new.target) as LazyL1;
    }
  }
  Object.setPrototypeOf(LazyL1, TerraformResource);
  Object.setPrototypeOf(LazyL1.prototype, TerraformResource.prototype);
  return LazyL1 as unknown as C;
}
