/**
 * Queries v1 (SCOPE_ENTITY_READ, SCOPE_SRE_AGENT or SCOPE_MCP_READ; wire-facts section 9): TranslateResolverQl and ResolveQuery over the
 * seeded catalog, with the ResolverQL subset of schemas/tools/resolverql.ts and the evaluator of
 * ../query-eval.ts.
 *
 * Bad ResolverQL is INVALID_ARGUMENT; the message is the parser's (it names the offset, line
 * and column) and the violation's field is `resolverQl`. ResolveQuery pages like ListEntities
 * (path order; `pageInfo.lastId` = the last entity's `entityId`, `''` on the last page).
 */
import { ResolveQueryRequest, ResolveQueryResponse, TranslateResolverQlRequest, TranslateResolverQlResponse, type Entity, type Query } from '../../../schemas/platform/entities';
import { parseResolverQl, queryToResolverQl, renderResolverQl, resolverQlToQuery, ResolverQlError, type ResolverQlAst } from '../../../schemas/tools/resolverql';
import type { RouteContext, RouteTable } from '../app';
import { invalidArgument, parseBody } from '../errors';
import { evaluateQuery, evaluateResolverQl, QueryEvaluationError } from '../query-eval';
import { pageEntities } from './entities';

/** wire-facts section 9: SCOPE_ENTITY_READ, SCOPE_SRE_AGENT or SCOPE_MCP_READ. */
const READ = ['SCOPE_ENTITY_READ', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ'] as const;

/** Parses ResolverQL, turning a {@link ResolverQlError} into INVALID_ARGUMENT (`operation.resolver_ql`). */
function parseOrInvalid(text: string, operation: string): ResolverQlAst {
  try {
    return parseResolverQl(text);
  } catch (e) {
    if (!(e instanceof ResolverQlError)) throw e;
    throw invalidArgument('invalid ResolverQL', [{ field: 'resolverQl', ruleId: `${operation}.resolver_ql`, message: e.message }]);
  }
}

/** The canonical ResolverQL of a query, when ResolverQL can express it. */
function renderedOf(query: Query): string | undefined {
  try {
    return queryToResolverQl(query);
  } catch {
    return undefined;
  }
}

function translate(ctx: RouteContext): TranslateResolverQlResponse {
  const req = parseBody(TranslateResolverQlRequest, ctx.body, 'translate_resolver_ql');
  const ast = parseOrInvalid(req.resolverQl, 'translate_resolver_ql');
  return { query: resolverQlToQuery(ast), renderedResolverQl: renderResolverQl(ast) };
}

function resolve(ctx: RouteContext): ResolveQueryResponse {
  const req = parseBody(ResolveQueryRequest, ctx.body, 'resolve_query');
  let hits: Entity[];
  let rendered: string | undefined;
  if (req.resolverQl !== undefined) {
    const ast = parseOrInvalid(req.resolverQl, 'resolve_query');
    rendered = renderResolverQl(ast);
    hits = evaluateResolverQl(ctx.catalog, rendered);
  } else {
    try {
      hits = evaluateQuery(ctx.catalog, req.query!);
    } catch (e) {
      if (!(e instanceof QueryEvaluationError)) throw e;
      throw invalidArgument('invalid query', [{ field: 'query', ruleId: 'resolve_query.query', message: e.message }]);
    }
    rendered = renderedOf(req.query!);
  }
  const page = pageEntities(ctx.catalog, hits, req.pagination?.cursor, req.pagination?.pageSize);
  const out: ResolveQueryResponse = { entityIds: page.items.map((e) => e.id), pageInfo: page.pageInfo };
  if (rendered !== undefined) out.renderedResolverQl = rendered;
  return out;
}

/** The queries v1 routes. */
export const routes: RouteTable = [
  { method: 'POST', path: '/api/queries/v1/translate-resolver-ql', scope: READ, response: TranslateResolverQlResponse, handle: translate },
  { method: 'POST', path: '/api/queries/v1/resolve', scope: READ, response: ResolveQueryResponse, handle: resolve },
];
