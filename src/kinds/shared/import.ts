/**
 * The import-rendering capability: how `dqform import` turns a kind's live config into code
 * (references to the other imported objects, the friendly YAML form).
 */
import type { ResourceType } from '../../../schemas/manifest';
import type { Json } from './yaml';

/** Replaces the id at `o[key]` by a reference to the imported object of `type` it names, if any. */
export type Sub = (o: Json, key: string, type: ResourceType) => void;

export interface YamlRenderHelpers {
  /** The name in `${type.name.attr}` when `v` is exactly such a reference to `type` (and `attr`, when given). */
  refName(v: unknown, type: string, attr?: string): string | undefined;
  /** The ResolverQL of a `{ resolverQl }` selection that holds nothing else. */
  qlOnly(v: unknown): string | undefined;
}

export interface ImportRendering {
  /** Calls `sub` on every field of `x` that holds the id of another object. */
  refs?(x: Json, sub: Sub): void;
  /** Rewrites `x` (a copy) into its friendly YAML form: the inverse of the kind's YAML binding. */
  yaml?(x: Json, h: YamlRenderHelpers): void;
}

/** The three alert bodies. */
export const ALERT_BODIES = ['issueLifecycle', 'schemaChange', 'incidentLifecycle'] as const;
