/**
 * The cold path on a worker thread (issue 27): when the resolution cache misses for a large
 * stack, a worker loads the stack with the same loaders, hashes it, resolves it in the workspace
 * the main thread sends as soon as IAM answers, and writes the cache entries as the main thread
 * would; it sends back the head and hash (waited for synchronously: the commands need the
 * stack's platform fields at once) and the resolution entry's JSON text (one string, parsed on
 * the main thread as a warm start parses it). The main thread reads live state meanwhile.
 *
 * Whatever fails on the worker (it cannot start, a loader throws, it crashes) is left to the main
 * thread, which does the cold path itself as without a worker: errors and diagnostics are the
 * main thread's own, as today. Under TypeScript sources (tsx, ts-jest) there is no worker.
 */
import * as path from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker, workerData, type MessagePort } from 'node:worker_threads';
import type { DesiredSource, ResolveWorker, WorkerHead } from './desired';

/** How long the main thread waits for the worker's head or resolution before doing it itself. */
const WAIT_MS = 60_000;

interface Data {
  entry: { rest?: string; file?: string; ts?: string; v8?: { start: string; files: string[] } };
  env: NodeJS.ProcessEnv;
  cwd: string;
  src: DesiredSource;
  stack: string | undefined;
  port: MessagePort;
  sab: SharedArrayBuffer;
}

type Message = { type: 'head'; head: WorkerHead['head'] } | { type: 'hash'; hash: string } | { type: 'failed' } | { type: 'resolution'; body?: string };

/**
 * Where the worker's code is: the bundle's rest file, or this module compiled; under TypeScript
 * sources (tsx, ts-jest) none, unless `DQFORM_WORKER_TS=1` (the tests: the worker loads the
 * sources through tsx, slowly).
 */
function entryOf(env: NodeJS.ProcessEnv): Data['entry'] | undefined {
  if (path.basename(__filename) === 'dqform-rest.js') {
    // the bundle's V8 code cache, as bin/dqform.js sets it up for the main thread (dist/src/cli/v8-start.js)
    const start = path.join(__dirname, '..', 'src', 'cli', 'v8-start.js');
    return { rest: __filename, v8: { start, files: ['dqform.js', 'dqform-rest.js', 'dqform-grpc.js'].map((f) => path.join(__dirname, f)) } };
  }
  if (__filename.endsWith('.js')) return { file: __filename };
  return env.DQFORM_WORKER_TS === '1' ? { ts: __filename } : undefined;
}

/** The worker: loads the entry and runs it; a worker that ends before it answered wakes the main thread (which then does the work itself). */
const WORKER_CODE = `
const { workerData } = require('node:worker_threads');
const i32 = new Int32Array(workerData.sab);
process.on('exit', () => {
  for (const i of [0, 1, 2]) if (Atomics.compareExchange(i32, i, 0, 2) === 0) Atomics.notify(i32, i);
});
try {
  const e = workerData.entry;
  if (e.ts) require('tsx/cjs');
  if (e.v8) {
    try {
      require(e.v8.start).startV8(e.v8.files);
    } catch {
      // no code cache: the worker compiles the bundle
    }
  }
  const m = e.rest ? require(e.rest).load('src/cli/resolve-worker.ts') : require(e.file ?? e.ts);
  m.runResolveWorker();
} catch {
  process.exit(1);
}
`;

/** Starts a worker for the cold path of `stack`, or undefined when there can be none here. */
export function startResolveWorker(env: NodeJS.ProcessEnv, cwd: string, src: DesiredSource, stack: string | undefined): ResolveWorker | undefined {
  const entry = entryOf(env);
  if (!entry || env.DQFORM_NO_WORKER === '1') return undefined;
  const sab = new SharedArrayBuffer(12);
  const i32 = new Int32Array(sab);
  const { port1, port2 } = new MessageChannel();
  let worker: Worker;
  try {
    const data: Data = { entry, env: { ...env }, cwd, src, stack, port: port2, sab };
    worker = new Worker(WORKER_CODE, { eval: true, workerData: data, transferList: [port2], stdout: true, stderr: true });
  } catch {
    port1.close();
    return undefined;
  }
  worker.unref();
  worker.on('error', () => undefined);
  let exited = false;
  worker.once('exit', () => (exited = true));
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    port1.close();
    void worker.terminate().catch(() => undefined);
  };
  // the messages come in order (head, hash, resolution); one taken early is kept here
  let hash: string | undefined;
  const wait = (i: number): Message | undefined => {
    if (Atomics.wait(i32, i, 0, WAIT_MS) === 'timed-out' || Atomics.load(i32, i) !== 1) return undefined;
    const m = receiveMessageOnPort(port1)?.message as Message | undefined;
    if (m?.type === 'hash') hash = m.hash;
    return m;
  };
  return {
    head() {
      const m = wait(0);
      return m?.type === 'head' ? m.head : undefined;
    },
    hash() {
      if (hash === undefined && !closed) wait(1);
      return hash;
    },
    resolution(workspace) {
      port1.postMessage({ workspace });
      return new Promise((resolve) => {
        if (exited || Atomics.load(i32, 2) === 2) return resolve(undefined);
        port1.on('message', (m: Message) => {
          if (m.type === 'hash') hash = m.hash;
          else resolve(m.type === 'resolution' ? m.body : undefined);
        });
        worker.once('exit', () => resolve(undefined));
      });
    },
    resolutionSync(workspace) {
      port1.postMessage({ workspace });
      if (hash === undefined) wait(1);
      const m = wait(2);
      return m?.type === 'resolution' ? m.body : undefined;
    },
    close,
  };
}

/** The worker's side (run by {@link WORKER_CODE}). */
export function runResolveWorker(): void {
  const { env, cwd, src, stack, port, sab } = workerData as Data;
  const i32 = new Int32Array(sab);
  const send = (i: number, m: Message) => {
    port.postMessage(m);
    Atomics.store(i32, i, 1);
    Atomics.notify(i32, i);
  };
  // the tests' crash of the worker (its main-thread fallback)
  const crash = env.DQFORM_TEST_WORKER_EXIT;
  const { lazy } = require('./lazy') as typeof import('./lazy');
  const desired = require('./desired') as typeof import('./desired');
  let prepared: import('./desired').PreparedStack;
  try {
    const io = { env, cwd, err: () => undefined, out: () => undefined, isTty: false } as unknown as import('./command').Io;
    if (crash === 'start') process.exit(3);
    prepared = lazy.runtime().prepareStack(io, src, stack);
    const head = desired.stackHeadOf(prepared);
    if (!head) throw new Error('no head');
    send(0, { type: 'head', head });
    if (crash === 'hash') process.exit(3);
    send(1, { type: 'hash', hash: prepared.manifestHash() });
  } catch {
    send(0, { type: 'failed' });
    port.close();
    return;
  }
  port.once('message', ({ workspace }: { workspace: string }) => {
    if (crash === 'resolve') process.exit(3);
    let body: string | undefined;
    try {
      body = desired.cachedBodyOf(prepared.resolve(workspace));
    } catch {
      body = undefined;
    }
    send(2, { type: 'resolution', body });
    port.close();
  });
}
