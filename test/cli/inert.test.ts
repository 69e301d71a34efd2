/**
 * Inert output (issue 23): names, titles, fqns, addresses, ids and server text are escaped for
 * the medium they land in. Markdown (the PR comment): no live links, images, autolinks,
 * mentions or raw HTML, and a backtick cannot close its code span. Terminal: control
 * characters (ANSI escapes), bidi overrides and zero-width characters shown as `\uXXXX`, no
 * line that starts a GitHub workflow command. Server error bodies: control sequences removed.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { inertLines, inertLinesKeepingColour, inertServerText, inertText, mdCode, mdFence, mdText } from '../../schemas/tools/inert';
import { Plan } from '../../schemas/model/plan';
import { errorFromResponse } from '../../src/client/errors';
import { renderMarkdown, renderText } from '../../src/cli/render';
import { main, type Io } from '../../src/cli/main';

/** Raw characters no output may carry: C0 controls but newline, DEL, C1, bidi controls, zero-width characters. */
const RAW_UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;
/** A line a GitHub Actions runner reads as a workflow command. */
const WORKFLOW_LINE = /^[ \t]*(::|##\[)/m;

const LINK = '[click](http://evil.example/x)';
const IMAGE = '![logo](http://evil.example/i.png)';
const HTML = '<img src=x onerror=alert(1)>';
const HOSTILE = `${LINK} ${IMAGE} ${HTML} &amp; @everyone www.evil.example **bold** \u202eexe.txt zero\u200bwidth \u001b[2J\n::error::pwned`;

/**
 * The text a markdown renderer makes live, roughly as CommonMark reads it: fenced blocks and
 * code spans (a run of N backticks closed by the next run of exactly N) and backslash escapes
 * are dropped, and so is dqform's own HTML (`<details>`, `<summary>`, `<code>`). What is left
 * must hold no link, image, HTML, autolink or mention.
 */
function liveText(md: string): string {
  const lines = md.split('\n');
  const out: string[] = [];
  let fence: string | undefined;
  for (const l of lines) {
    const f = /^ {0,3}(`{3,})/.exec(l)?.[1];
    if (fence) {
      if (f && f.length >= fence.length && l.trim() === f) fence = undefined;
      continue;
    }
    if (f) {
      fence = f;
      continue;
    }
    out.push(l);
  }
  let text = out.join('\n').replace(/<\/?(details|summary|code)>/g, '');
  // code spans
  let live = '';
  for (let i = 0; i < text.length; ) {
    if (text[i] === '\\' && i + 1 < text.length && /[!-/:-@[-`{-~]/.test(text[i + 1])) {
      i += 2;
      continue;
    }
    if (text[i] === '`') {
      const run = /^`+/.exec(text.slice(i))![0];
      let j = i + run.length;
      let closed = -1;
      while (j < text.length) {
        const k = text.indexOf('`', j);
        if (k < 0) break;
        const r = /^`+/.exec(text.slice(k))![0];
        if (r.length === run.length) {
          closed = k + r.length;
          break;
        }
        j = k + r.length;
      }
      if (closed < 0) {
        live += run;
        i += run.length;
      } else i = closed;
      continue;
    }
    live += text[i];
    i++;
  }
  text = live;
  return text;
}

function expectInertMarkdown(md: string): void {
  const live = liveText(md);
  expect(live).not.toMatch(/\]\(/); // links and images
  expect(live).not.toMatch(/!\[/);
  expect(live).not.toMatch(/<[A-Za-z/!]/); // raw HTML
  expect(live).not.toMatch(/&[A-Za-z#]/); // entities
  expect(live).not.toMatch(/[A-Za-z]+:\/\/|www\./); // autolinks
  expect(live).not.toMatch(/@[A-Za-z]/); // mentions
  expect(live).not.toContain('**bold**'); // emphasis a reviewer could mistake for dqform's own
  expect(md).not.toMatch(RAW_UNSAFE);
  expect(md).not.toMatch(WORKFLOW_LINE);
}

function hostilePlan(): Plan {
  const base = Plan.parse(JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'golden', 'plan', 'actions', 'plan.json'), 'utf8')));
  const plan = structuredClone(base);
  for (const c of plan.changes) {
    c.name = `alert "${HOSTILE}"`;
    c.reasonCodes = [...(c.reasonCodes ?? []), { code: 'text', text: `made by ${HOSTILE}` }];
  }
  const create = plan.changes.find((c) => c.action === 'create')!;
  create.address = 'dq_alert.x` [y](http://e.example) `';
  plan.changes.find((c) => c.address === 'dq_owner.old_team')!.address = 'dq_owner.x` [y](http://e.example) `';
  create.id = 'id\u001b]8;;http://evil.example\u0007\n```\n::add-mask::x';
  create.after = { ...(create.after as object), name: `\u202e${HOSTILE}`, [`key${HTML}`]: 'v' };
  plan.diagnostics = [{ severity: 'warning', summary: `server says: ${HOSTILE}`, address: 'dq_alert.`a`' }];
  return plan;
}

describe('the markdown plan (PR comment) is inert', () => {
  test('hostile names, reasons, ids, addresses and diagnostics make no link, image, HTML, mention or emphasis', () => {
    const md = renderMarkdown(hostilePlan(), { showUnmanaged: true });
    expectInertMarkdown(md);
    // the text is still there, visible
    expect(md).toContain('\\[click\\]');
    expect(md).toContain('`http://evil.example/x)`');
    expect(md).toContain('\\u202eexe.txt');
  });

  test('a backtick in an address cannot close its code span: the fence is longer than any run inside', () => {
    const md = renderMarkdown(hostilePlan(), { showUnmanaged: true });
    // in the warning of a destructive change, and in the note of a diagnostic
    expect(md).toContain('> - `` dq_owner.x` [y](http://e.example) ` `` (alert');
    expect(md).toContain('- Warning: `` dq_alert.`a` ``: server says:');
  });

  test('the table form (a plan too large for its diff blocks) is inert too, a pipe cannot add a cell', () => {
    const plan = hostilePlan();
    for (const c of plan.changes) c.name = `${c.name} | extra | cells |`;
    const md = renderMarkdown(plan, { limit: 3000 });
    expect(md).toContain('| address | name | action | effects |');
    expectInertMarkdown(md);
    for (const row of md.split('\n').filter((l) => l.startsWith('| `') || l.startsWith('| ``'))) {
      // four cells: the unescaped pipes are exactly the five borders
      expect(row.replace(/\\\|/g, '').match(/\|/g)).toHaveLength(5);
    }
  });

  test('a diff block is fenced longer than any backtick run that starts one of its lines', () => {
    expect(mdFence('a\n```\nb')).toBe('````');
    expect(mdFence('   `````x')).toBe('``````');
    expect(mdFence('no fences ``` inside a line')).toBe('```');
  });
});

describe('the text plan (terminal) is inert', () => {
  test('control characters, ANSI escapes, bidi overrides and zero-width characters are shown as escapes; no line starts a workflow command', () => {
    const text = renderText(hostilePlan(), { showUnmanaged: true });
    expect(text).not.toMatch(RAW_UNSAFE);
    expect(text).not.toMatch(WORKFLOW_LINE);
    expect(text).toContain('\\u202eexe.txt zero\\u200bwidth \\u001b[2J\\u000a::error::pwned');
  });

  test('with colour, only the colour codes dqform paints are raw escapes', () => {
    const text = renderText(hostilePlan(), { color: true, showUnmanaged: true });
    const codes = text.match(/\u001b\[[0-9;]*[A-Za-z]/g) ?? [];
    expect(codes.length).toBeGreaterThan(0);
    for (const c of codes) expect(c).toMatch(/^\u001b\[(0|2|3[0-7])m$/);
    expect(text.replace(/\u001b\[(0|2|3[0-7])m/g, '')).not.toMatch(RAW_UNSAFE);
  });
});

describe('server text in client errors is stripped of control sequences and workflow commands', () => {
  const failed = (body: string) =>
    errorFromResponse({ method: 'GET', path: '/api/alerts/v1/a', status: 500, headers: { 'x-request-id': 'req\u001b[31m-1' }, body, sentRequestId: 'sent-1' });

  test.each([
    ['a google.rpc.Status message', JSON.stringify({ code: 13, message: '\u001b[31mboom\u001b[0m\n::error::pwned\r\n::add-mask::x \u202e' })],
    ['a plain (non-JSON) body', '<html>\u001b]8;;http://evil.example\u0007link\u001b]8;;\u0007\n##[set-output name=a;]b\n::error::pwned \u009b2J'],
    ['violations', JSON.stringify({ code: 3, message: 'bad', details: [{ '@type': 'type.googleapis.com/buf.validate.Violations', violations: [{ field: 'name\u001b[2J', message: 'x\n::error::y', ruleId: 'r' }] }] })],
  ])('%s', (_why, body) => {
    const e = failed(body);
    for (const text of [e.message, e.serverMessage, JSON.stringify(e.toJSON())]) {
      expect(text).not.toMatch(RAW_UNSAFE);
      expect(text).not.toContain('\u001b');
      expect(text).not.toMatch(WORKFLOW_LINE);
      expect(text).not.toContain('\n');
    }
    expect(e.message).not.toMatch(/\[31m|\]8;;|\[2J/); // sequences removed, not merely escaped
    expect(e.message).toMatch(/^GET \/api\/alerts\/v1\/a failed: /);
  });

  test('the readable part stays: an escaped line break, a visible bidi escape', () => {
    const e = failed(JSON.stringify({ code: 13, message: 'boom\n::error::pwned \u202e' }));
    expect(e.serverMessage).toBe('boom\\u000a::error::pwned \\u202e');
    expect(e.message).toBe('GET /api/alerts/v1/a failed: 500 INTERNAL: boom\\u000a::error::pwned \\u202e (request id req-1)');
  });
});

describe('everything the CLI prints goes through the inert filter', () => {
  function capture(): { io: Partial<Io>; out: string[]; err: string[] } {
    const out: string[] = [];
    const err: string[] = [];
    return { io: { out: (s) => out.push(s), err: (s) => err.push(s), env: {}, isTty: false }, out, err };
  }

  test('a YAML diagnostic naming a hostile key: no raw escape, no workflow command on stderr', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-inert-'));
    try {
      fs.writeFileSync(path.join(dir, 'dqform.yaml'), 'namespace: shop\nowners:\n  team:\n    title: T\n    "x\\e[2J\\n::error::pwned\\u202e": 1\n');
      const c = capture();
      const code = await main(['validate', '--file', path.join(dir, 'dqform.yaml')], { ...c.io, cwd: dir });
      expect(code).toBe(1);
      const err = c.err.join('\n');
      expect(err).toContain('unknown field "x\\u001b[2J\\u000a::error::pwned\\u202e" in owners.team');
      expect(err).not.toMatch(RAW_UNSAFE);
      expect(err).not.toMatch(WORKFLOW_LINE);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('schemas/tools/inert', () => {
  test.each([
    ['plain text is unchanged', 'dq_owner.team (owner "Data team")', 'dq_owner.team (owner "Data team")'],
    ['ESC and other C0 controls', 'a\u001b[2Jb\u0007c\td', 'a\\u001b[2Jb\\u0007c\\u0009d'],
    ['line breaks inside one value', 'a\r\nb\u2028c', 'a\\u000d\\u000ab\\u2028c'],
    ['C1 controls and DEL', 'a\u009b2Jb\u007f', 'a\\u009b2Jb\\u007f'],
    ['bidi overrides, isolates and marks', 'a\u202eb\u2066c\u200fd\u061ce', 'a\\u202eb\\u2066c\\u200fd\\u061ce'],
    ['zero-width characters', 'a\u200bb\u200dc\u2060d\ufeffe', 'a\\u200bb\\u200dc\\u2060d\\ufeffe'],
    ['a workflow command at the start', '::error::x', '\\u003a:error::x'],
    ['after blanks too, and the old ##[ form', '  ##[set-output name=a]b', '  \\u0023#[set-output name=a]b'],
    ['not inside a line', 'asset wh::mart::orders', 'asset wh::mart::orders'],
  ])('inertText: %s', (_why, input, want) => {
    expect(inertText(input)).toBe(want);
  });

  test('inertLines keeps line breaks and escapes a workflow command on any line', () => {
    expect(inertLines('Error: x\n::error::y\r\n  ::add-mask::z')).toBe('Error: x\n\\u003a:error::y\n  \\u003a:add-mask::z');
  });

  test('inertLinesKeepingColour keeps only the plain colour codes', () => {
    expect(inertLinesKeepingColour('\u001b[31m  - a\u001b[0m\n\u001b[2J::x')).toBe('\u001b[31m  - a\u001b[0m\n\\u001b[2J::x');
  });

  test('inertServerText removes CSI, OSC and C1 sequences and escapes what is left', () => {
    expect(inertServerText('\u001b[1;31mred\u001b[0m \u001b]8;;http://e\u0007link\u001b]8;;\u001b\\ \u009b2Jx \u001bc\n::warning::w')).toBe('red link x \\u000a::warning::w');
  });

  test.each([
    ['a link', '[x](http://e.example)', '\\[x\\](`http://e.example)`'],
    ['an image', '![x](y)', '!\\[x\\](y)'],
    ['HTML and entities', '<b>&amp;</b>', '\\<b\\>\\&amp;\\</b\\>'],
    ['emphasis and strikethrough', '**a** *b* ~~c~~ _d_', '\\*\\*a\\*\\* \\*b\\* \\~\\~c\\~\\~ \\_d\\_'],
    ['underscores inside a word stay', 'dq_owner.data_team', 'dq_owner.data_team'],
    ['a mention and an e-mail address', 'ping @org/team or a@b.example', 'ping `@org/team` or `a@b.example`'],
    ['a bare URL', 'see www.e.example now', 'see `www.e.example` now'],
    ['a backslash', 'a\\[b', 'a\\\\\\[b'],
    ['a pipe', 'a|b', 'a\\|b'],
    ['bidi, shown as an escape (its backslash escaped: it renders as \\u202e)', 'a\u202eb', 'a\\\\u202eb'],
  ])('mdText: %s', (_why, input, want) => {
    expect(mdText(input)).toBe(want);
  });

  test.each([
    ['plain', 'dq_owner.team', '`dq_owner.team`'],
    ['a backtick inside', 'a`b', '``a`b``'],
    ['a run of two', 'a``b`', '``` a``b` ```'],
    ['starting with a backtick', '`a', '`` `a ``'],
    ['empty', '', '` `'],
  ])('mdCode: %s', (_why, input, want) => {
    expect(mdCode(input)).toBe(want);
  });

  test('mdCode in a table escapes the pipe', () => {
    expect(mdCode('a|b', { table: true })).toBe('`a\\|b`');
  });
});
