/**
 * Terraform's commands that dqform does not have, each with what to use instead (issue 26): a
 * user with Terraform's habits gets an answer, not a bare "unknown command". Exit 2, a usage
 * answer. Data only: main.ts reads it before any command module is loaded.
 */

/** What to use instead of a Terraform command, by its name (and `state`'s subcommands by theirs). */
export const TERRAFORM_VERBS: Readonly<Record<string, string>> = {
  refresh: 'dqform keeps no state, so there is nothing to refresh: dqform plan --refresh-only (or dqform drift, exit 2 on drift) shows how live state differs from the code.',
  taint: 'dqform has no taint marks: plan the replacement with dqform plan --replace ADDRESS --out plan.json, then dqform apply --replace ADDRESS plan.json.',
  untaint: 'nothing to do: dqform keeps no taint marks (a --replace applies to one plan only).',
  init: 'nothing to do: dqform keeps no state and needs no plugins; run dqform synth.',
  fmt: 'dqform has no formatter: format the CDKTF code with your formatter (prettier); YAML workspaces need nothing.',
  workspace: 'dqform has no workspaces: an environment is a namespace, declared by a stack of its own (docs/environments.md).',
  console: 'dqform has no console: dqform show PLANFILE prints a saved plan, dqform list what a namespace manages.',
  providers: 'dqform has no providers: it talks to the platform itself (dqform version prints its version).',
  graph: 'dqform has no graph: dqform validate checks the references between objects, dqform plan shows the changes they bring.',
  login: 'dqform has no login: credentials come from the environment (DQ_CLIENT_ID, DQ_CLIENT_SECRET; docs/environments.md).',
  logout: 'dqform has no login: credentials come from the environment (DQ_CLIENT_ID, DQ_CLIENT_SECRET; docs/environments.md).',
  'force-unlock': 'nothing to do: dqform keeps no state, so there is no lock to release.',
};

/** `terraform state <subcommand>`. */
export const TERRAFORM_STATE_VERBS: Readonly<Record<string, string>> = {
  list: 'dqform keeps no state: dqform list shows what the namespace manages, read from live (dqform output: the ids of the code\'s objects).',
  show: 'dqform keeps no state: dqform list shows what the namespace manages, read from live (dqform list --json for every field it prints).',
  rm: 'dqform keeps no state: to stop managing an object without deleting it, replace it in the code by a removed block with destroy: false (stack.removed("ADDRESS", { destroy: false })).',
  mv: 'dqform keeps no state: an object is found by its name in the namespace, so moving it in the code needs nothing more.',
  pull: 'dqform keeps no state: live is the state; dqform list shows what the namespace manages.',
  push: 'dqform keeps no state: live is the state; dqform list shows what the namespace manages.',
};

/**
 * The answer for a command line that starts with a Terraform command dqform does not have, or
 * undefined (a dqform command, or a command nobody has: commander's "unknown command").
 */
export function terraformVerbAnswer(argv: readonly string[], known: (verb: string) => boolean): string | undefined {
  const verb = argv[0] === 'help' ? argv[1] : argv[0];
  if (verb === undefined || known(verb)) return undefined;
  if (verb === 'state') {
    const sub = (argv[0] === 'help' ? argv[2] : argv[1]) ?? '';
    return Object.hasOwn(TERRAFORM_STATE_VERBS, sub)
      ? `dqform has no "state ${sub}": ${TERRAFORM_STATE_VERBS[sub]}`
      : `dqform has no "state"${sub ? ` ${sub}` : ''}: dqform keeps no state; live is the state. dqform list shows what the namespace manages, dqform output the ids of the code's objects.`;
  }
  return Object.hasOwn(TERRAFORM_VERBS, verb) ? `dqform has no "${verb}": ${TERRAFORM_VERBS[verb]}` : undefined;
}
