/**
 * Shared helpers of the resilience tests: an emulator on 127.0.0.1:0, clients with short
 * retry delays, manifests from the bench fixtures, per-kind object counts read from the
 * emulator's store, and write detection from the emulator's request counters.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PlatformClient } from '../../src/client';
import { startEmulator, type RunningEmulator, type StartEmulatorOptions } from '../../src/emulator';
import { main } from '../../src/cli/main';
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import type { Manifest } from '../../schemas/model/manifest';
import type { Plan } from '../../schemas/model/plan';

export type { RunningEmulator };

/** The gRPC endpoint of each emulator {@link emulator} started, by its REST URL. */
const grpcEndpoints = new Map<string, string | undefined>();

/** Starts an emulator on a free loopback port (REST and gRPC). */
export async function emulator(opts: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  const emu = await startEmulator({ port: 0, seed: 'empty', ...opts });
  grpcEndpoints.set(emu.url, emu.grpcEndpoint);
  return emu;
}

/**
 * A client for `url` (and its emulator's gRPC previews) whose retry waits (including Retry-After)
 * are scaled down 100x. The scale also shrinks the time budget of a call's retries
 * (`maxElapsedMs * scale`): it is set to 60 s of real time, a ceiling and not a speed test (at
 * 600 ms a call that waited behind 31 others in a loaded emulator could run out of it).
 */
export function fastClient(url: string, clientId = 'demo-admin', clientSecret = 'demo-secret', onLog?: (l: string) => void): PlatformClient {
  return PlatformClient.create({ baseUrl: url, clientId, clientSecret }, { retry: { scale: 0.01, maxAttempts: 8, maxElapsedMs: 6_000_000 }, onLog, grpc: { endpoint: grpcEndpoints.get(url) } });
}

/** A manifest from a Terraform JSON document. */
export function manifestOf(doc: Record<string, unknown>, stack = 'resilience'): Manifest {
  return manifestFromTerraformJson(doc, { stack });
}

/** Emulator collection of each kind (governance deletes are soft: `deletedAt` counts as gone). */
const COLLECTION: Record<string, string> = {
  dq_owner: 'owners',
  dq_domain: 'domains',
  dq_data_product: 'dataproducts',
  dq_ownership: 'ownerships',
  dq_alert: 'alerts',
  dq_monitor_deployment_rule: 'deploymentRules',
  dq_sql_test: 'sqlTests',
  dq_sql_test_deployment_rule: 'sqlTestDeploymentRules',
  dq_saved_view: 'savedViews',
};

/** Live objects per kind in `workspace`, straight from the emulator's store. */
export function countsByKind(emu: RunningEmulator, workspace = 'demo'): Record<string, number> {
  const store = emu.app.store.workspace(workspace);
  const out: Record<string, number> = {};
  for (const [kind, name] of Object.entries(COLLECTION)) {
    out[kind] = store.collection<Record<string, unknown>>(name).filter((o) => !o.deletedAt).length;
  }
  return out;
}

/** Route patterns that are reads although they are POSTs (batch gets, list, resolve). */
const READ_POST = /(batch-get|by-id|\/list|\/get|translate-resolver-ql|\/resolve|\/lineage\/v1)$/;

/** The write requests (any method but GET, except read POSTs) under /api since the last reset, by route. */
export async function writeRequests(emu: RunningEmulator): Promise<Record<string, number>> {
  const r = (await (await fetch(`${emu.url}/__emulator/requests`)).json()) as { routes: Record<string, number> };
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(r.routes)) {
    const [method, route] = k.split(' ');
    if (method !== 'GET' && route.startsWith('/api/') && !READ_POST.test(route)) out[k] = v;
  }
  return out;
}

/** Zeroes the emulator's request counters. */
export async function resetCounters(emu: RunningEmulator): Promise<void> {
  await fetch(`${emu.url}/__emulator/requests/reset`, { method: 'POST' });
}

/** Sets the emulator's fault rules (`[]` clears them). */
export async function setFaults(emu: RunningEmulator, rules: unknown[], seed = 7): Promise<void> {
  const r = await fetch(`${emu.url}/__emulator/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seed, rules }) });
  if (r.status !== 200) throw new Error(`faults: ${r.status} ${await r.text()}`);
}

/** Changes of a plan, comparable across runs (no etags, which differ between runs). */
export function comparable(p: Plan): unknown {
  return { summary: p.summary, diagnostics: p.diagnostics, changes: p.changes.map((c) => ({ ...c, etag: undefined })) };
}

/** Writes `doc` as `<dir>/out/stacks/<ns>/cdk.tf.json` (raw text when `doc` is a string). */
export function writeStack(dir: string, ns: string, doc: unknown): string {
  const stackDir = path.join(dir, 'out', 'stacks', ns);
  fs.mkdirSync(stackDir, { recursive: true });
  const file = path.join(stackDir, 'cdk.tf.json');
  fs.writeFileSync(file, typeof doc === 'string' ? doc : JSON.stringify(doc));
  return file;
}

/** Runs the CLI in-process against `url` in `dir` (synth output in `<dir>/out`). */
export async function cli(url: string, dir: string, args: string[], creds: [string, string] = ['demo-admin', 'demo-secret']) {
  const out: string[] = [];
  const err: string[] = [];
  const endpoint = grpcEndpoints.get(url);
  const env = { DQ_BASE_URL: url, DQ_CLIENT_ID: creds[0], DQ_CLIENT_SECRET: creds[1], ...(endpoint ? { DQ_GRPC_ENDPOINT: endpoint } : {}) };
  const code = await main([...args, '--dir', path.join(dir, 'out')], { out: (s) => out.push(s), err: (s) => err.push(s), env, cwd: dir, isTty: false });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
