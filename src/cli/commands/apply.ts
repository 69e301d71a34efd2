/**
 * `dqform apply [PLANFILE]`: applies a saved plan, or plans then asks; `dqform destroy` is apply of a
 * destroy plan.
 */
import * as fs from 'node:fs';
import type { Command } from 'commander';
import type { CommandContext, CommandModule, Io, ModeFlags, RenderFlags, StacksOptions } from '../command';
import { lazy } from '../lazy';
import type { PlatformClient } from '../../client';
import type { Manifest } from '../../../schemas/model/manifest';
import type { Plan, PlanRequest } from '../../../schemas/model/plan';
import type { PreparedStack, Source, StackOutcome } from '../runtime';
import type { StackPlatformFields } from '../desired';
import { DEFAULT_MAX_DELETES, DEFAULT_MAX_EFFECT_DELETES } from '../../engine/limits';
import { allStacks, modeFlags, noColor, noSynth, showUnmanaged, sourceFlags, wholeNumber } from '../flags';
import { UsageError } from '../usage-error';
import { isFamily } from '../../../schemas/tools/errors';

export interface ApplyOptions extends StacksOptions, RenderFlags, ModeFlags {
  /** destroy --namespace: retire a namespace no code declares. */
  namespace?: string;
  autoApprove?: boolean;
  maxDeletes?: number;
  maxEffectDeletes?: number;
  allowUnpreviewed?: boolean;
  /** One JSON object a line on stdout: the plan, then the applier's events (docs/json-stream.md). */
  json?: boolean;
}

/** The words of apply and of destroy (which is apply of a destroy plan). */
export interface ApplyWords {
  what: 'Apply' | 'Destroy';
  command: string;
  question: (p: Plan) => string;
  /** How to review before applying, when there is no terminal to ask on. */
  reviewed: string;
}
const APPLY_WORDS: ApplyWords = {
  what: 'Apply',
  command: 'apply',
  question: () => 'Apply these changes? Only "yes" is accepted: ',
  reviewed: 'Apply a reviewed plan file (dqform plan --out plan.json; dqform apply plan.json), or pass --auto-approve.',
};
export const DESTROY_WORDS: ApplyWords = {
  what: 'Destroy',
  command: 'destroy',
  question: (p) => `Destroy the ${p.changes.filter((c) => c.action === 'delete').length} object(s) above? There is no undo. Only "yes" is accepted: `,
  reviewed: 'Review a saved destroy plan (dqform plan --destroy --out destroy.json; dqform apply --destroy destroy.json), or pass --auto-approve.',
};

/** What apply says instead of writing, for a refresh-only plan. */
const REFRESH_ONLY_APPLY =
  'Nothing to apply: this is a refresh-only plan, and dqform keeps no state file to record live state in, so a refresh-only apply writes nothing. To make live match the code, run dqform plan and apply.';

/** How a plan's mode differs from the mode the command line states (empty: the same). */
function modeDifferences(saved: PlanRequest, given: PlanRequest): string[] {
  const out: string[] = [];
  if (given.refreshOnly) out.push('--refresh-only given, the plan is not a refresh-only plan');
  if (saved.destroy !== given.destroy) out.push(saved.destroy ? '--destroy missing' : '--destroy given, the plan is not a destroy plan');
  const diff = (flag: string, a: string[], b: string[]) => {
    const missing = a.filter((x) => !b.includes(x));
    const extra = b.filter((x) => !a.includes(x));
    if (missing.length) out.push(`${flag} ${missing.join(', ')} missing`);
    if (extra.length) out.push(`${flag} ${extra.join(', ')} not in the plan`);
  };
  diff('--target', saved.targets, given.targets);
  diff('--replace', saved.replace, given.replace);
  return out;
}

function describeMode(r: PlanRequest): string {
  const parts = [r.destroy && 'destroy', r.targets.length && `--target ${r.targets.join(', ')}`, r.replace.length && `--replace ${r.replace.join(', ')}`].filter(Boolean);
  return parts.length ? parts.join(', ') : 'no mode flags (a normal plan)';
}

/** The flags that state a plan's mode, each followed by a space. */
function modeFlagsOf(r: PlanRequest): string {
  return [r.destroy ? ['--destroy'] : [], r.targets.map((t) => `--target '${t}'`), r.replace.map((t) => `--replace '${t}'`)].flat().map((f) => `${f} `).join('');
}

/**
 * The saved plan `apply PLANFILE` applies, checked as it is before the code is even read (no
 * synth, no network): or the exit code when there is nothing more to do (unreadable: 1; a
 * refresh-only plan: 0).
 */
function readSavedPlan(io: Io, file: string, o: ApplyOptions, request: PlanRequest): Plan | number {
  const saved = lazy.runtime().readPlanFile(io, file);
  if (!saved) return 1;
  if (saved.options.refreshOnly) {
    if (request.destroy || request.targets.length || request.replace.length) {
      throw new UsageError(`${file} is a refresh-only plan: it writes nothing, and --destroy, --target and --replace do not apply to it.`);
    }
    (o.json ? io.err : io.out)(REFRESH_ONLY_APPLY);
    return 0;
  }
  // The file records its own mode, and apply plans again in that mode; so that an edited file
  // cannot turn a reviewed plan into another kind (a normal plan into a destroy, a replace
  // added), the command line must state the same mode: nothing for a normal plan.
  const differs = modeDifferences(saved.options, request);
  if (differs.length) {
    throw new UsageError(
      `${file} was made with ${describeMode(saved.options)}, and this apply states ${describeMode(request)} (${differs.join('; ')}). ` +
        `Apply restates the mode of a saved plan so that an edited file cannot change what was reviewed: run dqform apply ${modeFlagsOf(saved.options)}${file} if that is the plan you reviewed (dqform show ${file} prints it).`,
    );
  }
  // refused as it is (errors, guards) before the code is even read: no synth, no network
  lazy.applier().preflight(saved, o);
  return saved;
}

export async function applyCommand({ io, version }: CommandContext, file: string | undefined, o: ApplyOptions, words: ApplyWords = APPLY_WORDS): Promise<number> {
  const { StackClients, planManifest, prepareSource, prepareStack, printDiagnostics, progressIntervalMs, requestOf, textOf } = lazy.runtime();
  const every = progressIntervalMs(io);
  const request = requestOf(o);
  let saved: Plan | undefined;
  if (o.json && o.allStacks) throw new UsageError('--json streams one apply: apply the stacks one at a time (dqform apply --stack NAME --json), or plan them all with dqform plan --all-stacks --json');
  const stream = o.json ? new (lazy.jsonStream().JsonStream)(io.out) : undefined;
  stream?.version(version);
  if (file && o.allStacks) throw new UsageError(`--all-stacks plans and applies every stack; it cannot be given with a PLANFILE (${file}). Apply saved plans one at a time: dqform apply plan-<stack>.json`);
  if (file) {
    const read = readSavedPlan(io, file, o, request);
    if (typeof read === 'number') return read;
    saved = read;
  } else if ((!io.isTty || io.noInput || stream) && !o.autoApprove && !request.refreshOnly) {
    io.err(`Error: ${words.command} needs confirmation, and ${io.noInput ? '-input=false forbids asking' : stream ? '--json asks nothing' : 'there is no terminal to ask on'}.\n  ${words.reviewed}`);
    return 1;
  }
  // A saved plan is checked against the desired state it was made from, read from the same
  // place plan reads it (synthesised first when the app changed): see applyReviewed.
  const src = prepareSource(io, o);
  if (!src) return 1;
  if (o.allStacks) return applyAllStacks(io, src, o, request, words, every);
  const manifest = saved ? savedPlanManifest(io, src, o.stack ?? saved.stack, file!) : o.namespace ? retiredNamespace(io, src, o.namespace) : undefined;
  const clients = new StackClients(io);
  try {
    const opts = applyOptions(io, o, every);
    const started = Date.now();
    /** The view of the apply's events: progress, then the report (and a targeted plan's warning). */
    // --json: the plan's lines, then one line per event of the applier
    const onEvent = (p: Plan) => {
      if (!stream) return lazy.applyView().applyView(io, { what: p.options.destroy ? 'Destroy' : words.what, started, targets: p.options.targets });
      stream.plan(p);
      return stream.applyListener();
    };
    if (saved && manifest) {
      const c = clients.for(manifest);
      samePlatform(saved, c, file!);
      // applyReviewed plans again with the saved plan's own options (destroy, targets, replace)
      const r = await lazy.bind().applyReviewed(c, saved, manifest, { ...opts, onEvent: onEvent(saved), onNote: (l) => io.err(`Note: ${l}`) });
      return lazy.applyView().exitCode(r);
    }
    const m = manifest ?? prepareStack(io, src, o.stack);
    const p = await planManifest(io, (x) => clients.for(x), o.namespace ? undefined : src, m, request);
    const failed = p.diagnostics.some((d) => d.severity === 'error');
    const done = failed || request.refreshOnly || !lazy.planner().hasChanges(p);
    if (stream && done) stream.plan(p);
    if (failed) {
      if (!stream) printDiagnostics(io, p.diagnostics);
      return 1;
    }
    if (!stream) io.out(textOf(io, p, o));
    if (request.refreshOnly) {
      (stream ? io.err : io.out)(REFRESH_ONLY_APPLY);
      return 0;
    }
    if (!lazy.planner().hasChanges(p)) return 0;
    if (!o.autoApprove) {
      const ok = io.confirm ? await io.confirm(words.question(p)) : false;
      if (!ok) {
        io.err(`${words.what} cancelled.`);
        return 1;
      }
    }
    const r = await lazy.applier().apply(clients.for(m), p, { ...opts, onEvent: onEvent(p) });
    return lazy.applyView().exitCode(r);
  } finally {
    await clients.close();
  }
}

/** apply's options from the command line's guards. */
function applyOptions(io: Io, o: ApplyOptions, every: number) {
  return {
    maxDeletes: o.maxDeletes,
    maxEffectDeletes: o.maxEffectDeletes,
    allowUnpreviewed: o.allowUnpreviewed,
    onProgress: (l: string) => io.err(l),
    progressIntervalMs: every,
    // secrets' fromEnv variables and relative fromFile paths: from the environment and directory the command was given, as everything else
    env: io.env,
    cwd: io.cwd,
  };
}

/**
 * A saved plan is applied only to the platform it read: refused (nothing written, before any
 * call) when the stack's platform, or DQ_BASE_URL for a stack that names none, now points
 * elsewhere. (The workspace is checked by applyReviewed, from the credentials.)
 */
function samePlatform(saved: Plan, c: PlatformClient, file: string): void {
  const { platformHost } = lazy.runtime();
  const now = platformHost(c);
  if (saved.platform === undefined) {
    throw new (lazy.applier().PlanRefusedError)(
      `${file} does not say which platform it was planned against (made by an older dqform, or edited): nothing was written`,
      `Run dqform plan --out ${file} again and apply that plan.`,
    );
  }
  if (saved.platform !== now) {
    throw new (lazy.applier().PlanRefusedError)(
      `${file} was planned against the platform ${saved.platform} (workspace "${saved.workspace}"), and stack ${saved.stack} now points at ${now}: nothing was written`,
      `Apply it where it was planned (the stack's baseUrl/region, else DQ_BASE_URL/DQ_REGION, as when planning), or run dqform plan against ${now} and apply that plan.`,
    );
  }
}

/**
 * `destroy --namespace NAME`: the desired state of a namespace no code declares any more:
 * nothing. Refused when a stack of the app still declares it on the same platform (destroying it
 * would fight the code: remove the stack first, or destroy that stack); a stack on another
 * platform shares no object with it.
 */
function retiredNamespace(io: Io, src: Source, namespace: string): Manifest {
  const { shown, stackHost } = lazy.runtime();
  if (!/^[a-z0-9][a-z0-9_.-]{0,62}$/.test(namespace)) throw new UsageError(`--namespace "${namespace}" is not a namespace: lower-case letters, digits, "_", "-" and "."; at most 63 characters`);
  const retired: Manifest = { formatVersion: 1, stack: namespace, namespace, resources: [], moved: [], imports: [], removed: [] };
  // the retired namespace is destroyed on DQ_BASE_URL/DQ_REGION's platform: a stack that declares
  // the same namespace on another platform shares no object with it (as siblingStacks says)
  const here = stackHost(io.env, retired);
  for (const m of appStacks(io, src)) {
    if (m.namespace === namespace && stackHost(io.env, m) === here) {
      throw new UsageError(
        `--namespace ${namespace} is declared by stack ${m.stack} (${src.kind === 'yaml' ? shown(io, src.file) : shown(io, src.dir)}): destroy --namespace retires a namespace no code declares. Remove the stack from the app and synth, or destroy the stack itself (dqform destroy --stack ${m.stack}).`,
      );
    }
  }
  return retired;
}

/** The stacks of the app as far as they load (none when there is no synth output or YAML workspace). */
function appStacks(io: Io, src: Source): Manifest[] {
  const { loadStack } = lazy.runtime();
  if (src.kind === 'yaml') return fs.existsSync(src.file) ? [loadStack(io, src, undefined)] : [];
  const out: Manifest[] = [];
  for (const name of lazy.synth().synthesisedStacks(src.dir)) {
    try {
      out.push(loadStack(io, src, name));
    } catch (e) {
      if (!(e instanceof lazy.manifest().ManifestError)) throw e;
    }
  }
  return out;
}

/** Each stack planned and its guards checked, before anything of any stack is written (see {@link applyAllStacks}). */
async function planEveryStack(
  io: Io,
  src: Source,
  stacks: readonly (string | undefined)[],
  clientFor: (m: StackPlatformFields) => PlatformClient,
  o: ApplyOptions,
  request: PlanRequest,
  opts: ReturnType<typeof applyOptions>,
): Promise<{ plans: { plan: Plan; manifest: PreparedStack }[]; failed: StackOutcome[] }> {
  const { prepareStack, planManifest, printDiagnostics, reportError, textOf } = lazy.runtime();
  const plans: { plan: Plan; manifest: PreparedStack }[] = [];
  const failed: StackOutcome[] = [];
  for (const stack of stacks) {
    try {
      const manifest = prepareStack(io, src, stack);
      const plan = await planManifest(io, clientFor, src, manifest, request);
      if (plan.diagnostics.some((d) => d.severity === 'error')) {
        printDiagnostics(io, plan.diagnostics);
        failed.push({ stack: plan.stack, code: 1, line: `${plan.diagnostics.filter((d) => d.severity === 'error').length} error(s): nothing applied` });
        continue;
      }
      io.out(textOf(io, plan, o));
      io.out('');
      lazy.applier().preflight(plan, opts); // the guards, before anything of any stack is written
      plans.push({ plan, manifest });
    } catch (e) {
      if (!isFamily(e, lazy.runtime().STACK_FAILURES)) throw e;
      reportError(io, e);
      failed.push({ stack: stack ?? '?', code: 1, line: 'failed (see the errors above): nothing applied' });
    }
  }
  return { plans, failed };
}

/**
 * `apply --all-stacks`, `destroy --all-stacks`: each stack planned against its own platform,
 * every plan shown, one confirmation listing them all, then each applied in turn (stopping at
 * the first that fails), with one combined summary. Nothing is written when a plan has errors
 * or a guard refuses any of them.
 */
async function applyAllStacks(io: Io, src: Source, o: ApplyOptions, request: PlanRequest, words: ApplyWords, every: number): Promise<number> {
  const { StackClients, reportError, stacksOf, summarise } = lazy.runtime();
  const stacks = stacksOf(io, src, o);
  const clients = new StackClients(io);
  try {
    const opts = applyOptions(io, o, every);
    const { plans, failed } = await planEveryStack(io, src, stacks, (x) => clients.for(x), o, request, opts);
    const line = (p: Plan) => `${p.stack} (namespace "${p.namespace}" on ${p.platform}, workspace "${p.workspace}"): ${lazy.planner().hasChanges(p) ? lazy.render().summaryLine(p) : 'No changes.'}`;
    if (failed.length) {
      io.err(`Error: ${failed.length} of ${stacks.length} stack(s) cannot be ${words.what === 'Destroy' ? 'destroyed' : 'applied'}: nothing was written to any stack.`);
      summarise(io, [...plans.map((x) => ({ stack: x.plan.stack, code: 0, line: 'not applied (another stack failed)' })), ...failed]);
      return 1;
    }
    if (request.refreshOnly) {
      io.out(REFRESH_ONLY_APPLY);
      return 0;
    }
    const todo = plans.filter((x) => lazy.planner().hasChanges(x.plan));
    if (todo.length === 0) {
      summarise(io, plans.map((x) => ({ stack: x.plan.stack, code: 0, line: 'No changes.' })));
      return 0;
    }
    if (!o.autoApprove) {
      io.err(`${words.what} ${todo.length} stack(s):`);
      for (const x of todo) io.err(`  ${line(x.plan)}`);
      const q = words.what === 'Destroy' ? 'Destroy the objects of every stack above? There is no undo. Only "yes" is accepted: ' : 'Apply the changes of every stack above? Only "yes" is accepted: ';
      const ok = io.confirm ? await io.confirm(q) : false;
      if (!ok) {
        io.err(`${words.what} cancelled: nothing was written.`);
        return 1;
      }
    }
    const outcomes: StackOutcome[] = [];
    let stopped = false;
    for (const x of plans) {
      if (!lazy.planner().hasChanges(x.plan)) {
        outcomes.push({ stack: x.plan.stack, code: 0, line: 'No changes.' });
        continue;
      }
      if (stopped) {
        outcomes.push({ stack: x.plan.stack, code: 1, line: 'not attempted (an earlier stack failed)' });
        continue;
      }
      io.out(`Stack ${x.plan.stack}:`);
      const started = Date.now();
      try {
        const r = await lazy.applier().apply(clients.for(x.manifest), x.plan, { ...opts, onEvent: lazy.applyView().applyView(io, { what: words.what, started }) });
        const code = lazy.applyView().exitCode(r);
        outcomes.push({ stack: x.plan.stack, code, line: `${r.applied.length} applied, ${r.failed.length} failed, ${r.skipped.length} not attempted` });
        if (code !== 0) stopped = true;
      } catch (e) {
        if (!isFamily(e, ['api', 'plan-refused'])) throw e;
        reportError(io, e);
        outcomes.push({ stack: x.plan.stack, code: 1, line: 'failed (see the errors above)' });
        stopped = true;
      }
    }
    summarise(io, outcomes);
    return outcomes.some((x) => x.code !== 0) ? 1 : 0;
  } finally {
    await clients.close();
  }
}

/**
 * The desired state a saved plan is checked against: its stack, from the source plan reads.
 * When it cannot be read, the error says that apply needs it (and how to point at it).
 */
function savedPlanManifest(io: Io, src: Source, stack: string, file: string): PreparedStack {
  const { prepareStack, shown } = lazy.runtime();
  try {
    return prepareStack(io, src, stack);
  } catch (e) {
    if (!(e instanceof lazy.manifest().ManifestError)) throw e;
    const where = src.kind === 'yaml' ? shown(io, src.file) : `${shown(io, src.dir)} (stack ${stack})`;
    throw new (lazy.manifest().ManifestError)([
      ...e.diagnostics,
      {
        severity: 'error',
        summary: `apply ${file} checks the saved plan against the desired state it was made from, and cannot read it from ${where}`,
        hint: 'Run apply where plan ran, after dqform synth (or with the same --dir, --file and --stack as plan).',
      },
    ]);
  }
}

function define(program: Command): Command {
  return showUnmanaged(noColor(modeFlags(
    allStacks(noSynth(sourceFlags(program.command('apply').description('apply a saved plan, or plan then ask').argument('[PLANFILE]', "a plan saved by 'dqform plan --out'"))))
      .option('--auto-approve', 'plan and apply without asking (a PLANFILE needs no approval: it was reviewed)')
      .option('--max-deletes <N>', `refuse a plan destroying more than N objects, a replace counting as one (default ${DEFAULT_MAX_DELETES})`, wholeNumber('--max-deletes'))
      .option(
        '--max-effect-deletes <N>',
        `refuse a plan that makes the platform delete more than N monitors, SQL tests and objects deleted with what it deletes (default ${DEFAULT_MAX_EFFECT_DELETES})`,
        wholeNumber('--max-effect-deletes'),
      )
      .option('--allow-unpreviewed', "apply rule changes whose effects are unknown (the platform's preview failed or is missing)")
      .option('--json', "print one JSON object a line, as Terraform's -json: the plan, then each step of the apply (docs/json-stream.md; needs --auto-approve or a PLANFILE)"),
  )))
    .addHelpText(
      'after',
      [
        '',
        'Without PLANFILE: plans (--destroy, --target and --replace as in dqform plan), prints the plan and',
        'asks for confirmation on a TTY; without a TTY, --auto-approve is required.',
        'With PLANFILE: applies exactly that saved plan. Before the first write it plans again from the same',
        'desired state and live state and refuses, writing nothing, unless the changes are the saved ones.',
        'A saved plan records its mode, and apply of that file must state the same mode flags it was made',
        'with (none for a normal plan), so an edited file cannot turn into another kind of plan:',
        '  dqform plan --replace dq_owner.x --out p.json  then  dqform apply --replace dq_owner.x p.json',
        '(dqform show PLANFILE prints the mode). A refresh-only plan writes nothing: dqform keeps no state.',
        'Guards: --max-deletes counts deletes and replaces; --max-effect-deletes counts monitors and SQL',
        "tests that rule changes delete and objects deleted by cascade (an owner's ownerships); a rule change",
        'whose preview failed is refused without --allow-unpreviewed. Nothing is written when one trips.',
        'A rule whose effects are known only after apply (it depends on an object the same plan creates) is',
        'previewed once that object exists; apply stops before it if it would delete, reset or take over',
        'anything.',
      ].join('\n'),
    );
}

export const command: CommandModule = { define, run: (ctx, file: string | undefined, o: ApplyOptions) => applyCommand(ctx, file, o) };
