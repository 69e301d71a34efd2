/**
 * Which transport asks for a rule preview (`DQ_PREVIEW_TRANSPORT`, {@link DqClient.previewTransport}):
 *
 * | mode | deploy overview | delete overview |
 * |---|---|---|
 * | `auto` (default) | REST when the rule fits a GET query string; gRPC when REST refuses it ({@link PreviewUnavailableError}, thrown before anything is sent: `metricOptions`, `tests[]`, ...) | REST |
 * | `grpc` | gRPC | gRPC |
 * | `rest` | REST; a rule REST cannot carry is a {@link PreviewUnavailableError} (effects unknown) | REST |
 *
 * In `auto`, a client whose gRPC is unavailable ({@link DqClient.grpcUnavailable}: a stack on this
 * machine with no grpcEndpoint) acts as `rest`, with that reason.
 *
 * In `auto`, when the gRPC fallback fails too (after its retries), the error is a
 * PreviewUnavailableError naming both: the field REST cannot carry and the gRPC failure (its
 * `cause`). Handlers turn any preview failure into "effects unknown".
 */
import type { z } from 'zod';
import type { JsonObject, PreviewMethod } from '../../../schemas/platform/grpc';
import { parseFast } from '../../../schemas/tools/lean';
import type { DqClient } from '../http';
import { PreviewUnavailableError } from '../errors';
import { DqformError } from '../../../schemas/tools/errors';

/**
 * `DQ_PREVIEW_TRANSPORT=grpc` on a client whose gRPC is unavailable ({@link DqClient.grpcUnavailable}):
 * the preview is not asked (the plan says "effects unknown").
 */
export class PreviewNeedsGrpcError extends DqformError {
  static override readonly code: string = 'preview-unavailable.needs-grpc';
  override readonly name = 'PreviewNeedsGrpcError';
}

/** The two ways of asking. */
export interface PreviewAsk<T> {
  rest: () => Promise<T>;
  grpc: () => Promise<T>;
  /**
   * Cheap and sure, when given: true only if `rest` would refuse the rule (a
   * {@link PreviewUnavailableError}, thrown before anything is sent). In `auto`, with no log sink,
   * such a rule is asked over gRPC at once, and REST's refusal is made only when a failed gRPC
   * preview needs it for its message (issue 27: a plan previews every SQL-test rule holding tests,
   * and building each one's query string only to be refused cost ~10 ms per 100 rules).
   */
  restRefuses?: () => boolean;
}

/** Runs a preview on the transport {@link DqClient.previewTransport} selects (table above). */
export async function preview<T>(http: DqClient, ask: PreviewAsk<T>): Promise<T> {
  const mode = http.previewTransport;
  if (mode === 'grpc') {
    // never a silent try of a port nothing serves (a stack on this machine with no grpcEndpoint)
    if (http.grpcUnavailable) throw new PreviewNeedsGrpcError(`the preview needs gRPC (DQ_PREVIEW_TRANSPORT=grpc), and ${http.grpcUnavailable}`);
    return ask.grpc();
  }
  if (mode === 'auto' && !http.grpcUnavailable && !http.logs && ask.restRefuses?.()) {
    try {
      return await ask.grpc();
    } catch (g) {
      // REST's refusal, for the message: `rest` throws it before sending anything
      try {
        return await ask.rest();
      } catch (e) {
        if (!(e instanceof PreviewUnavailableError)) throw e;
        throw grpcFailed(e, g);
      }
    }
  }
  try {
    return await ask.rest();
  } catch (e) {
    if (!(e instanceof PreviewUnavailableError)) throw e;
    if (mode === 'rest') throw new PreviewUnavailableError(e.path, e.field, `${e.reason}; gRPC previews are off (DQ_PREVIEW_TRANSPORT=rest)`);
    if (http.grpcUnavailable) throw new PreviewUnavailableError(e.path, e.field, `${e.reason}; ${http.grpcUnavailable}`);
    http.log(`${e.message}: asking over gRPC`);
    try {
      return await ask.grpc();
    } catch (g) {
      throw grpcFailed(e, g);
    }
  }
}

/** REST's refusal `e`, and the gRPC failure `g` of the fallback (its `cause`). */
function grpcFailed(e: PreviewUnavailableError, g: unknown): PreviewUnavailableError {
  const err = new PreviewUnavailableError(e.path, e.field, `${e.reason}, and the gRPC preview failed: ${(g as Error).message}`);
  (err as { cause?: unknown }).cause = g;
  return err;
}

/** A preview over gRPC: the call, then the response (`{ overview }`) parsed with the REST response schema. */
export async function grpcOverview<S extends z.ZodType>(http: DqClient, method: PreviewMethod, request: JsonObject, responseSchema: S): Promise<z.output<S>> {
  const json = await http.grpc.call(method, request);
  // proto3: an unset message field reads as its empty message, never as "missing"
  return http.parseValue({ method: 'GRPC', path: http.grpc.pathOf(method), status: 200, transport: 'grpc' }, { overview: {}, ...json }, responseSchema);
}

/**
 * `schema.parse(rule)` for the rule a preview asks about, lean first (schemas/tools/lean.ts
 * `parseFast`, the same output): a plan previews every rule change, and zod's own parse of each
 * cost twice the lean one. @throws zod's error when it refuses, as `schema.parse` does.
 */
export function parseRule<S extends z.ZodType>(schema: S, rule: unknown): z.output<S> {
  const r = parseFast(schema, rule);
  if (!r.success) throw r.error;
  return r.data;
}
