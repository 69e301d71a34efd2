/**
 * Key conversion between Terraform's snake_case and the API's lowerCamelCase (keys.ts), the
 * spelling every diagnostic about a field and every config goes through; and the deterministic
 * JSON plans are hashed and written with. (Issue 23: reached before only through the loaders.)
 */
import { camelToSnake, mapKeysDeep, snakeToCamel, sortKeysDeep, stableStringify } from '../../src/engine/keys';

test.each([
  ['recipient_emails', 'recipientEmails'],
  ['metric_ids', 'metricIds'],
  ['a_1', 'a1'],
  ['owner_id_2_x', 'ownerId2X'],
  ['alreadyCamel', 'alreadyCamel'],
  ['_leading', 'Leading'],
  ['trailing_', 'trailing_'],
  ['', ''],
])('snakeToCamel(%j) is %j', (snake, camel) => {
  expect(snakeToCamel(snake)).toBe(camel);
  // memoised: the same answer again
  expect(snakeToCamel(snake)).toBe(camel);
});

test.each([
  ['recipientEmails', 'recipient_emails'],
  ['metricIds', 'metric_ids'],
  ['a1B', 'a1_b'],
  ['issueLifecycle', 'issue_lifecycle'],
  ['URL', 'url'],
  ['plain', 'plain'],
])('camelToSnake(%j) is %j', (camel, snake) => {
  expect(camelToSnake(camel)).toBe(snake);
  expect(camelToSnake(camel)).toBe(snake);
});

test('mapKeysDeep converts keys at every depth, inside arrays too, and keeps values', () => {
  expect(mapKeysDeep({ a_b: [{ c_d: 'x_y' }, 1, null], e_f: { g_h: true } }, snakeToCamel)).toEqual({ aB: [{ cD: 'x_y' }, 1, null], eF: { gH: true } });
  expect(mapKeysDeep('s_t', snakeToCamel)).toBe('s_t');
  expect(mapKeysDeep(null, snakeToCamel)).toBeNull();
});

test('sortKeysDeep and stableStringify: the same text whatever the key order; undefined members dropped', () => {
  const a = { b: 1, a: { d: [{ z: 1, y: 2 }], c: undefined } };
  const b = { a: { d: [{ y: 2, z: 1 }] }, b: 1 };
  expect(stableStringify(a)).toBe('{"a":{"d":[{"y":2,"z":1}]},"b":1}');
  expect(stableStringify(a)).toBe(stableStringify(b));
  expect(stableStringify(a, 2)).toBe(JSON.stringify(sortKeysDeep(b), null, 2));
  expect(stableStringify([3, { b: 1, a: 2 }])).toBe('[3,{"a":2,"b":1}]');
  expect(stableStringify('x')).toBe('"x"');
});
