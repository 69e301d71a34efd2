/**
 * The README tutorial as steps (issue 26), shared by the test that runs it (tutorial-e2e.test.ts)
 * and the one that checks every command of the docs is run somewhere (docs-commands-run.test.ts).
 */

/** One step of the tutorial, in the README's order: a shell block's lines, or a file to write. */
export type Step = { kind: 'sh'; lines: string[] } | { kind: 'file'; name: string; text: string };

/** The tutorial's steps: its ```sh blocks and its files (```ts blocks named by their first line). */
export function tutorialSteps(readme: string): Step[] {
  const section = readme.split(/^## /m).find((s) => s.startsWith('Tutorial'));
  if (!section) throw new Error('README.md has no "## Tutorial" section');
  const steps: Step[] = [];
  for (const m of section.matchAll(/^( *)```(sh|ts)\n([\s\S]*?)^\1```$/gm)) {
    const lines = m[3].split('\n').map((l) => l.slice(m[1].length)).filter((l) => l.trim() !== '');
    if (m[2] === 'sh') steps.push({ kind: 'sh', lines });
    else {
      const name = /^\/\/ ([\w./-]+\.ts)\s*$/.exec(lines[0])?.[1];
      if (!name) throw new Error(`README.md tutorial: a \`\`\`ts block whose first line does not name its file: ${lines[0]}`);
      steps.push({ kind: 'file', name, text: `${m[3].split('\n').map((l) => l.slice(m[1].length)).join('\n').trimEnd()}\n` });
    }
  }
  return steps;
}
