/**
 * Inert output: text that came from a user (names, titles, fqns, addresses, ids, field keys) or
 * from a server (error bodies) escaped for the medium it lands in, so that it cannot pose as
 * dqform's own output. The one module that does this; every renderer and the client's error
 * factory go through it.
 *
 * - Terminal and logs ({@link inertText}, {@link inertLines}): C0 and C1 control characters
 *   (ANSI escapes, carriage returns, newlines inside one value), DEL, bidi overrides and
 *   isolates, and zero-width characters are shown as visible escapes (`\u202e`); a line that
 *   would start with a GitHub workflow command (`::error::`, `::add-mask::`, `##[set-output`)
 *   has its first character escaped, so the runner does not execute it.
 * - Server text ({@link inertServerText}): control sequences (CSI, OSC, other ESC sequences) are
 *   removed, then the text is made one inert line as above.
 * - Markdown ({@link mdText}, {@link mdCode}): no live links, images, autolinks, mentions or raw
 *   HTML; a code span's fence is longer than any backtick run it holds.
 * - JSON needs nothing: it is JSON.
 */

/**
 * Characters never printed raw: C0 controls (incl. tab, newline, carriage return, ESC), DEL, C1
 * controls (U+0080-U+009F, e.g. the one-byte CSI U+009B), the Arabic letter mark, zero-width
 * space/joiners, left-to-right and right-to-left marks, line and paragraph separators, bidi
 * embeddings and overrides (U+202A-U+202E), word joiner and invisible operators (U+2060-U+2064),
 * bidi isolates (U+2066-U+2069), deprecated format characters (U+206A-U+206F), the byte order
 * mark / zero-width no-break space, and interlinear annotation characters.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;
const UNSAFE_TEST = new RegExp(UNSAFE.source);

const escapeChar = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** A line that a GitHub Actions runner would read as a workflow command (`::cmd::`, `##[cmd]`), after leading blanks. */
const WORKFLOW_COMMAND = /^([ \t]*)(::|##\[)/;

const escapeUnsafe = (s: string): string => (UNSAFE_TEST.test(s) ? s.replace(UNSAFE, escapeChar) : s);

/** Does `s` hold a character {@link inertText} escapes (control, bidi, zero-width)? */
export const hasUnsafe = (s: string): boolean => UNSAFE_TEST.test(s);

/**
 * Every unsafe character as `\uXXXX` and nothing else: for generated source, where that is the
 * string literal's own escape (TypeScript, YAML double-quoted scalars), so values are unchanged
 * and no bidi override reorders the code a reviewer reads ("Trojan Source").
 */
export const unsafeAsEscapes = escapeUnsafe;

/** One value (a name, an address, a message) as one inert terminal line: every unsafe character as `\uXXXX`. */
export function inertText(s: string): string {
  return escapeUnsafe(s).replace(WORKFLOW_COMMAND, (_m, blank: string, cmd: string) => `${blank}${escapeChar(cmd[0])}${cmd.slice(1)}`);
}

/**
 * Several lines of text (a message that has line breaks of its own) made inert line by line:
 * the line breaks stay, every other unsafe character is escaped, and no line starts a workflow
 * command.
 */
export function inertLines(s: string): string {
  return s
    .split(/\r?\n/)
    .map((l) => inertText(l))
    .join('\n');
}

/** The colour codes dqform's text plan paints (render.ts: `ESC[31m` ... `ESC[0m`), and nothing else. */
const OUR_COLOUR = /(\u001b\[(?:0|2|3[0-7])m)/;

/**
 * Lines printed on a terminal where dqform itself may have painted colour codes: like
 * {@link inertLines}, but the plain colour codes (`ESC[3Xm`, `ESC[0m`) are kept. The text plan
 * escapes user text before painting it, so every colour code left is dqform's.
 */
export function inertLinesKeepingColour(s: string): string {
  if (!s.includes('\u001b')) return inertLines(s);
  return s
    .split(/\r?\n/)
    .map((l) =>
      l
        .split(OUR_COLOUR)
        // odd parts are the colour codes; the first part starts the line (a workflow command can only start there)
        .map((part, i) => (i % 2 === 1 ? part : i === 0 ? inertText(part) : escapeUnsafe(part)))
        .join(''),
    )
    .join('\n');
}

/** ESC and C1-CSI control sequences: CSI (`ESC [ ... final`), OSC (`ESC ] ... BEL|ST`), and two-character ESC sequences. */
const CONTROL_SEQUENCE = /\u001b\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u009d[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[ -/]*[0-~]/g;

/**
 * Text a server sent (an error body, a status message) as one inert line: control sequences
 * removed, line breaks and other unsafe characters escaped, no workflow command.
 */
export function inertServerText(s: string): string {
  return inertText(s.replace(CONTROL_SEQUENCE, ''));
}

/**
 * Characters markdown (GitHub's) gives a meaning to inline, wherever they stand: backslash, code
 * (`` ` ``), emphasis (`*`), links and images (`[`, `]`: with them escaped, `!` and `(` are
 * plain), HTML (`<`, `>`), entities (`&`), table cells (`|`) and strikethrough (`~`); and `_`
 * except inside a word (where GitHub never reads it as emphasis: `dq_owner` stays as is).
 * Values never start a line of ours, so `#`, `>`, `-` and `+` cannot open a block.
 */
const MD_PUNCT = /[\\`*[\]<>|~&]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g;

/**
 * Tokens GitHub makes live even in plain text: URLs (`scheme://`, `www.`), e-mail addresses and
 * @-mentions. They go into code spans, where nothing is live.
 */
const MD_LIVE = /(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/|www\.)[^\s]*|[^\s@]+@[^\s@]+|@[A-Za-z0-9][^\s]*/g;

/**
 * A value as inert markdown prose: unsafe characters as `\uXXXX` escapes, markdown punctuation
 * backslash-escaped (no links, images, emphasis, HTML or entities), URLs, e-mail addresses and
 * mentions as code spans. `table`: also safe inside a table cell.
 */
export function mdText(s: string, opts: { table?: boolean } = {}): string {
  const text = inertText(s);
  let out = '';
  let last = 0;
  for (const m of text.matchAll(MD_LIVE)) {
    out += text.slice(last, m.index).replace(MD_PUNCT, (c) => `\\${c}`);
    out += mdCode(m[0], opts);
    last = m.index + m[0].length;
  }
  return out + text.slice(last).replace(MD_PUNCT, (c) => `\\${c}`);
}

/**
 * A value as an inert markdown code span: unsafe characters as `\uXXXX` escapes, a fence one
 * backtick longer than the longest run inside (padded with spaces when the value starts or ends
 * with a backtick), `|` escaped inside a table cell (GitHub splits cells on it even in code).
 */
export function mdCode(s: string, opts: { table?: boolean } = {}): string {
  let text = inertText(s);
  if (text === '') return '` `';
  if (opts.table) text = text.replace(/\|/g, '\\|');
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') || (text.startsWith(' ') && text.endsWith(' ') && text.trim() !== '') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** A value inside raw HTML (e.g. `<summary><code>...</code></summary>`): `&`, `<`, `>` and quotes as entities, unsafe characters as escapes. */
export function htmlText(s: string): string {
  const map: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
  return inertText(s).replace(/[&<>"']/g, (c) => map[c]);
}

/** A fenced code block's fence: three backticks, or one more than the longest run at a line start in `body`. */
export function mdFence(body: string): string {
  const runs = body.match(/^ {0,3}`{3,}/gm) ?? [];
  const longest = Math.max(2, ...runs.map((r) => r.trim().length));
  return '`'.repeat(longest + 1);
}
