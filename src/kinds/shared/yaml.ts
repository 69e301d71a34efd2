/**
 * The YAML-binding capability: a kind's friendly forms in `dqform.yaml` (names instead of
 * references, ResolverQL as a plain string) turned into its desired shape.
 */
import type { ResourceType } from '../../../schemas/model/manifest';

export type Json = Record<string, unknown>;
export type PathSeg = string | number;

/** A reference to the object named `name` of `type`, as `${type.name.attr}`; reports a bad name at `at`. */
export type Named = (type: ResourceType, name: unknown, at: PathSeg[], attr: 'id' | 'entity_id') => string;

/** Translates an entry (a clone the binding may change in place) and returns it. */
export type YamlBinding = (c: Json, named: Named) => Json;

export const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A ResolverQL string as the `{ resolverQl }` selection it stands for. */
export const qlSel = (v: unknown): unknown => (typeof v === 'string' ? { resolverQl: v } : v);

/** The `definition.parts` of a domain or data product, when it is a list. */
export const partsOf = (c: Json): unknown[] | undefined => (isObj(c.definition) && Array.isArray(c.definition.parts) ? (c.definition.parts as unknown[]) : undefined);
