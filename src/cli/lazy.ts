/**
 * The modules a command loads when its action runs, each on first use (issue 15: `dqform
 * --version` and `help` load none of them; `validate` loads no client, no applier and no
 * renderer). The one way src/cli loads a module lazily: `lazy.render().renderText(...)`.
 * require, not import(): bin/dqform.js runs the sources through tsx's CommonJS hook. An error can
 * only be an instance of a class whose module is loaded, so error checks load them on the error
 * path only.
 */
export const lazy = {
  /** What the commands share: sources, stacks, clients, diagnostics (loads zod and the manifest loader). */
  runtime: () => require('./runtime') as typeof import('./runtime'),
  render: () => require('./render') as typeof import('./render'),
  applyView: () => require('./apply-view') as typeof import('./apply-view'),
  jsonStream: () => require('./json-stream') as typeof import('./json-stream'),
  synth: () => require('./synth') as typeof import('./synth'),
  client: () => require('../client') as typeof import('../client'),
  manifest: () => require('../engine/manifest') as typeof import('../engine/manifest'),
  resolve: () => require('../engine/resolve') as typeof import('../engine/resolve'),
  keys: () => require('../engine/keys') as typeof import('../engine/keys'),
  engineImport: () => require('../engine/import') as typeof import('../engine/import'),
  yaml: () => require('../engine/yaml') as typeof import('../engine/yaml'),
  planFile: () => require('../plan/file') as typeof import('../plan/file'),
  planJson: () => require('../plan/json') as typeof import('../plan/json'),
  applier: () => require('../engine/applier') as typeof import('../engine/applier'),
  bind: () => require('../engine/bind') as typeof import('../engine/bind'),
  planner: () => require('../engine/planner') as typeof import('../engine/planner'),
  reconcile: () => require('../engine/reconcile') as typeof import('../engine/reconcile'),
  normalise: () => require('../kinds/shared/normalise') as typeof import('../kinds/shared/normalise'),
  kinds: () => require('../kinds/index') as typeof import('../kinds/index'),
  modes: () => require('../engine/modes') as typeof import('../engine/modes'),
  list: () => require('../engine/list') as typeof import('../engine/list'),
  unknownFields: () => require('../engine/unknown-fields') as typeof import('../engine/unknown-fields'),
  emulator: () => require('../emulator') as typeof import('../emulator'),
};
