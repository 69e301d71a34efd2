/**
 * Issue 21: `drift` and `plan --refresh-only` show a live difference the same way: the field,
 * the code's value and live's value, labelled, and what dqform plan and apply would do about it,
 * in the terminal and in the markdown of `plan --refresh-only --format markdown` (a PR comment).
 * Neither writes anything (the emulator's whole state is unchanged).
 *
 * @gateway
 */
import { PlatformClient } from '../../src/client';
import { startEmulatorProcess, stateDiff, Scenario, type EmulatorProcess } from './harness';

jest.setTimeout(180_000);

let emu: EmulatorProcess;
beforeAll(async () => {
  emu = await startEmulatorProcess({ seed: 'demo' });
});
afterAll(async () => {
  await emu?.stop();
});

/** The entry blocks of an output: from each `  # dq_...` header to its `dqform plan and apply would ...` line. */
const entries = (out: string) => [...out.matchAll(/^ {2}# dq_[^\n]*\n(?:[^\n]*\n)*? {4}dqform plan and apply would [^\n]*$/gm)].map((m) => m[0]);
/** An entry without its diff markers and indentation (text `  ~ `, a markdown diff block's `!     `). */
const bare = (entry: string) => entry.split('\n').map((l) => l.replace(/^ *[~!+-]? */, ''));

it('drift and plan --refresh-only print the same labelled entries (code value, live value, what apply would do), in text and markdown, and write nothing', async () => {
  const s = new Scenario(emu);
  const client = PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' });
  try {
    s.stack('drift-same', { dq_domain: { sales: { name: 'Sales' }, ops: { name: 'Ops' } } });
    const first = await s.plan();
    expect((await s.run(['apply', first.file])).code).toBe(0);
    const id = (a: string) => first.plan!.changes.find((c) => c.address === a)!.id;
    await client.domains.upsert({ id: id('dq_domain.sales'), name: 'Sales (UI)' } as never);
    await client.domains.delete(id('dq_domain.ops'));

    const before = await emu.state();
    const drift = await s.run(['drift']);
    const refresh = await s.run(['plan', '--refresh-only']);
    const markdown = await s.run(['plan', '--refresh-only', '--format', 'markdown']);
    expect(drift.code).toBe(2);
    expect(refresh.code).toBe(0);
    expect(markdown.code).toBe(0);
    expect(stateDiff(before, await emu.state())).toEqual([]);

    // both headers name the platform they read (host), as every plan header does
    const host = new URL(emu.url).host;
    expect(drift.out).toMatch(new RegExp(`^dqform drift for namespace "drift-same" in workspace "[^"]+" on [^\\n]*${host.replace(/[.]/g, '\\.')}[^\\n]* \\(stack `, 'm'));
    expect(refresh.out).toMatch(new RegExp(`^dqform refresh-only plan for namespace "drift-same" in workspace "[^"]+" on [^\\n]*${host.replace(/[.]/g, '\\.')}`, 'm'));
    expect(markdown.out).toContain(`### dqform refresh-only plan: \`drift-same\` in `);
    expect(markdown.out).toMatch(new RegExp(`^### dqform refresh-only plan: .* on \`[^\`]*${host.replace(/[.]/g, '\\.')}`, 'm'));

    const shown = entries(drift.out);
    expect(shown).toHaveLength(2);
    expect(entries(refresh.out)).toEqual(shown);
    const sales = shown.find((e) => e.includes('dq_domain.sales'))!;
    expect(sales).toContain('has changed outside dqform');
    expect(sales).toContain('~ name: code "Sales", live "Sales (UI)"');
    expect(sales).toContain("dqform plan and apply would update it in place to the code's values");
    const ops = shown.find((e) => e.includes('dq_domain.ops'))!;
    expect(ops).toContain('is absent live');
    expect(ops).toContain('dqform plan and apply would create it from the code');
    for (const out of [drift.out, refresh.out, markdown.out]) expect(out).not.toMatch(/"Sales (\(UI\) )?" -> /);

    // the PR comment: the same entries in its diff blocks (GitHub's `!` marks a changed field)
    expect(entries(markdown.out).map(bare)).toEqual(shown.map(bare));
    expect(markdown.out).toContain('!     name: code "Sales", live "Sales (UI)"\n');
    expect(markdown.out).toContain("    dqform plan and apply would update it in place to the code's values\n");
    expect(markdown.out).toContain('    dqform plan and apply would create it from the code\n');
  } finally {
    await client.close();
    s.remove();
  }
});
