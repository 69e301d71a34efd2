/**
 * Option values and the flag groups commands share (one line each). Loads commander only: the
 * address check loads the engine's modes module when a flag is given.
 */
import { Option, type Command } from 'commander';
import { UsageError } from './usage-error';
import { lazy } from './lazy';
import { isFamily } from '../../schemas/tools/errors';
import type { PlanFormat } from './command';

// ---- option values ----

/** A whole number >= 0 (`--max-deletes 3`); anything else is a usage error. */
export const wholeNumber =
  (flag: string) =>
  (v: string): number => {
    if (!/^\d+$/.test(v.trim())) throw new UsageError(`${flag} takes a whole number, got "${v}"`);
    return Number(v);
  };

/** One of a fixed set of words (`--format markdown`). */
export const oneOf =
  <T extends string>(flag: string, values: readonly T[]) =>
  (v: string): T => {
    if (!(values as readonly string[]).includes(v)) throw new UsageError(`${flag} must be ${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}; got "${v}"`);
    return v as T;
  };

export const PLAN_FORMATS: readonly PlanFormat[] = ['text', 'markdown', 'json'];

/** A repeatable resource address (`--target A --target B`), checked and in its canonical form. */
export const addresses =
  (flag: string) =>
  (v: string, previous: string[] | undefined): string[] => {
    try {
      return [...(previous ?? []), lazy.modes().canonicalAddress(v)];
    } catch (e) {
      // the engine's AddressError (family usage): the flag and the pointer to the help added
      if (!isFamily(e, ['usage'])) throw e;
      throw new UsageError(`${flag} ${e.message}`);
    }
  };

// ---- shared flag groups (one line each) ----

/** Where the desired state comes from. */
export function sourceFlags(c: Command): Command {
  return c
    .option('--dir <DIR>', 'synth output directory to read (default cdktf.out)')
    .option('--file <FILE>', 'a YAML workspace file instead of synth output (./dqform.yaml is used when there is no cdktf.out)')
    .option('--stack <NAME>', 'the stack to use when the synth output holds several')
    .option('--no-cache', 'resolve the desired state afresh, without the resolution cache (DQFORM_NO_CACHE=1 does the same; docs/configuration.md)');
}

/**
 * Accepted and ignored: only `dqform synth` runs the app (plan, apply, drift, destroy and validate
 * stop when the app is newer than its synth output). Kept so that existing scripts still parse.
 */
export const noSynth = (c: Command): Command => c.option('--no-synth', 'accepted for compatibility and ignored: this command never runs the app (run dqform synth first)');

/** Every stack in turn, one combined summary and exit code. */
export const allStacks = (c: Command): Command =>
  c.addOption(new Option('--all-stacks', 'every synthesised stack in turn, with one combined summary and exit code').conflicts('stack'));

export const noColor = (c: Command): Command => c.option('--no-color', 'no colour, even on a terminal or with FORCE_COLOR (NO_COLOR=1 does the same)');

/** The objects not managed here are counted (by who manages them) unless this is given. */
export const showUnmanaged = (c: Command): Command => c.option('--show-unmanaged', 'list every object not managed here (by default they are counted, by who manages them)');

/** --target (with what it depends on), the flag of plan, apply and destroy. */
export const targetFlag = (c: Command): Command =>
  c.option('--target <ADDR>', 'plan only this object and what it depends on (repeatable; a partial plan, for exceptional cases): dq_alert.orders, or dq_alert["shop.old"] as the plan prints it', addresses('--target'));

/** Terraform's mode flags of plan and apply: --destroy, --refresh-only, --target, --replace. */
export const modeFlags = (c: Command): Command =>
  targetFlag(c)
    .option('--replace <ADDR>', 'destroy this object and create it anew, even if it has not changed (repeatable)', addresses('--replace'))
    .addOption(new Option('--refresh-only', 'propose nothing: show how live state differs from the code (dqform keeps no state, so there is nothing to record)').conflicts(['destroy', 'replace']))
    .addOption(new Option('--destroy', 'plan the deletion of everything the namespace owns (as dqform destroy)').conflicts('replace'));
