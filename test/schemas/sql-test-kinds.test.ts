/**
 * The one mapping between dqform's template-test shapes and the platform's test messages
 * (schemas/platform/sql-test-kinds.ts; grpc-facts 4.2): every kind written as the facts give it, read back
 * to the same dqform test; what dqform does not model is reported on read (never a failure,
 * the message kept as read); what has no counterpart is refused on write, naming the field.
 */
import { sqlTestFromWire, sqlTestRuleFromWire, sqlTestRuleToWire, sqlTestToWire, SqlTestWrite, templateTests, WireRuleTest } from '../../schemas/platform/sql-tests';
import { testFromWire, testToWire, TEST_KINDS, TestMappingError } from '../../schemas/platform/sql-test-kinds';

const ORDERS = { warehouseAccountTable: { account: 'acme', database: 'wh', schema: 'mart', table: 'orders' } };

/** [dqform kind, dqform body, the platform's message under its JSON key] (written from grpc-facts 4.2). */
const KINDS: [string, Record<string, unknown>, Record<string, unknown>][] = [
  ['notNull', { columns: ['id', 'code'] }, { notNullTest: { columnNames: ['id', 'code'] } }],
  ['empty', { columns: ['x'] }, { emptyTest: { columnNames: ['x'] } }],
  ['acceptedValues', { column: 's', values: ['a', 'b'] }, { acceptedValuesTest: { columnName: 's', acceptedValues: [{ stringLiteral: 'a' }, { stringLiteral: 'b' }] } }],
  ['rejectedValues', { column: 's', values: ['z'] }, { rejectedValuesTest: { columnName: 's', rejectedValues: [{ stringLiteral: 'z' }] } }],
  ['unique', { columns: ['id'] }, { uniqueTest: { columnNames: ['id'] } }],
  ['freshness', { column: 'loaded_at', maxDelaySeconds: 7200 }, { freshnessTest: { timePartitionColumnName: 'loaded_at', timeWindowSeconds: '7200' } }],
  ['minMax', { column: 'q', min: -1, max: 100.5 }, { minMaxTest: { columnName: 'q', minValue: { expression: '-1' }, maxValue: { expression: '100.5' } } }],
  ['relativeTime', { column: 'shipped', relativeColumn: 'ordered' }, { relativeTimeTest: { columnName: 'shipped', relativeColumnName: 'ordered' } }],
  ['businessRule', { sqlExpression: 'q < 0' }, { businessRuleTest: { sqlExpression: 'q < 0' } }],
  ['minValue', { column: 'q', value: 0 }, { minValueTest: { columnName: 'q', minValue: { expression: '0' } } }],
  ['maxValue', { column: 'q', value: 10 }, { maxValueTest: { columnName: 'q', maxValue: { expression: '10' } } }],
  [
    'relationships',
    { column: 'product_id', targetTable: 'wh::mart::dim_products', targetColumn: 'id' },
    { relationshipsTest: { references: [{ entity: { platformPath: { path: 'wh::mart::dim_products' } }, columns: [{ source: 'product_id', reference: 'id' }] }] } },
  ],
  ['businessQuery', { sqlQuery: 'select 1' }, { businessQueryTest: { sqlQuery: 'select 1' } }],
];

test('the table covers every kind dqform declares', () => {
  expect(KINDS.map(([k]) => k).sort()).toEqual([...TEST_KINDS].sort());
  expect(Object.keys(templateTests).sort()).toEqual([...TEST_KINDS].sort());
});

describe.each(KINDS)('%s', (kind, body, wire) => {
  test('a SQL test\'s template goes as the platform\'s message, the write schema accepts it, and it reads back as declared', () => {
    const test = { id: 't', name: 'n', template: { identifier: ORDERS, [kind]: body } };
    const sent = sqlTestToWire(test);
    expect(sent).toEqual({ id: 't', name: 'n', template: { identifier: ORDERS, ...wire } });
    expect(SqlTestWrite.safeParse(sent).success).toBe(true);
    expect(sqlTestFromWire(sent)).toEqual({ value: test, problems: [] });
  });

  test('a rule test goes the same way (RuleTest), and reads back', () => {
    const rule = { id: 'r', staticConfig: { path: 'a::b', tests: [{ name: 'n', severity: 'SEVERITY_ERROR', [kind]: body }] } };
    const sent = sqlTestRuleToWire(rule);
    expect((sent.staticConfig as { tests: unknown[] }).tests).toEqual([{ name: 'n', severity: 'SEVERITY_ERROR', ...wire }]);
    expect(WireRuleTest.safeParse((sent.staticConfig as { tests: unknown[] }).tests[0]).success).toBe(true);
    expect(sqlTestRuleFromWire(sent)).toEqual({ value: rule, problems: [] });
  });
});

describe('reads: what the gateway may send that dqform models (zeros and int64 forms read as absent or as numbers)', () => {
  test.each([
    { reason: 'emit-unpopulated zeros: empty selectColumns, strictly false, an unset SqlValue field ""', msg: { minValueTest: { columnName: 'q', minValue: { stringLiteral: '', expression: '3' }, strictly: false, selectColumns: [] } }, body: { minValue: { column: 'q', value: 3 } } },
    { reason: 'int64 as a JSON number (also valid proto3 JSON)', msg: { freshnessTest: { timePartitionColumnName: 'ts', timeWindowSeconds: 60 } }, body: { freshness: { column: 'ts', maxDelaySeconds: 60 } } },
    { reason: 'int64 zero as "0" reads as absent', msg: { freshnessTest: { timePartitionColumnName: 'ts', timeWindowSeconds: '0' } }, body: { freshness: { column: 'ts' } } },
    { reason: 'a unique test with an unset window (zeros)', msg: { uniqueTest: { columnNames: ['id'], timePartitionColumnName: '', timeWindowSeconds: '0' } }, body: { unique: { columns: ['id'] } } },
    { reason: 'a relationships test with ignoreNulls false and no window', msg: { relationshipsTest: { references: [{ entity: { platformPath: { path: 'a::b' } }, columns: [{ source: 'x', reference: 'y' }] }], ignoreNulls: false, timePartitionColumn: '', timeWindowSeconds: '0', selectColumns: [] } }, body: { relationships: { column: 'x', targetTable: 'a::b', targetColumn: 'y' } } },
  ])('$reason', ({ msg, body }) => {
    const problems: string[] = [];
    expect(testFromWire({ name: 'n', ...msg }, 'tests[0]', problems)).toEqual({ name: 'n', ...body });
    expect(problems).toEqual([]);
  });
});

describe('reads: what dqform does not model is reported, and the message kept as read', () => {
  test.each([
    { reason: 'selectColumns set', msg: { notNullTest: { columnNames: ['id'], selectColumns: ['id', 'name'] } }, problem: 'unknown field t.notNullTest.selectColumns' },
    { reason: 'a numeric bound written as a string literal', msg: { minMaxTest: { columnName: 'q', minValue: { stringLiteral: '0' }, maxValue: { expression: '1' } } }, problem: 't.minMaxTest.minValue is not a number' },
    { reason: 'a bound that is an SQL expression, not a number', msg: { maxValueTest: { columnName: 'q', maxValue: { expression: 'current_date' } } }, problem: 't.maxValueTest.maxValue is not a number' },
    { reason: 'strict bounds', msg: { minValueTest: { columnName: 'q', minValue: { expression: '0' }, strictly: true } }, problem: 'unknown field t.minValueTest.strictly' },
    { reason: 'an accepted value that is an expression', msg: { acceptedValuesTest: { columnName: 's', acceptedValues: [{ stringLiteral: 'a' }, { expression: 'upper(x)' }] } }, problem: 't.acceptedValuesTest.acceptedValues[1] is not a string literal' },
    { reason: 'a unique test with a time window', msg: { uniqueTest: { columnNames: ['id'], timePartitionColumnName: 'day', timeWindowSeconds: '86400' } }, problem: 'unknown field t.uniqueTest.timePartitionColumnName' },
    { reason: 'a reference by a table identifier, not a platform path', msg: { relationshipsTest: { references: [{ entity: ORDERS, columns: [{ source: 'x', reference: 'y' }] }] } }, problem: 't.relationshipsTest.references holds what this version does not model' },
    { reason: 'two column pairs', msg: { relationshipsTest: { references: [{ entity: { platformPath: { path: 'a' } }, columns: [{ source: 'x', reference: 'y' }, { source: 'x2', reference: 'y2' }] }] } }, problem: 't.relationshipsTest.references holds' },
    { reason: 'ignoreNulls set', msg: { relationshipsTest: { references: [{ entity: { platformPath: { path: 'a' } }, columns: [{ source: 'x', reference: 'y' }] }], ignoreNulls: true } }, problem: 'unknown field t.relationshipsTest.ignoreNulls' },
    { reason: 'a field newer than this version', msg: { businessRuleTest: { sqlExpression: 'x', samplingRate: 5 } }, problem: 'unknown field t.businessRuleTest.samplingRate' },
  ])('$reason', ({ msg, problem }) => {
    const problems: string[] = [];
    const read = testFromWire({ name: 'n', ...msg }, 't', problems);
    expect(read).toEqual({ name: 'n', ...msg });
    expect(problems.join('; ')).toContain(problem);
  });

  test('a test kind this version does not know is copied as read (the response schema reports it as an unknown variant)', () => {
    const problems: string[] = [];
    expect(testFromWire({ countDistinctTest: { columnName: 'x' } }, 't', problems)).toEqual({ countDistinctTest: { columnName: 'x' } });
    expect(problems).toEqual([]);
  });
});

describe('writes: what has no counterpart on the wire is refused, naming the field', () => {
  test('freshness timePartition: refused by validate (the user schema) and by the mapping', () => {
    const bad = { column: 'ts', timePartition: 'day', maxDelaySeconds: 60 };
    const r = templateTests.freshness.safeParse(bad);
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]).toMatchObject({ path: ['timePartition'], message: expect.stringContaining('no counterpart') });
    expect(() => testToWire({ freshness: bad }, 'tests[2]')).toThrow(TestMappingError);
    expect(() => testToWire({ freshness: bad }, 'tests[2]')).toThrow('tests[2].freshness.timePartition: has no counterpart');
  });

  test('the old inner keys are not the platform\'s: the write schema refuses them', () => {
    expect(SqlTestWrite.safeParse({ id: 't', name: 'n', template: { identifier: ORDERS, notNullTest: { columns: ['id'] } } }).success).toBe(false);
    expect(WireRuleTest.safeParse({ name: 'n', freshnessTest: { column: 'ts', maxDelaySeconds: 5 } }).success).toBe(false);
  });
});
