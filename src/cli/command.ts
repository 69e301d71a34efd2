/**
 * What a command module (src/cli/commands/<verb>.ts) is, and the types the commands share. Type
 * declarations only: main.ts and every command module import this without loading anything.
 */
import type { Command } from 'commander';

/** Where a command prints and what it knows of its surroundings. */
export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  isTty: boolean;
  /** `-input=false`: ask no question, even on a terminal (a command that would ask one fails with the flag to use instead). */
  noInput?: boolean;
  /** Asks a yes/no question on a TTY. */
  confirm?: (question: string) => Promise<boolean>;
}

/** What a command's action is given besides commander's arguments. */
export interface CommandContext {
  io: Io;
  /** The whole command line (after the Terraform spellings are rewritten). */
  argv: readonly string[];
  /** The program the command is part of (for `help`). */
  program: Command;
  /** The package version. */
  version: string;
}

/**
 * One command: its commander definition (name, description, arguments, options, help text) and
 * its action. A command module loads nothing heavy when it is imported (main.ts imports it to
 * parse the arguments or print the help): its action loads what it needs (src/cli/lazy.ts).
 */
export interface CommandModule {
  /** Adds the command to `program` (`program.command(name)...`) and returns it, without an action. */
  define: (program: Command, version: string) => Command;
  /** Runs it with commander's action arguments (positional arguments, then the options); the exit code. */
  run: (ctx: CommandContext, ...args: never[]) => Promise<number>;
  /** A server that runs until stopped (zod keeps its generated parsers: see main.ts). */
  longRunning?: boolean;
  /** Its action loads no schema (version, help): zod is not set up, so not loaded, for it. */
  noZod?: boolean;
}

/** Where the desired state comes from (validate, plan, apply, drift). */
export interface SourceOptions {
  /** Synth output directory (default: cdktf.json "output", else cdktf.out). */
  dir?: string;
  /** A YAML workspace file. */
  file?: string;
  stack?: string;
  /** --no-synth: accepted and ignored (only `dqform synth` runs the app). */
  synth?: boolean;
  /** false with --no-cache: resolve without the resolution cache (src/cli/desired.ts). */
  cache?: boolean;
}

/** Commands that can run over every stack (validate, plan, drift). */
export interface StacksOptions extends SourceOptions {
  allStacks?: boolean;
}

/** Output options of commands that print a plan. */
export interface RenderFlags {
  /** false with --no-color. */
  color?: boolean;
  /** --show-unmanaged: list every object not managed here instead of counting them. */
  showUnmanaged?: boolean;
}

/** Terraform's mode flags of plan and apply (recorded in the plan's `options`). */
export interface ModeFlags {
  /** --target, canonical addresses (repeatable). */
  target?: string[];
  /** --replace, canonical addresses (repeatable). */
  replace?: string[];
  refreshOnly?: boolean;
  destroy?: boolean;
}

export type PlanFormat = 'text' | 'markdown' | 'json';
