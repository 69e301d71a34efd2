/**
 * The resolution cache's files (src/engine/resolution-cache.ts): one entry per file, a head line
 * then the body. The head is checked with these schemas; the body is the JSON the head's sha256
 * and length vouch for, written by the same dqform (its code identity is part of the key), so
 * it is not parsed with zod again: re-validating a resolution would cost what the cache saves.
 */
import { z } from 'zod';
import { ManifestPlatform } from './manifest-platform';

/**
 * Bumped when what an entry holds changes shape: an entry of another format is ignored. 2: a
 * resolution's entry holds `{ resolution, desiredForms }` (the planner's normalised desired
 * objects beside the resolution: src/cli/desired.ts), not the bare resolution.
 */
export const RESOLUTION_CACHE_FORMAT = 2;

/** The first line of an entry file. */
export const CacheEntryHead = z.object({
  dqformCache: z.literal(RESOLUTION_CACHE_FORMAT),
  /** The entry's key (its file name is derived from it): a file renamed over another is ignored. */
  key: z.string().regex(/^[0-9a-f]{64}$/),
  /** sha256 (hex) and length in bytes of the body that follows the head line. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().nonnegative(),
});
export type CacheEntryHead = z.infer<typeof CacheEntryHead>;

/**
 * What a command needs of a stack before it knows the workspace (the client, the sibling
 * stacks), kept so that a warm run loads no manifest: the manifest's platform fields, its hash
 * and size, the sibling stacks' namespaces, and the environment variables these were read with
 * (by name, each value's sha256, or null when unset: never a value).
 */
export const CachedStackHead = ManifestPlatform.extend({
  resourceCount: z.number().int().nonnegative(),
  manifestHash: z.string(),
  /** The other stacks on this stack's platform (checked for shared objects), in the loader's order. */
  siblings: z.array(z.object({ stack: z.string(), namespace: z.string() })),
  /** Every other stack's namespace, on any platform. */
  appNamespaces: z.array(z.string()),
  env: z.array(z.tuple([z.string(), z.string().nullable()])),
});
export type CachedStackHead = z.infer<typeof CachedStackHead>;
