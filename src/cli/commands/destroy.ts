/**
 * `dqform destroy`: plans the deletion of everything the namespace owns, shows it, asks, applies
 * (apply of a destroy plan: src/cli/commands/apply.ts).
 */
import type { Command } from 'commander';
import type { CommandContext, CommandModule, RenderFlags, StacksOptions } from '../command';
import { DEFAULT_MAX_DELETES, DEFAULT_MAX_EFFECT_DELETES } from '../../engine/limits';
import { allStacks, noColor, noSynth, showUnmanaged, sourceFlags, targetFlag, wholeNumber } from '../flags';
import { UsageError } from '../usage-error';
import { applyCommand, DESTROY_WORDS } from './apply';

/** `dqform destroy`: apply's flags and guards without a plan file, with --target. */
export interface DestroyOptions extends StacksOptions, RenderFlags {
  /** Retire this namespace, which no code declares any more (nothing is declared for it). */
  namespace?: string;
  autoApprove?: boolean;
  maxDeletes?: number;
  maxEffectDeletes?: number;
  allowUnpreviewed?: boolean;
  target?: string[];
}

/** `dqform destroy`: plans the deletion of everything the namespace owns, shows it, asks, applies. */
async function run(ctx: CommandContext, o: DestroyOptions): Promise<number> {
  if (o.namespace !== undefined && (o.allStacks || o.stack || o.target?.length)) {
    throw new UsageError('--namespace retires one namespace no code declares: it cannot be given with --all-stacks, --stack or --target');
  }
  const words = o.namespace === undefined ? DESTROY_WORDS : { ...DESTROY_WORDS, reviewed: 'Run it on a terminal to see the plan and confirm, or pass --auto-approve.' };
  return applyCommand(ctx, undefined, { ...o, destroy: true }, words);
}

function define(program: Command): Command {
  return showUnmanaged(noColor(targetFlag(
    allStacks(noSynth(sourceFlags(program.command('destroy').description('delete everything the namespace owns (plans it, then asks)'))))
      .option('--namespace <NS>', 'retire namespace NS, which no code declares any more: delete everything it owns (on DQ_BASE_URL/DQ_REGION, with DQ_CLIENT_ID/DQ_CLIENT_SECRET)')
      .option('--auto-approve', 'destroy without asking')
      .option('--max-deletes <N>', `refuse to destroy more than N objects (default ${DEFAULT_MAX_DELETES}: a namespace of more needs it)`, wholeNumber('--max-deletes'))
      .option('--max-effect-deletes <N>', `refuse when the platform would delete more than N monitors, SQL tests and cascaded objects with it (default ${DEFAULT_MAX_EFFECT_DELETES})`, wholeNumber('--max-effect-deletes'))
      .option('--allow-unpreviewed', "destroy rules whose effects are unknown (the platform's delete preview failed)"),
  )))
    .addHelpText(
      'after',
      "\nPlans the deletion of every object the namespace owns (configId = namespace, or an id carrying the\nnamespace's tag; never objects of another namespace or made in the UI), prints it and asks on a\nTTY; without a TTY, --auto-approve is required. The guards of apply hold (--max-deletes,\n--max-effect-deletes, --allow-unpreviewed), and lifecycle.preventDestroy makes it an error.\nTo review first: dqform plan --destroy --out destroy.json, then dqform apply --destroy destroy.json.\n--namespace NS retires a namespace no code declares any more (refused while a stack declares it).\nExample: dqform destroy --max-deletes 50\nExample: dqform destroy --namespace shop-staging",
    );
}

export const command: CommandModule = { define, run };
