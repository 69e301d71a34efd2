/**
 * The REST form of a deploy-overview request (wire-facts section 1, "message in a query"): the
 * rule's scalar fields as dotted query parameters (`deploymentRule.queryConfig.metricIds=1`), a
 * structured query sent as its ResolverQL rendering. What has no such form (a repeated message,
 * an empty message marker) is a {@link PreviewUnavailableError}, thrown before anything is sent.
 */
import type { z } from 'zod';
import { queryToResolverQl } from '../../../schemas/tools/resolverql';
import type { Query } from '../../../schemas/platform/entities';
import { QueryFormError, toQuery } from '../../../schemas/platform/wire';
import { PreviewUnavailableError } from '../errors';

const QUERY_CONFIGS = ['queryConfig', 'exclusiveQueryConfig'] as const;

/**
 * A selection `{ query?, resolverQl?, renderedResolverQl? }` in its query-string form: the
 * ResolverQL text (written or rendered from the query); the structured query and the output-only
 * rendering are dropped.
 */
function selectionForQuery(config: Record<string, unknown>, field: string, path: string): Record<string, unknown> {
  const { query, renderedResolverQl: _r, ...rest } = config;
  if (typeof rest.resolverQl === 'string' && rest.resolverQl !== '') return rest;
  if (!query) return rest;
  const parts = (query as Query).parts ?? [];
  if (parts.length === 0) return rest;
  let text: string;
  try {
    text = queryToResolverQl(query as Query);
  } catch (e) {
    throw new PreviewUnavailableError(path, `${field}.query`, `is a structured query with no ResolverQL rendering (${(e as Error).message}), and its parts are a repeated message`);
  }
  return { ...rest, resolverQl: text };
}

/**
 * The `[name, value]` query pairs of `{ [envelope]: rule }` (rule already parsed with its write
 * schema). @throws PreviewUnavailableError when the rule has no query-string form.
 */
export function overviewQuery(schema: z.ZodType, envelope: string, rule: Record<string, unknown>, path: string): [string, string][] {
  const r: Record<string, unknown> = { ...rule };
  for (const k of QUERY_CONFIGS) {
    if (r[k] && typeof r[k] === 'object') r[k] = selectionForQuery(r[k] as Record<string, unknown>, `${envelope}.${k}`, path);
  }
  try {
    return toQuery(schema, { [envelope]: r });
  } catch (e) {
    if (e instanceof QueryFormError) throw new PreviewUnavailableError(path, e.field, e.why);
    throw e;
  }
}
