/**
 * What a command needs of a synth output before it loads a manifest: the stacks it lists
 * ({@link listedStacks}) and the manifest's error ({@link ManifestError}). Re-exported by
 * ./manifest.ts; a module of its own so that a warm run (the resolution cache, src/cli/desired.ts)
 * loads no manifest schema (issue 27, start-up).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Diagnostic } from '../../schemas/model/plan';
import { DqformError } from '../../schemas/tools/errors';

/** Thrown when input cannot become a manifest; carries every diagnostic found, not the first. */
export class ManifestError extends DqformError {
  static override readonly code: string = 'manifest';
  constructor(override readonly diagnostics: Diagnostic[]) {
    super(diagnostics.map((d) => `${d.address ? `${d.address}: ` : ''}${d.summary}${d.detail ? ` (${d.detail})` : ''}`).join('\n'));
    this.name = 'ManifestError';
  }
}

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The stacks of a synth output directory, sorted. cdktf writes `<dir>/manifest.json` listing the
 * stacks the app has now, and leaves the directories of stacks it no longer has: so when
 * manifest.json exists, it is the list, and a `stacks/<name>` it does not list is a `leftover`
 * (never planned; `dqform synth` removes it). Without a manifest.json (output written by hand),
 * every entry of `stacks/` is a stack.
 */
export function listedStacks(dir: string): { stacks: string[]; leftovers: string[] } {
  const stacksDir = path.join(dir, 'stacks');
  let present: string[] = [];
  try {
    present = fs.readdirSync(stacksDir);
  } catch {
    present = [];
  }
  const file = path.join(dir, 'manifest.json');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { stacks: present.sort(), leftovers: [] };
  }
  let doc: { stacks?: unknown } | null | undefined;
  let why = 'it has no "stacks" object';
  try {
    doc = JSON.parse(text) as { stacks?: unknown };
  } catch (e) {
    why = (e as Error).message;
  }
  if (!isObj(doc?.stacks)) throw new ManifestError([{ severity: 'error', summary: `${file} is not cdktf's list of stacks: ${why}`, hint: 'Re-run `dqform synth`; do not edit synth output by hand.' }]);
  const listed = Object.keys(doc.stacks);
  return { stacks: present.filter((n) => listed.includes(n)).sort(), leftovers: present.filter((n) => !listed.includes(n)).sort() };
}
