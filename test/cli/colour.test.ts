/**
 * Colour on the text plan's field lines (issue 26): green `+`, yellow `~`, red `-`, cyan for a
 * replace or a forget, dim for context that changes nothing; without colour the text is the
 * golden text byte for byte.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Plan } from '../../schemas/model/plan';
import { renderText } from '../../src/cli/render';
import { useColor } from '../../src/cli/runtime';
import type { Io } from '../../src/cli/command';

const CASE = path.join(__dirname, '..', 'golden', 'plan', 'actions');
const plan = Plan.parse(JSON.parse(fs.readFileSync(path.join(CASE, 'plan.json'), 'utf8')));
const ESC = '\u001b';
const painted = (code: number, s: string) => `${ESC}[${code}m${s}${ESC}[0m`;

describe('text plan colour', () => {
  const text = renderText(plan, { color: true });
  const lines = text.split('\n');

  it('paints every field line by its symbol, not only the headers', () => {
    expect(lines).toContain(painted(32, '      + name = "New orders"'));
    expect(lines).toContain(painted(33, '      ~ name = "Orders" -> "Orders v2"'));
    expect(lines).toContain(painted(31, '      - name = "Retired alert"'));
    expect(lines).toContain(painted(31, '      - issueLifecycle.trigger.resolverQl = "with_type(\\"table\\")"'));
  });

  it('a replace is cyan, reasons are dim', () => {
    expect(lines).toContain(painted(36, '  -/+ dq_alert "shop.freshness" {'));
    expect(lines).toContain(painted(2, '  #   (declared removed: owner "Old team")'));
  });

  it('every field line of a change is painted', () => {
    const fieldLines = lines.filter((l) => /^(\u001b\[\d+m)? {6}[+~-] /.test(l));
    expect(fieldLines.length).toBeGreaterThan(10);
    for (const l of fieldLines) expect(l).toMatch(/^\u001b\[3[123]m.*\u001b\[0m$/);
  });

  it('a forget (removed, destroy = false) is cyan', () => {
    const gov = Plan.parse(JSON.parse(fs.readFileSync(path.join(CASE, '..', 'governance-pruning', 'plan.json'), 'utf8')));
    const forget = renderText(gov, { color: true }).split('\n').find((l) => l.includes('dq_owner.on_call (owner "On call"): removed with destroy = false'));
    expect(forget).toMatch(/^\u001b\[36m {2}\? dq_owner\.on_call .*\u001b\[0m$/);
    expect(renderText(gov)).toBe(fs.readFileSync(path.join(CASE, '..', 'governance-pruning', 'plan.txt'), 'utf8'));
  });

  it('without colour the text is byte-identical to the golden text', () => {
    expect(renderText(plan)).toBe(fs.readFileSync(path.join(CASE, 'plan.txt'), 'utf8'));
    expect(renderText(plan, { color: false })).not.toContain(ESC);
    expect(text.replace(/\u001b\[\d+m/g, '')).toBe(renderText(plan));
  });
});

describe('useColor', () => {
  const io = (isTty: boolean, env: Record<string, string> = {}) => ({ isTty, env }) as unknown as Io;
  it.each([
    ['a terminal', io(true), {}, true],
    ['no terminal', io(false), {}, false],
    ['NO_COLOR on a terminal', io(true, { NO_COLOR: '1' }), {}, false],
    ['--no-color on a terminal', io(true), { color: false }, false],
    ['FORCE_COLOR without a terminal', io(false, { FORCE_COLOR: '1' }), {}, true],
    ['FORCE_COLOR=0 on a terminal', io(true, { FORCE_COLOR: '0' }), {}, false],
    ['--no-color beats FORCE_COLOR', io(false, { FORCE_COLOR: '1' }), { color: false }, false],
  ])('%s', (_what, i, flags, expected) => {
    expect(useColor(i, flags)).toBe(expected);
  });
});
