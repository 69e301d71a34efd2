/**
 * The shell blocks of a Markdown page and the commands in them (issue 26: every command shown in
 * docs/ and the README runs in a test, or is marked as one a user does not run here).
 */

/** A shell line without its comment: from the first `#` that starts a word outside quotes. */
export function withoutComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"') i++;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) return line.slice(0, i);
  }
  return line;
}

/** The languages of a fenced block whose lines are commands (a block without a language is one when its first line is a `$ ` prompt). */
export const SHELL_LANGUAGES = ['sh', 'bash', 'shell', 'console', 'zsh'];

/** One command of a shell block, as a user would type it. */
export interface DocCommand {
  /** Line of the page (1-based) where the command starts. */
  line: number;
  /** The command without its comment (continuation lines joined, `$ ` prompt removed). */
  text: string;
  /** Its comment (without `#`), or ''. */
  comment: string;
  /** The exit code the page gives it (`# exit N` in its comment), else 0. */
  exit: number;
  /** Output lines a ```console block shows under the command. */
  output: string[];
}

/** One shell block of a page. */
export interface ShellBlock {
  file: string;
  /** Line of the opening fence. */
  line: number;
  /** The `## ` section the block is in ('' before the first). */
  section: string;
  /** The reason of a `<!-- not-run: reason -->` comment on the line before the fence ('' when it gives none). */
  notRun: string | undefined;
  commands: DocCommand[];
}

const NOT_RUN = /^\s*<!--\s*not-run(?::\s*(.*?))?\s*-->\s*$/;

/** The shell blocks of `md` (the page `file`), with their commands. */
export function shellBlocks(file: string, md: string): ShellBlock[] {
  const lines = md.split('\n');
  const blocks: ShellBlock[] = [];
  let section = '';
  let open: { fence: string; indent: number; shell: boolean; line: number; body: string[] } | undefined;
  lines.forEach((raw, i) => {
    const fence = /^(\s*)(```+|~~~+)\s*([\w-]*)/.exec(raw);
    if (!open) {
      if (fence) open = { fence: fence[2], indent: fence[1].length, shell: SHELL_LANGUAGES.includes(fence[3]), line: i + 1, body: [] };
      else if (raw.startsWith('## ')) section = raw.slice(3).trim();
      return;
    }
    if (fence && raw.trim().startsWith(open.fence)) {
      const lang = /^\s*(?:```+|~~~+)\s*([\w-]*)/.exec(lines[open.line - 1])![1];
      if (open.shell || (lang === '' && /^\s*\$ /.test(open.body.find((l) => l.trim() !== '') ?? ''))) {
        let before = open.line - 2;
        while (before >= 0 && lines[before].trim() === '') before--;
        const marker = before >= 0 ? NOT_RUN.exec(lines[before]) : null;
        blocks.push({ file, line: open.line, section, notRun: marker ? (marker[1] ?? '') : undefined, commands: blockCommands(open.body, open.line + 1, open.indent) });
      }
      open = undefined;
      return;
    }
    open.body.push(raw);
  });
  return blocks;
}

/** The commands of a block's body (`first` = the page line of its first body line). */
function blockCommands(body: string[], first: number, indent: number): DocCommand[] {
  const text = body.map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)));
  const consoleStyle = text.some((l) => l.startsWith('$ '));
  const commands: DocCommand[] = [];
  for (let i = 0; i < text.length; i++) {
    const line = first + i;
    let raw = text[i];
    if (consoleStyle && !raw.startsWith('$ ')) {
      if (raw.trim() !== '' && commands.length > 0) commands[commands.length - 1].output.push(raw.trimEnd());
      continue;
    }
    raw = raw.replace(/^\$ /, '');
    // a line ending in `\` goes on with the next one
    while (/\\\s*$/.test(withoutComment(raw)) && i + 1 < text.length) raw = `${withoutComment(raw).replace(/\\\s*$/, '').trimEnd()} ${text[++i].trim()}`;
    const code = withoutComment(raw).trim();
    if (code === '') continue;
    const comment = raw.slice(withoutComment(raw).length).replace(/^#\s*/, '').trim();
    const exit = /^exit (\d+)\b/.exec(comment);
    commands.push({ line, text: code, comment, exit: exit ? Number(exit[1]) : 0, output: [] });
  }
  return commands;
}

/** The placeholders of a command: `<name>` words and `$NAME` / `${NAME}` variables. */
export function placeholders(command: string): string[] {
  const found = new Set<string>();
  for (const m of command.matchAll(/<[A-Za-z][\w.-]*>/g)) found.add(m[0]);
  for (const m of command.matchAll(/\$\{?([A-Za-z_]\w*)/g)) found.add(`$${m[1]}`);
  return [...found];
}
