/**
 * `dqform list`: what the namespace manages, read from live (Terraform's `state list`; dqform
 * keeps no state, live is the state): address, kind, id and title, one object a line, sorted by
 * address. Computed by the engine (src/engine/list.ts) from a refresh-only plan: nothing previewed,
 * nothing written.
 */
import type { Command } from 'commander';
import type { CommandContext, CommandModule, StacksOptions } from '../command';
import type { ManagedObject } from '../../../schemas/model/listing';
import type { PlanRequest } from '../../../schemas/model/plan';
import { lazy } from '../lazy';
import { allStacks, noSynth, sourceFlags } from '../flags';
import { UsageError } from '../usage-error';

export interface ListOptions extends StacksOptions {
  json?: boolean;
  kind?: string;
}

/** Read from live, proposing nothing (no effect previews). */
export const READ_ONLY: PlanRequest = { destroy: false, refreshOnly: true, targets: [], replace: [] };

/** `--kind alert` or `--kind dq_alert`: the kind without `dq_`; anything else is a usage error with a "did you mean". */
export function kindFlag(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  const kinds = lazy.list().KINDS_LISTED;
  const k = lazy.list().kindOfType(v.trim());
  if (kinds.includes(k)) return k;
  const guess = lazy.unknownFields().closest(k, kinds);
  throw new UsageError(`--kind "${v}" is not a dqform kind${guess ? `; did you mean ${guess}?` : ''} (kinds: ${kinds.join(', ')})`);
}

/** One object a line: address, kind, id, title, in columns. */
export function listLines(objects: readonly ManagedObject[]): string[] {
  const w = (f: (o: ManagedObject) => string) => Math.max(0, ...objects.map((o) => f(o).length));
  const [wa, wk, wi] = [w((o) => o.address), w((o) => o.kind), w((o) => o.id)];
  return objects.map((o) => `${o.address.padEnd(wa)}  ${o.kind.padEnd(wk)}  ${o.title ? `${o.id.padEnd(wi)}  ${JSON.stringify(o.title)}` : o.id}${o.declared ? '' : '  (not in the code: apply deletes it)'}`);
}

async function run({ io }: CommandContext, o: ListOptions): Promise<number> {
  const kind = kindFlag(o.kind);
  const all: ManagedObject[] = [];
  const code = await lazy.runtime().overPlans(io, o, READ_ONLY, (p) => {
    const objects = lazy.list().managedObjects(p, kind);
    all.push(...objects);
    const what = `${objects.length} object(s)${kind ? ` of kind ${kind}` : ''}`;
    if (!o.json) {
      if (o.allStacks) io.out(`Stack ${p.stack} (namespace "${p.namespace}"): ${what}`);
      for (const l of listLines(objects)) io.out(l);
      if (!o.allStacks && objects.length === 0) io.err(`Namespace "${p.namespace}" manages no objects${kind ? ` of kind ${kind}` : ''}.`);
    }
    return { stack: p.stack, code: 0, line: what };
  });
  if (code === undefined) return 1;
  if (o.json) io.out(lazy.keys().stableStringify(all, 2));
  return code;
}

function define(program: Command): Command {
  return allStacks(noSynth(sourceFlags(program.command('list').description('list what the namespace manages, read from live: address, kind, id, title'))))
    .option('--kind <KIND>', 'only objects of this kind (alert, sql_test, owner, ...; dq_alert works too)')
    .option('--json', 'print a JSON array of the objects (address, kind, id, title, declared, stack, namespace)')
    .addHelpText('after', "\nRead-only (Terraform's state list: dqform keeps no state, live is the state). Sorted by address; an object\nthe code no longer declares is listed by the address the plan gives it (dq_alert[\"shop.old\"]).\nExit 0, 1 on error.\nExample: dqform list --kind alert --json");
}

export const command: CommandModule = { define, run };
