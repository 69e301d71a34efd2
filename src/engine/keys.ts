/** Key conversion between Terraform's snake_case attributes and the API's lowerCamelCase. */

/** `recipient_emails` -> `recipientEmails`; keys already in camelCase are unchanged. */
export function snakeToCamel(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** `recipientEmails` -> `recipient_emails`. */
export function camelToSnake(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** Converts every object key, at every depth, with `f`. Arrays and scalars keep their values. */
export function mapKeysDeep(value: unknown, f: (k: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => mapKeysDeep(v, f));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[f(k)] = mapKeysDeep(v, f);
    return out;
  }
  return value;
}

/** Deterministic JSON: object keys sorted at every depth. */
export function sortKeysDeep<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => sortKeysDeep(v)) as unknown as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value as Record<string, unknown>).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = sortKeysDeep(v);
    }
    return out as T;
  }
  return value;
}

export function stableStringify(value: unknown, indent?: number): string {
  return JSON.stringify(sortKeysDeep(value), null, indent);
}
