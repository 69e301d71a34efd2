/** The kinds' import renderings (src/kinds/shared/import.ts), by type. */
import { IMPORT_RENDERINGS } from './import.generated';
import type { ImportRendering } from './shared/import';

export type { ImportRendering, Sub, TsRenderHelpers, YamlRenderHelpers } from './shared/import';

/** The import rendering of `type` (empty for kinds with nothing to render specially). */
export function importRenderingOf(type: string): ImportRendering {
  return IMPORT_RENDERINGS.get(type) ?? {};
}
