/**
 * Generated source is inert (issue 23): names and titles read from live state that hold
 * control, bidi-override or zero-width characters are written as `\uXXXX` escapes in the
 * TypeScript and YAML that `dqform import` writes, so that nothing invisible or reordering
 * ("Trojan Source") reaches the code a reviewer reads; the values themselves are unchanged.
 *
 * @gateway
 */
import { manifestFromYaml } from '../../src/engine/yaml';
import { deriveId } from '../../src/engine/identity';
import { planImport, renderTs, renderYaml, tsLiteral, type LiveItem } from '../../src/engine/import';

const RAW_UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;
const TITLE = 'Team \u202e}; evil(); //\u202c zero\u200bwidth \u001b[2J bell\u0007 nel\u0085 tab\t';

const key = deriveId('demo', 'team', 'dq_owner', 'x');
const items: LiveItem[] = [{ type: 'dq_owner', key, raw: { id: key, title: TITLE } }];
const opts = { namespace: 'team', workspace: 'demo' };

test('YAML: the title is double-quoted with escapes, no raw unsafe character, and loads back unchanged', () => {
  const text = renderYaml(planImport(items, opts), opts);
  expect(text).not.toMatch(RAW_UNSAFE);
  expect(text).toContain('\\u202e}; evil(); //\\u202c zero\\u200bwidth');
  const m = manifestFromYaml(text, { file: 'dqform.yaml' });
  expect(m.resources.find((r) => r.type === 'dq_owner')?.config.title).toBe(TITLE);
});

test('TypeScript: string literals escape them, and evaluate to the same value', () => {
  const lit = tsLiteral({ title: TITLE });
  expect(lit).not.toMatch(RAW_UNSAFE);
  expect(new Function(`return ${lit};`)()).toEqual({ title: TITLE });
  const ts = renderTs(planImport(items, opts), opts);
  expect(ts).not.toMatch(RAW_UNSAFE);
  expect(ts).toContain('\\u202e}; evil(); //\\u202c');
});
