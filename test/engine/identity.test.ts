/**
 * Identity (design.md "Identity and ownership"): derived ids are UUIDv8 whose first 48 bits are
 * the namespace tag of (workspace, namespace) and whose other bits hash (workspace, namespace,
 * kind, address name); the tag says which namespace owns an object.
 */
import { hash } from 'node:crypto';
import { carriesTag, deriveId, idOwner, isDerivedShape, namespaceOfId, namespaceTag, tagOf } from '../../src/engine/identity';

const id = deriveId('demo', 'shop', 'dq_owner', 'team');

describe('derived ids', () => {
  it('are UUIDv8 with the RFC variant, lower-case, deterministic', () => {
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(deriveId('demo', 'shop', 'dq_owner', 'team')).toBe(id);
  });

  it('start with the namespace tag: 48 bits shared by every id of (workspace, namespace)', () => {
    const tag = namespaceTag('demo', 'shop');
    expect(tag).toMatch(/^[0-9a-f]{12}$/);
    expect(id.replace(/-/g, '').slice(0, 12)).toBe(tag);
    for (const [type, name] of [['dq_domain', 'sales'], ['dq_ownership', 'x'], ['dq_sql_test', 't'], ['dq_monitor_deployment_rule', 'r']] as const) {
      expect(tagOf(deriveId('demo', 'shop', type, name))).toBe(tag);
    }
  });

  it.each([
    ['another workspace', deriveId('other-ws', 'shop', 'dq_owner', 'team')],
    ['another namespace', deriveId('demo', 'shop2', 'dq_owner', 'team')],
    ['another kind', deriveId('demo', 'shop', 'dq_domain', 'team')],
    ['another name', deriveId('demo', 'shop', 'dq_owner', 'team2')],
    // the parts are JSON-encoded, so moving a character across a boundary changes the id
    ['the same characters split differently', deriveId('demo', 'shop', 'dq_owner', 'teamx')],
  ])('differ for %s', (_why, other) => {
    expect(other).not.toBe(id);
  });

  it('are the ids the documented construction gives (sha256 of the JSON array), whichever pairs were asked before (issue 27: the input is built from a kept prefix)', () => {
    // the construction of the module's comment, written out: a plan file's ids must not move
    const documented = (ws: string, ns: string, type: string, name: string) => {
      const t = hash('sha256', JSON.stringify(['dqform-namespace-tag', ws, ns]), 'hex').slice(0, 12);
      const h = hash('sha256', JSON.stringify(['dqform-id', ws, ns, type, name]), 'hex');
      const v = ((parseInt(h[4], 16) & 0x3) | 0x8).toString(16);
      return `${t.slice(0, 8)}-${t.slice(8, 12)}-8${h.slice(1, 4)}-${v}${h.slice(5, 8)}-${h.slice(8, 20)}`;
    };
    expect(id).toBe(documented('demo', 'shop', 'dq_owner', 'team'));
    const pairs = [['demo', 'shop'], ['demo', 'shop2'], ['w"s\\', 'n\u00e9.x'], ['demo', 'shop'], ['', '']] as const;
    const names = ['team', 'a"b', 'back\\slash', 'caf\u00e9', '\u2028x', 'n,"x"]'];
    for (let i = 0; i < 60; i++) {
      const [ws, ns] = pairs[i % pairs.length];
      const name = names[(i * 7) % names.length];
      expect(deriveId(ws, ns, 'dq_sql_test', name)).toBe(documented(ws, ns, 'dq_sql_test', name));
    }
  });

  it('namespace tags differ across workspaces and namespaces, and are not confused by separators', () => {
    const tags = new Set([namespaceTag('a', 'b/c'), namespaceTag('a/b', 'c'), namespaceTag('a', 'bc'), namespaceTag('ab', 'c'), namespaceTag('b', 'a')]);
    expect(tags.size).toBe(5);
  });

  it('a tag asked again after another pair is that pair\'s own (the last pair is remembered, not the last tag)', () => {
    const a = namespaceTag('ws', 'one');
    const b = namespaceTag('ws', 'two');
    expect(b).not.toBe(a);
    expect(namespaceTag('ws', 'one')).toBe(a);
    expect(namespaceTag('ws2', 'one')).not.toBe(a);
    expect(namespaceTag('ws', 'one')).toBe(a);
  });
});

describe('ownership by tag', () => {
  it.each<[string, string, 'namespace' | 'other' | 'none']>([
    ['an id the namespace derived', id, 'namespace'],
    ['the same id upper-case, with the owner- prefix', `owner-${id.toUpperCase()}`, 'namespace'],
    ['an id of another namespace', deriveId('demo', 'billing', 'dq_owner', 'team'), 'other'],
    ['an id of the same namespace in another workspace', deriveId('prod', 'shop', 'dq_owner', 'team'), 'other'],
    ['a random UUIDv4 (made in the UI)', '5eed0000-0000-4000-8000-000000000e7a', 'none'],
    ['a v8-looking id with the wrong variant', `${id.slice(0, 19)}c${id.slice(20)}`, 'none'],
    ['the tag\'s digits, but version 4', `${id.slice(0, 14)}4${id.slice(15)}`, 'none'],
    ['the tag\'s digits, then too many', `${id}0`, 'none'],
    ['the tag\'s first 8 digits only', `${id.slice(0, 9)}0000${id.slice(13)}`, 'other'],
    ['not a UUID at all', 'legacy-key', 'none'],
  ])('%s', (_why, x, want) => {
    expect(idOwner(x, 'demo', 'shop')).toBe(want);
    expect(carriesTag(x, 'demo', 'shop')).toBe(want === 'namespace');
    expect(isDerivedShape(x)).toBe(want !== 'none');
  });

  it('names the namespace of an id among candidates', () => {
    const billing = deriveId('demo', 'billing', 'dq_domain', 'd');
    expect(namespaceOfId(billing, 'demo', ['shop', 'billing'])).toBe('billing');
    expect(namespaceOfId(billing, 'demo', ['shop'])).toBeUndefined();
    expect(namespaceOfId('5eed0000-0000-4000-8000-000000000e7a', 'demo', ['shop'])).toBeUndefined();
  });
});
