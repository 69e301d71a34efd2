/**
 * The platform emulator: `startEmulator` and `runEmulatorCli`, plus the plug-in types route
 * modules use (see README.md in this directory).
 */
import { DEMO_ADMIN, DEMO_GOVERNANCE, DEMO_READER, DEMO_SECRET, DEMO_WORKSPACE } from './auth';
import { type EmulatorSeed, type WireMode } from './app';
import { exposureWarning, startEmulator, type RunningEmulator } from './server';

export { startEmulator, discoverRouteModules, exposureWarning, hostHeaderName, isLoopbackName } from './server';
export type { RunningEmulator, StartEmulatorOptions } from './server';
export { EmulatorApp, HttpResponse, authorize, wireModeOf } from './app';
export type {
  EmulatorSeed,
  HttpMethod,
  Principal,
  RequestCounters,
  RouteContext,
  RouteHandler,
  RouteModule,
  RouteOptions,
  RouteSpec,
  RouteTable,
  SeedContext,
  SeedHook,
  WireMode,
} from './app';
export * from './errors';
export { Collection, Store, EmulatorStore, checkEtag, etagMatches, etagOf, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './store';
export type { Page, Stored } from './store';
export { DEMO_ADMIN, DEMO_GOVERNANCE, DEMO_READER, DEMO_SECRET, DEMO_WORKSPACE, GOVERNANCE_SCOPES, READ_SCOPES } from './auth';
export type { FaultConfig, FaultRule, FaultType } from './faults';

/** Parsed `dqform emulator` arguments. */
export interface EmulatorCliArgs {
  port: number;
  host: string;
  dataFile: string | undefined;
  seed: EmulatorSeed;
  seedSize: number | undefined;
  /** `--marshal omit|emit-unpopulated` (undefined: env DQ_EMULATOR_MARSHAL, else omit). */
  marshal: WireMode['marshal'] | undefined;
  /** `--enums names|numbers` (undefined: env DQ_EMULATOR_ENUMS, else names). */
  enums: WireMode['enums'] | undefined;
  /** Serve the gRPC preview calls (`--no-grpc` turns them off). */
  grpc: boolean;
  /** `--grpc-port N`; undefined = the REST port + 1 (a free port with `--port 0`). */
  grpcPort: number | undefined;
}

/** The usage line of `dqform emulator`. */
export const EMULATOR_USAGE =
  'dqform emulator [--port N] [--host H] [--grpc-port N | --no-grpc] [--data FILE] [--seed demo|empty] [--seed-size N] [--marshal omit|emit-unpopulated] [--enums names|numbers]';

/** How a flag's handler reads its value (named after the flag in every error). */
interface FlagReader {
  /** The flag's value (`--x=v` or the next argument). */
  value(): string;
  /** A non-negative integer value. */
  int(): number;
  /** A port number (an integer up to 65535). */
  port(): number;
  /** One of two words. */
  choice<T extends string>(a: T, b: T): T;
  /** Refuses a value (`--flag=v`). */
  none(): void;
}

/** Every flag of `dqform emulator` and what it sets. */
const EMULATOR_FLAGS: Readonly<Record<string, (out: EmulatorCliArgs, f: FlagReader) => void>> = {
  '--port': (out, f) => (out.port = f.port()),
  '--host': (out, f) => (out.host = f.value()),
  '--data': (out, f) => (out.dataFile = f.value()),
  '--seed': (out, f) => (out.seed = f.choice('demo', 'empty')),
  '--seed-size': (out, f) => (out.seedSize = f.int()),
  '--marshal': (out, f) => (out.marshal = f.choice('omit', 'emit-unpopulated')),
  '--enums': (out, f) => (out.enums = f.choice('names', 'numbers')),
  '--grpc-port': (out, f) => (out.grpcPort = f.port()),
  '--no-grpc': (out, f) => {
    f.none();
    out.grpc = false;
  },
};

/** Parses `dqform emulator`'s arguments ({@link EMULATOR_USAGE}); throws on a bad argument. */
export function parseEmulatorArgs(argv: readonly string[]): EmulatorCliArgs {
  const out: EmulatorCliArgs = { port: 8787, host: '127.0.0.1', dataFile: undefined, seed: 'demo', seedSize: undefined, marshal: undefined, enums: undefined, grpc: true, grpcPort: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const eq = a.indexOf('=');
    const name = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    const value = (): string => {
      if (a.startsWith('--') && eq > 0) return a.slice(eq + 1);
      const v = argv[++i];
      if (v === undefined) throw new Error(`${name} needs a value`);
      return v;
    };
    const int = (): number => {
      const v = value();
      if (!/^\d+$/.test(v)) throw new Error(`${name} takes a non-negative integer, got "${v}"`);
      return Number(v);
    };
    const reader: FlagReader = {
      value,
      int,
      port: () => {
        const n = int();
        if (n > 65535) throw new Error(`${name} must be at most 65535`);
        return n;
      },
      choice: (x, y) => {
        const v = value();
        if (v !== x && v !== y) throw new Error(`${name} takes ${x} or ${y}, got "${v}"`);
        return v as typeof x;
      },
      none: () => {
        if (a !== name) throw new Error(`${name} takes no value`);
      },
    };
    const set = Object.hasOwn(EMULATOR_FLAGS, name) ? EMULATOR_FLAGS[name] : undefined;
    if (!set) throw new Error(`unknown argument "${a}" (usage: ${EMULATOR_USAGE})`);
    set(out, reader);
  }
  if (!out.grpc && out.grpcPort !== undefined) throw new Error('--grpc-port and --no-grpc contradict each other');
  if (out.grpc && out.grpcPort === undefined) out.grpcPort = out.port === 0 ? 0 : out.port + 1;
  if (out.grpc && out.grpcPort !== 0 && out.grpcPort === out.port) throw new Error(`--grpc-port must differ from --port (${out.port})`);
  if (out.grpcPort !== undefined && out.grpcPort > 65535) throw new Error(`the gRPC port would be ${out.grpcPort}: give --grpc-port`);
  return out;
}

/**
 * `dqform emulator`: starts the emulator, prints its base URL and the (public) demo
 * credentials, and stops cleanly on SIGINT/SIGTERM. Resolves with the exit code once stopped.
 * `onStarted` (tests) receives the running emulator; `signals` may be replaced for tests.
 */
export async function runEmulatorCli(
  argv: readonly string[],
  io: {
    out?: (line: string) => void;
    err?: (line: string) => void;
    onStarted?: (emu: RunningEmulator) => void;
    signals?: NodeJS.EventEmitter;
  } = {},
): Promise<number> {
  const out = io.out ?? ((l: string) => process.stdout.write(`${l}\n`));
  const err = io.err ?? ((l: string) => process.stderr.write(`${l}\n`));
  let args: EmulatorCliArgs;
  try {
    args = parseEmulatorArgs(argv);
  } catch (e) {
    err(`error: ${(e as Error).message}`);
    return 1;
  }
  let emu: RunningEmulator;
  try {
    emu = await startEmulator({ port: args.port, host: args.host, dataFile: args.dataFile, seed: args.seed, seedSize: args.seedSize, marshal: args.marshal, enums: args.enums, grpc: args.grpc, grpcPort: args.grpcPort });
  } catch (e) {
    err(`error: could not start the emulator: ${(e as Error).message}`);
    return 1;
  }
  const exposed = exposureWarning(args.host);
  if (exposed) err(exposed);
  out(`dqform emulator listening on ${emu.url}`);
  out(`  workspace:   ${DEMO_WORKSPACE}`);
  out(`  admin:       DQ_CLIENT_ID=${DEMO_ADMIN} DQ_CLIENT_SECRET=${DEMO_SECRET} (every scope)`);
  out(`  read-only:   DQ_CLIENT_ID=${DEMO_READER} DQ_CLIENT_SECRET=${DEMO_SECRET} (per-service read scopes + SCOPE_MCP_READ)`);
  out(`  governance:  DQ_CLIENT_ID=${DEMO_GOVERNANCE} DQ_CLIENT_SECRET=${DEMO_SECRET} (domains and owners: edit; data products, ownerships: read)`);
  out(`  base URL:    DQ_BASE_URL=${emu.url}`);
  out(
    emu.grpcEndpoint
      ? `  gRPC:        DQ_GRPC_ENDPOINT=${emu.grpcEndpoint} (rule previews; listening on ${emu.grpcEndpoint})`
      : '  gRPC:        off (--no-grpc): previews of rules REST cannot carry say "effects unknown"',
  );
  out(`  state:       ${args.dataFile ? args.dataFile : 'in memory (use --data FILE to keep it)'}; seed ${emu.app.seed}`);
  out(`  responses:   --marshal ${emu.app.wire.marshal} --enums ${emu.app.wire.enums}`);
  out('Press Ctrl-C to stop.');
  io.onStarted?.(emu);
  const signals = io.signals ?? process;
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      signals.off('SIGINT', stop);
      signals.off('SIGTERM', stop);
      resolve();
    };
    signals.on('SIGINT', stop);
    signals.on('SIGTERM', stop);
  });
  out('stopping...');
  await emu.close();
  out('stopped');
  return 0;
}
