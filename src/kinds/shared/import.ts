/**
 * The import-rendering capability: how `dqform import` turns a kind's live config into code
 * (references to the other imported objects, the friendly YAML form).
 */
import type { ResourceType } from '../../../schemas/model/manifest';
import type { Json } from './yaml';

/** Replaces the id at `o[key]` by a reference to the imported object of `type` it names, if any. */
export type Sub = (o: Json, key: string, type: ResourceType) => void;

export interface YamlRenderHelpers {
  /** The name in `${type.name.attr}` when `v` is exactly such a reference to `type` (and `attr`, when given). */
  refName(v: unknown, type: string, attr?: string): string | undefined;
  /** The ResolverQL of a `{ resolverQl }` selection that holds nothing else. */
  qlOnly(v: unknown): string | undefined;
}

/** What a kind's TypeScript rendering may use (src/engine/import.ts `renderTs`). */
export interface TsRenderHelpers {
  /** A variable holding the construct `v` references (`${type.name.attr}`), when it is declared before. */
  asVar(v: unknown, type: ResourceType): { readonly code: string } | undefined;
  /** The id a reference stands for (the referenced object's key, with its entity-id prefix for `entity_id`). */
  idOf(v: unknown): string;
  /** A query input: its ResolverQL, else `Query.model(...)`. */
  queryInput(sel: Json): unknown;
  /** The name in `${type.name.attr}` when `v` is exactly such a reference to `type` (and `attr`, when given). */
  refName(v: unknown, type: string, attr?: string): string | undefined;
  /** Records that the code uses class `cls` of the construct library (imported at the top). */
  use(cls: string): void;
  /** Raw code inside a literal. */
  code(s: string): { readonly code: string };
  /** A TypeScript string literal. */
  quote(s: string): string;
  /** A TypeScript literal of `v` at indentation `indent`. */
  literal(v: unknown, indent?: number): string;
  /** The object with its keys in the order imported code shows them. */
  ordered(o: Json): Json;
}

export interface ImportRendering {
  /** The read form in dqform's shape, when the platform's message differs from it. */
  fromLive?(raw: Json): Json;
  /** The construct props of a config (a copy); default: the config, ordered. */
  ts?(c: Json, h: TsRenderHelpers): Json;
  /** Calls `sub` on every field of `x` that holds the id of another object. */
  refs?(x: Json, sub: Sub): void;
  /** Rewrites `x` (a copy) into its friendly YAML form: the inverse of the kind's YAML binding. */
  yaml?(x: Json, h: YamlRenderHelpers): void;
}

/** The three alert bodies. */
export const ALERT_BODIES = ['issueLifecycle', 'schemaChange', 'incidentLifecycle'] as const;
