/**
 * The machine-readable stream of `validate --json`, `plan --json` and `apply --json` (issue 26):
 * one JSON object a line, as Terraform's `-json` (`@level`, `@message`, `@module`, `type`, then
 * the fields of the type). No `@timestamp`: the stream is deterministic but for the durations.
 * Documented in docs/json-stream.md.
 */
import { z } from 'zod';
import { Diagnostic } from './plan';

/** The version of the stream's format (`ui` in the `version` line). */
export const JSON_STREAM_VERSION = '1.0';

const base = {
  '@level': z.enum(['info', 'warn', 'error']),
  '@message': z.string(),
  '@module': z.literal('dqform'),
  /** The stack the line is about (absent on `version`). */
  stack: z.string().optional(),
};

/** The object a line is about: its address, type and (when known) platform id. */
const Resource = z.object({ addr: z.string(), resource_type: z.string(), id: z.string().optional() });

export const StreamLine = z.discriminatedUnion('type', [
  z.object({ ...base, type: z.literal('version'), dqform: z.string(), ui: z.string() }),
  z.object({ ...base, type: z.literal('diagnostic'), diagnostic: Diagnostic }),
  /** A change the plan writes (not the unchanged objects). */
  z.object({ ...base, type: z.literal('planned_change'), change: z.object({ resource: Resource, action: z.string(), name: z.string().optional(), reasons: z.array(z.string()) }) }),
  /** Refresh-only plans: how live differs from the code (`difference`), and what a normal apply would do (`remedy`). */
  z.object({ ...base, type: z.literal('resource_drift'), change: z.object({ resource: Resource, difference: z.string(), remedy: z.string() }) }),
  /** The end of a plan (`operation: plan`) or of an apply (`operation: apply`). */
  z.object({
    ...base,
    type: z.literal('change_summary'),
    changes: z.object({ operation: z.enum(['plan', 'apply']), add: z.number(), change: z.number(), remove: z.number(), import: z.number().optional(), failed: z.number().optional(), skipped: z.number().optional() }),
  }),
  /** validate: the stack's result. */
  z.object({ ...base, type: z.literal('validate_result'), valid: z.boolean(), error_count: z.number(), warning_count: z.number(), resources: z.number() }),
  /** apply: the applier's events (src/engine/apply-events.ts), one line each. */
  z.object({ ...base, type: z.literal('checks_start'), objects: z.number() }),
  z.object({ ...base, type: z.literal('apply_begin'), workspace: z.string(), namespace: z.string(), steps: z.number(), waves: z.number() }),
  z.object({ ...base, type: z.literal('preview_start'), hook: z.object({ resource: Resource, action: z.string() }) }),
  z.object({ ...base, type: z.literal('preview_complete'), hook: z.object({ resource: Resource, action: z.string(), monitors: z.number(), tests: z.number() }) }),
  z.object({ ...base, type: z.literal('batch_start'), hook: z.object({ kind: z.string(), addrs: z.array(z.string()) }) }),
  z.object({ ...base, type: z.literal('batch_progress'), hook: z.object({ kind: z.string(), addrs: z.array(z.string()), elapsed_seconds: z.number() }) }),
  z.object({ ...base, type: z.literal('apply_start'), hook: z.object({ resource: Resource, action: z.string() }) }),
  z.object({ ...base, type: z.literal('apply_progress'), hook: z.object({ resource: Resource, action: z.string(), elapsed_seconds: z.number() }) }),
  z.object({ ...base, type: z.literal('apply_complete'), hook: z.object({ resource: Resource, action: z.string(), id_key: z.literal('id'), id_value: z.string(), elapsed_seconds: z.number() }) }),
  z.object({
    ...base,
    type: z.literal('apply_errored'),
    hook: z.object({ resource: Resource, action: z.string(), phase: z.enum(['check', 'preview', 'write', 'readback']), error: z.string(), hint: z.string().optional(), elapsed_seconds: z.number().optional(), may_have_landed: z.boolean().optional() }),
  }),
  z.object({ ...base, type: z.literal('apply_skipped'), hook: z.object({ resource: Resource, action: z.string(), reason: z.enum(['dependency-failed', 'halted']), because: z.string() }) }),
  z.object({ ...base, type: z.literal('apply_halted'), kind: z.enum(['conflict', 'unreachable', 'preview']), reason: z.string(), hint: z.string().optional() }),
  z.object({ ...base, type: z.literal('readback'), when: z.enum(['wave', 'end']), addrs: z.array(z.string()) }),
]);
export type StreamLine = z.infer<typeof StreamLine>;
export type StreamLineType = StreamLine['type'];
