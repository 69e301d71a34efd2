/**
 * The warnings a loader found in desired state it could load (a resource of another provider in
 * synth output, a YAML tag it does not know): a `ManifestError` carries them only beside an
 * error. They are kept beside the manifest, not in it (its hash, and so every plan file, stays
 * what it was), and `resolveManifest` (resolve.ts) puts them first among the resolution's diagnostics:
 * `validate`, `plan` and `apply` show them as they show the resolution's own, and the resolution
 * cache keeps them with the resolution. A module of its own: it loads nothing.
 */
import type { Diagnostic } from '../../schemas/model/plan';

const WARNINGS = new WeakMap<object, readonly Diagnostic[]>();

/** `manifest`, with the loader's `warnings` recorded for it (none: nothing recorded). */
export function withLoaderWarnings<T extends object>(manifest: T, warnings: readonly Diagnostic[]): T {
  if (warnings.length) WARNINGS.set(manifest, warnings);
  return manifest;
}

/** The loader's warnings about `manifest`, a new array (empty for a manifest no loader made). */
export function loaderWarnings(manifest: object): Diagnostic[] {
  return [...(WARNINGS.get(manifest) ?? [])];
}
