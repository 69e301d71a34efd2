/**
 * The client's small parts, each on its own: the concurrency limiter, the fail-fast counter,
 * paging and batching helpers, and forgetting a secret. (Written for the survivors and uncovered
 * mutants of the full mutation run of src/client, issue 12.)
 */
import {
  ApiError,
  batched,
  BatchItemsError,
  chunk,
  Limiter,
  listAll,
  orThrow,
  PaginationLoopError,
  PlatformUnreachableError,
  Reachability,
  redact,
  registerSecret,
  unregisterSecret,
  redactHeaders,
  encodeQuery,
  errorFromResponse,
} from '../../src/client';

describe('Limiter', () => {
  test.each([[0], [-1], [1.5], [Number.NaN]])('a limit of %p is refused', (limit) => {
    expect(() => new Limiter(limit)).toThrow(new RangeError(`limit must be a positive integer, got ${limit}`));
  });

  test('at most `limit` at once, the rest in FIFO order; pending counts the waiters', async () => {
    const l = new Limiter(2);
    const started: number[] = [];
    const release: (() => void)[] = [];
    const tasks = [0, 1, 2, 3].map((i) =>
      l.run(
        () =>
          new Promise<number>((r) => {
            started.push(i);
            release[i] = () => r(i);
          }),
      ),
    );
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1]);
    expect(l.pending).toBe(2);
    release[1]();
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2]);
    expect(l.pending).toBe(1);
    release[0]();
    release[2]();
    await new Promise((r) => setImmediate(r));
    release[3]();
    await expect(Promise.all(tasks)).resolves.toEqual([0, 1, 2, 3]);
    expect(l.peak).toBe(2);
    expect(l.pending).toBe(0);
  });

  test('a failing task frees its slot', async () => {
    const l = new Limiter(1);
    await expect(l.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(l.run(() => Promise.resolve('next'))).resolves.toBe('next');
  });
});

describe('Reachability', () => {
  const refused = () => new ApiError({ method: 'GET', path: '/p', status: 0, cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }) });

  test('gone after N connect failures spanning afterMs: one line naming where, how many, how long and why', () => {
    let t = 1000;
    const r = new Reachability('http://127.0.0.1:9', { failures: 3, afterMs: 2000, now: () => t });
    expect(r.failure(refused(), 'GET', '/a')).not.toBeInstanceOf(PlatformUnreachableError);
    t += 1000;
    expect(r.failure(refused(), 'GET', '/a')).not.toBeInstanceOf(PlatformUnreachableError);
    t += 1500;
    const gone = r.failure(refused(), 'POST', '/b');
    expect(gone).toBeInstanceOf(PlatformUnreachableError);
    const text = 'the platform at http://127.0.0.1:9 is not answering: 3 connection attempts in a row failed over 2.5s (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9)';
    expect(gone.message).toBe(text);
    expect(gone.method).toBe('POST');
    expect(gone.path).toBe('/b');
    expect(gone.grpcCode).toBe('UNAVAILABLE');
    expect(gone.retryable).toBe(false);
    // from now on every call fails at once, with the same line
    let checked: unknown;
    try {
      r.check('GET', '/c');
    } catch (e) {
      checked = e;
    }
    expect(checked).toBeInstanceOf(PlatformUnreachableError);
    expect((checked as Error).message).toBe(text);
    expect((checked as ApiError).path).toBe('/c');
    const later = r.failure(new ApiError({ method: 'GET', path: '/d', status: 503 }), 'GET', '/d');
    expect(later).toBeInstanceOf(PlatformUnreachableError);
    expect(later.message).toBe(text);
    expect(later.grpcCode).toBe('UNAVAILABLE');
  });

  test('not gone before afterMs, however many failures; an answer resets the count', () => {
    let t = 0;
    const r = new Reachability('x', { failures: 2, afterMs: 2000, now: () => t });
    for (let i = 0; i < 5; i++) expect(r.failure(refused(), 'GET', '/a')).not.toBeInstanceOf(PlatformUnreachableError);
    r.success();
    t = 10_000;
    expect(r.failure(refused(), 'GET', '/a')).not.toBeInstanceOf(PlatformUnreachableError);
    expect(() => r.check('GET', '/a')).not.toThrow();
  });

  test('the boundaries: exactly N failures over exactly afterMs is gone; one fewer failure is not', () => {
    let t = 0;
    const r = new Reachability('x', { failures: 2, afterMs: 1000, now: () => t });
    expect(r.failure(refused(), 'GET', '/a')).not.toBeInstanceOf(PlatformUnreachableError);
    t = 1000;
    expect(r.failure(refused(), 'GET', '/a')).toBeInstanceOf(PlatformUnreachableError);
    const one = new Reachability('x', { failures: 2, afterMs: 0, now: () => 5 });
    expect(one.failure(refused(), 'GET', '/a')).not.toBeInstanceOf(PlatformUnreachableError);
  });

  test('failures that are not connect failures do not count', () => {
    let t = 0;
    const r = new Reachability('x', { failures: 1, afterMs: 0, now: () => t++ });
    const dropped = new ApiError({ method: 'GET', path: '/p', status: 0, cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
    expect(r.failure(dropped, 'GET', '/p')).toBe(dropped);
    expect(r.failure(new ApiError({ method: 'GET', path: '/p', status: 503 }), 'GET', '/p')).not.toBeInstanceOf(PlatformUnreachableError);
    expect(() => r.check('GET', '/p')).not.toThrow();
  });
});

describe('paging and batching', () => {
  test('maxPages stops a server that never ends', async () => {
    let n = 0;
    const err = await listAll(async () => ({ items: [n], pageInfo: { lastId: `c${n++}` } }), { maxPages: 3 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PaginationLoopError);
    expect((err as Error).message).toBe('the server kept paging: a list passed 3 pages, each with a new cursor, and was stopped (the server\'s paging is broken, not dqform)');
    expect(n).toBe(3);
  });

  test('the page size is passed on, the cursor is the last page\'s lastId', async () => {
    const asked: unknown[] = [];
    const pages = [{ items: [1, 2], pageInfo: { lastId: 'b' } }, { items: [3], pageInfo: {} }];
    await expect(listAll(async (p) => (asked.push(p), pages[asked.length - 1]), { pageSize: 2 })).resolves.toEqual([1, 2, 3]);
    expect(asked).toEqual([{ cursor: undefined, pageSize: 2 }, { cursor: 'b', pageSize: 2 }]);
  });

  test.each([[0], [-2], [2.5]])('a chunk size of %p is refused', (size) => {
    expect(() => chunk([1, 2, 3], size)).toThrow(new RangeError(`chunk size must be a positive integer, got ${size}`));
  });

  test('chunks of at most the size, in order', () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunk([], 2)).toEqual([]);
    expect(chunk(Array.from({ length: 201 }, (_, i) => i)).map((c) => c.length)).toEqual([200, 1]);
  });

  test('BatchItemsError: ten errors shown, the rest counted; no items by default; JSON', () => {
    const errors = Array.from({ length: 12 }, (_, i) => ({ id: `id${i}`, reason: `r${i}` }));
    const e = new BatchItemsError(errors);
    expect(e.message).toBe(`12 item(s) of a batch failed: ${errors.slice(0, 10).map((x) => `${x.id}: ${x.reason}`).join('; ')}; and 2 more`);
    expect(e.items).toEqual([]);
    expect(e.toJSON()).toEqual({ errors, message: e.message, name: 'BatchItemsError' });
    const ten = new BatchItemsError(errors.slice(0, 10), ['ok']);
    expect(ten.message).toBe(`10 item(s) of a batch failed: ${errors.slice(0, 10).map((x) => `${x.id}: ${x.reason}`).join('; ')}`);
    expect(ten.items).toEqual(['ok']);
  });

  test('batched: chunks in input order, per-item errors collected, thrown only when asked', async () => {
    const call = async (c: number[]) => ({ items: c.filter((x) => x % 3 !== 0).map((x) => x * 10), errors: c.filter((x) => x % 3 === 0).map((x) => ({ id: String(x), reason: 'no' })) });
    const inputs = [1, 2, 3, 4, 5, 6, 7];
    await expect(batched(inputs, call, { limit: 2, concurrency: 3 })).resolves.toEqual({ items: [10, 20, 40, 50, 70], errors: [{ id: '3', reason: 'no' }, { id: '6', reason: 'no' }] });
    const thrown = await batched(inputs, call, { limit: 2, throwOnItemErrors: true }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(BatchItemsError);
    expect((thrown as BatchItemsError).items).toEqual([10, 20, 40, 50, 70]);
    await expect(batched([1, 2], call, { throwOnItemErrors: true })).resolves.toEqual({ items: [10, 20], errors: [] });
    await expect(batched([], call)).resolves.toEqual({ items: [], errors: [] });
  });

  test('orThrow returns the items, or throws with every error and what did succeed', () => {
    expect(orThrow({ items: [1], errors: [] })).toEqual([1]);
    const e = (() => {
      try {
        orThrow({ items: [1], errors: [{ id: 'a', reason: 'bad' }] });
      } catch (x) {
        return x as BatchItemsError;
      }
      throw new Error('expected a throw');
    })();
    expect(e.errors).toEqual([{ id: 'a', reason: 'bad' }]);
    expect(e.items).toEqual([1]);
  });
});

describe('secrets', () => {
  test('unregisterSecret forgets the value and its URL and JSON encodings; longer secrets are masked first', () => {
    const s = 'forget me/"now"';
    registerSecret(s);
    registerSecret('forget me/"now" and more');
    expect(redact(`a ${s} b ${encodeURIComponent(s)} c ${JSON.stringify(s)}`)).toBe('a [REDACTED] b [REDACTED] c "[REDACTED]"');
    expect(redact('x forget me/"now" and more y')).toBe('x [REDACTED] y');
    unregisterSecret('forget me/"now" and more');
    unregisterSecret(s);
    expect(redact(`a ${s} b ${encodeURIComponent(s)} c ${JSON.stringify(s).slice(1, -1)}`)).toBe(`a ${s} b ${encodeURIComponent(s)} c ${JSON.stringify(s).slice(1, -1)}`);
  });
});

describe('small outputs', () => {
  test('redactHeaders: keys sorted, credentials and cookies masked, undefined left out, lists kept', () => {
    const out = redactHeaders({ 'x-b': 'b', authorization: 'Bearer abc.def', cookie: 'sid=1', 'set-cookie': ['a=1'], 'x-a': ['1', '2'], gone: undefined });
    expect(out).toEqual({ authorization: '[REDACTED]', cookie: '[REDACTED]', 'set-cookie': '[REDACTED]', 'x-a': ['1', '2'], 'x-b': 'b' });
    expect(Object.keys(out)).toEqual(['authorization', 'cookie', 'set-cookie', 'x-a', 'x-b']);
  });

  test('encodeQuery skips undefined and null, also inside lists', () => {
    expect(encodeQuery({ b: [1, null, undefined, 2], a: null, c: undefined, d: { e: undefined, f: 'x' } })).toBe('?b=1&b=2&d.f=x');
    expect(encodeQuery({ a: undefined })).toBe('');
    expect(encodeQuery([])).toBe('');
    expect(encodeQuery([['k', 'v w']])).toBe('?k=v%20w');
  });

  test('an AlreadyExistsError is named so', () => {
    const e = errorFromResponse({ method: 'post', path: '/p', status: 409, headers: {}, body: JSON.stringify({ code: 6, message: 'taken', details: [] }) });
    expect(e.name).toBe('AlreadyExistsError');
    expect(e.toJSON().name).toBe('AlreadyExistsError');
  });
});
