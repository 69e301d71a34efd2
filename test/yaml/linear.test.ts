/**
 * The YAML front end is linear in the file's size, and refuses files over MAX_YAML_BYTES
 * unread. Measured by counting, not timing: every read of a mapping pair's key (by the yaml
 * library or by dqform) and every key comparison of the library's duplicate-key check is
 * counted over a workspace of N owners. Before, locating each entry scanned its section
 * (N²/2 key reads) and the library's `uniqueKeys` compared each key with every earlier one
 * (N²/2 comparisons): 40,000 owners took 14 s.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isPair, visit, type Document } from 'yaml';
import { ManifestError } from '../../src/engine/manifest';
import { loadYamlWorkspace, manifestFromYaml, MAX_YAML_BYTES } from '../../src/engine/yaml';

const counts = { keyReads: 0, keyComparisons: 0 };

jest.mock('yaml', () => {
  const actual = jest.requireActual('yaml');
  return {
    ...actual,
    parseDocument: (text: string, options: Record<string, unknown> = {}) => {
      // the library's duplicate-key check: default (or true) compares scalar keys by value; count each comparison
      const uniqueKeys = options.uniqueKeys ?? true;
      const counted =
        uniqueKeys === true
          ? (a: unknown, b: unknown) => {
              counts.keyComparisons++;
              return a === b || (actual.isScalar(a) && actual.isScalar(b) && (a as { value: unknown }).value === (b as { value: unknown }).value);
            }
          : uniqueKeys;
      const doc = actual.parseDocument(text, { ...options, uniqueKeys: counted }) as Document;
      // every later read of a pair's key is counted
      actual.visit(doc, {
        Pair(_k: unknown, pair: { key: unknown }) {
          let key = pair.key;
          Object.defineProperty(pair, 'key', {
            get: () => {
              counts.keyReads++;
              return key;
            },
            set: (v) => {
              key = v;
            },
          });
        },
      });
      return doc;
    },
  };
});

// readFileSync is counted, to show that a file over the limit is refused unread
jest.mock('node:fs', () => {
  const actual = jest.requireActual('node:fs');
  return { ...actual, readFileSync: jest.fn(actual.readFileSync) };
});

function owners(n: number): string {
  let t = 'namespace: shop\nowners:\n';
  for (let i = 0; i < n; i++) t += `  o${i}: { title: Owner ${i} }\n`;
  return t;
}

test('the mock counts key reads and comparisons (the instrument works)', () => {
  const doc = jest.requireMock<typeof import('yaml')>('yaml').parseDocument('a: 1\nb: 2\n');
  counts.keyReads = 0;
  let pairs = 0;
  visit(doc, {
    Pair(_k, p) {
      if (isPair(p) && p.key) pairs++;
    },
  });
  expect(pairs).toBe(2);
  expect(counts.keyReads).toBeGreaterThanOrEqual(2);
});

test('loading N owners reads keys and compares them a number of times linear in N (not N²)', () => {
  const n = 3000;
  counts.keyReads = 0;
  counts.keyComparisons = 0;
  const m = manifestFromYaml(owners(n), { file: 'w.yaml' });
  expect(m.resources).toHaveLength(n);
  // every key is read a few times (parse to JS, the duplicate check, the locator's index): a
  // small constant per key; a scan per entry would be about n * n / 2 = 4,500,000
  expect(counts.keyReads).toBeLessThan(20 * n);
  expect(counts.keyComparisons).toBeLessThan(20 * n);
});

test('locating every entry for its diagnostic costs a constant number of key reads per entry (one index per mapping, not a scan per lookup)', () => {
  const n = 2000;
  // every owner has an unknown field, so every entry is located (at its key and at the field)
  let t = 'namespace: shop\nowners:\n';
  for (let i = 0; i < n; i++) t += `  o${i}: { title: Owner ${i}, colour: red }\n`;
  counts.keyReads = 0;
  let diags: ManifestError['diagnostics'] = [];
  try {
    manifestFromYaml(t, { file: 'w.yaml' });
  } catch (e) {
    if (!(e instanceof ManifestError)) throw e;
    diags = e.diagnostics;
  }
  expect(diags).toHaveLength(n);
  expect(diags[n - 1]).toMatchObject({ summary: 'unknown field "colour" in owners.o1999', source: `w.yaml:${n + 2}:31` });
  // about 29 reads per owner (3 keys each, each read by parse, checks and locator a few times); a
  // scan of the section per located entry would be n * n / 2 = 2,000,000
  expect(counts.keyReads).toBeLessThan(50 * n);
});

describe('duplicate keys are still refused, each at the repeated key, in document order', () => {
  test.each([
    ['a block mapping', 'namespace: a\nowners:\n  t: { title: A }\n  u: { title: B }\n  t: { title: C }\n', ['w.yaml:5:3']],
    ['a flow mapping', 'namespace: a\nowners:\n  t: { title: A, title: B }\n', ['w.yaml:3:18']],
    ['several, sorted by position', 'namespace: a\nnamespace: b\nowners:\n  t: { title: A, title: B }\n', ['w.yaml:2:1', 'w.yaml:4:18']],
    ['1 and "1" are different keys, as the library compares them', 'namespace: a\nowners:\n  t: { title: A }\nx:\n  1: a\n  "1": b\n', []],
  ])('%s', (_why, text, where) => {
    let found: string[] = [];
    try {
      manifestFromYaml(text, { file: 'w.yaml' });
    } catch (e) {
      if (!(e instanceof ManifestError)) throw e;
      found = e.diagnostics.filter((d) => d.summary === 'YAML: Map keys must be unique').map((d) => d.source ?? '');
    }
    expect(found).toEqual(where);
  });
});

describe(`files over MAX_YAML_BYTES (${MAX_YAML_BYTES}) are refused`, () => {
  test('the limit is 5 MiB', () => {
    expect(MAX_YAML_BYTES).toBe(5 * 1024 * 1024);
  });

  test('text one byte over the limit (in UTF-8 bytes) is a clear error, before parsing', () => {
    const text = `namespace: a\n#${'é'.repeat(Math.ceil(MAX_YAML_BYTES / 2))}\n`;
    expect(text.length).toBeLessThan(MAX_YAML_BYTES);
    let err: unknown;
    try {
      manifestFromYaml(text, { file: 'w.yaml' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ManifestError);
    expect((err as ManifestError).diagnostics).toEqual([
      {
        severity: 'error',
        summary: `YAML: w.yaml is too large (${Buffer.byteLength(text)} bytes; the limit is 5242880 = 5 MiB): refused unread`,
        source: 'w.yaml',
        hint: 'Split the workspace into several stacks (one dqform.yaml each), or use the CDKTF front end.',
      },
    ]);
  });

  test('a file at the limit is read', () => {
    const head = 'namespace: a\n#';
    const text = `${head}${'x'.repeat(MAX_YAML_BYTES - head.length - 1)}\n`;
    expect(Buffer.byteLength(text)).toBe(MAX_YAML_BYTES);
    expect(manifestFromYaml(text, { file: 'w.yaml' }).namespace).toBe('a');
  });

  test('a 50 MB file is refused without being read', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-yaml-big-'));
    const file = path.join(dir, 'dqform.yaml');
    try {
      fs.writeFileSync(file, 'namespace: a\n');
      fs.truncateSync(file, 50 * 1024 * 1024); // sparse: no 50 MB written
      const read = fs.readFileSync as unknown as jest.Mock;
      read.mockClear();
      let err: unknown;
      try {
        loadYamlWorkspace(file, undefined, { cwd: dir });
      } catch (e) {
        err = e;
      }
      const reads = read.mock.calls.filter(([f]) => f === file).length;
      expect(reads).toBe(0);
      expect((err as ManifestError).diagnostics[0].summary).toBe('YAML: dqform.yaml is too large (52428800 bytes; the limit is 5242880 = 5 MiB): refused unread');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
