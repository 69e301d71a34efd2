/**
 * Redaction of credentials in anything dqform prints, logs or serialises.
 *
 * Two layers:
 * - values registered with {@link registerSecret} (the client secret, every access token the
 *   client receives, integration passwords a handler sends) are replaced wherever the whole value
 *   occurs, never as part of a longer word: a secret `pass` is masked in `pass` and `x=pass&`,
 *   not in `password` or `compass` (a secret equal to a common word does not mangle the words that
 *   contain it). Where the value starts or ends with a letter, digit or `_`, the text next to it
 *   must not be one; an escape right before it (`\n`, `\u0022`, `%22`) counts as a boundary, so a
 *   secret inside an escaped JSON or URL-encoded string is still masked;
 * - well-known shapes are masked even when their value was never registered:
 *   `Authorization: Bearer …`, `Bearer …`, and `key=value` / `"key": "value"` pairs whose key
 *   is in {@link SENSITIVE_KEYS}.
 *
 * The registry is process-wide on purpose: any module (client, handlers, CLI renderers) can
 * redact text without holding a reference to the client.
 */

/** The replacement text. */
export const REDACTED = '[REDACTED]';

/** Keys whose values are always masked (compared case-insensitively, `_`/`-` ignored). */
export const SENSITIVE_KEYS: readonly string[] = [
  'authorization',
  'client_secret',
  'access_token',
  'refresh_token',
  'id_token',
  'password',
  'privateKey',
  'private_key',
  'serviceAccountKey',
  'apiKey',
  'api_key',
  'secret',
  'token',
];

const normKey = (k: string): string => k.toLowerCase().replace(/[_-]/g, '');
const SENSITIVE = new Set(SENSITIVE_KEYS.map(normKey));

/**
 * Secrets shorter than this are not registered: even as whole words, masking every "a" or "ok"
 * would garble output, and a credential of one to three characters protects nothing.
 */
const MIN_SECRET_LENGTH = 4;

const secrets = new Set<string>();
let ordered: string[] = [];

/**
 * Registers a value that must never appear in output. Values shorter than four characters
 * are ignored. Also registers the value's URL-encoded form (it may appear in a form body).
 */
export function registerSecret(value: string | undefined | null): void {
  if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH) return;
  const before = secrets.size;
  secrets.add(value);
  const enc = encodeURIComponent(value);
  if (enc !== value) secrets.add(enc);
  const json = JSON.stringify(value).slice(1, -1);
  if (json !== value) secrets.add(json);
  if (secrets.size !== before) ordered = [...secrets].sort((a, b) => b.length - a.length);
}

/** Forgets a registered secret (tests; a token that was replaced may stay registered). */
export function unregisterSecret(value: string): void {
  for (const v of [value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)]) secrets.delete(v);
  ordered = [...secrets].sort((a, b) => b.length - a.length);
}

/** True when a key names a credential (`client_secret`, `password`, `Authorization`, ...). */
export function isSensitiveKey(key: string): boolean {
  return SENSITIVE.has(normKey(key));
}

const KEY_ALT = SENSITIVE_KEYS.map((k) => k.replace(/[_-]/g, '[_-]?')).join('|');
// "key": "value"  (JSON, possibly escaped inside another JSON string)
const JSON_PAIR = new RegExp(`((?:\\\\?")(?:${KEY_ALT})(?:\\\\?")\\s*:\\s*(?:\\\\?"))((?:[^"\\\\]|\\\\(?!"))*)`, 'gi');
// key=value (form bodies, query strings)
const FORM_PAIR = new RegExp(`((?:^|[?&\\s;,])(?:${KEY_ALT})=)([^&\\s;,"']*)`, 'gi');
// Authorization: <scheme> <value> / Bearer <value>
const AUTH_HEADER = /(authorization\s*[:=]\s*)(?:(bearer|basic)\s+)?[^\s,;"'}]+/gi;
const BEARER = /(\bbearer\s+)[A-Za-z0-9._~+/=-]+/gi;

const WORD = /[A-Za-z0-9_]/;
/** An escape that ends right before a value: `\n` (JSON), `\u0022`, `%22` (URL encoding). */
const ESCAPE_BEFORE = /(?:\\[nrtbf"/\\]|\\u[0-9A-Fa-f]{4}|%[0-9A-Fa-f]{2})$/;

/** `text` with every whole occurrence of `secret` (not part of a longer word) replaced. */
function maskWhole(text: string, secret: string): string {
  const wordStart = WORD.test(secret[0]);
  const wordEnd = WORD.test(secret[secret.length - 1]);
  let out = '';
  let from = 0;
  for (let i = text.indexOf(secret); i >= 0; i = text.indexOf(secret, i + 1)) {
    if (i < from) continue;
    const end = i + secret.length;
    const left = !wordStart || i === 0 || !WORD.test(text[i - 1]) || ESCAPE_BEFORE.test(text.slice(Math.max(0, i - 6), i));
    const right = !wordEnd || end === text.length || !WORD.test(text[end]);
    if (!left || !right) continue;
    out += text.slice(from, i) + REDACTED;
    from = end;
  }
  return out + text.slice(from);
}

/** Returns `text` with every registered secret and every credential-shaped value masked. */
export function redact(text: string): string {
  if (typeof text !== 'string' || text.length === 0) return text;
  let out = text;
  for (const s of ordered) if (out.includes(s)) out = maskWhole(out, s);
  out = out.replace(AUTH_HEADER, (_m, pre: string, scheme?: string) => `${pre}${scheme ? `${scheme} ` : ''}${REDACTED}`);
  out = out.replace(BEARER, `$1${REDACTED}`);
  out = out.replace(JSON_PAIR, (_m, pre: string) => `${pre}${REDACTED}`);
  out = out.replace(FORM_PAIR, (_m, pre: string) => `${pre}${REDACTED}`);
  return out;
}

/**
 * Deep copy of a JSON-like value with sensitive keys masked and every string passed through
 * {@link redact}. Cycles are cut.
 */
export function redactValue<T>(value: T): T {
  const seen = new WeakSet<object>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redact(v);
    if (v === null || typeof v !== 'object') return v;
    if (seen.has(v)) return '[Circular]';
    seen.add(v);
    if (Array.isArray(v)) return v.map(walk);
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = isSensitiveKey(k) && x !== undefined && x !== '' ? REDACTED : walk(x);
    return out;
  };
  return walk(value) as T;
}

/** Headers with credential-bearing values masked, for logs and errors. */
export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const k of Object.keys(headers).sort()) {
    const v = headers[k];
    if (v === undefined) continue;
    out[k] = isSensitiveKey(k) || /cookie/i.test(k) ? REDACTED : Array.isArray(v) ? v.map(redact) : redact(v);
  }
  return out;
}
