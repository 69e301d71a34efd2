/**
 * Write-only secrets of integrations (Terraform's write-only arguments): code holds a reference
 * (`{ fromEnv: NAME }` or `{ fromFile: PATH }`) and a version counter (`passwordVersion`); the
 * value is read at apply time only, registered for redaction before use, and sent only when the
 * plan says so (create, a changed version, `--replace`). References never enter the plan: the
 * plan holds versions; apply finds the references of the code it planned from in this process
 * ({@link bindSecretRefs}, called by plan for the declared resources).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SecretRef, versionField } from '../../../schemas/model/kinds/integrations';
import { SECRET_FIELDS } from '../../../schemas/platform/integrations';
import { registerSecret } from '../../client/redact';
import { DqformError } from '../../../schemas/tools/errors';

type Json = Record<string, unknown>;
const SECRETS: ReadonlySet<string> = new Set(SECRET_FIELDS);
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A secret declared in code: its path in the config variant (`keyPair.privateKeySecret`), reference and version. */
export interface DeclaredSecret {
  path: string;
  ref: SecretRef;
  version: number;
}

/** The secrets a desired config variant declares, by path, in path order. */
export function declaredSecrets(variant: unknown, prefix = ''): DeclaredSecret[] {
  if (!isObj(variant)) return [];
  const out: DeclaredSecret[] = [];
  for (const k of Object.keys(variant).sort()) {
    const v = variant[k];
    const path = prefix ? `${prefix}.${k}` : k;
    if (SECRETS.has(k)) {
      if (isObj(v)) {
        const version = variant[versionField(k)];
        out.push({ path, ref: v as SecretRef, version: typeof version === 'number' ? version : 1 });
      }
    } else if (isObj(v)) out.push(...declaredSecrets(v, path));
  }
  return out;
}

/** `variant` without secret fields and their version counters (at any depth). */
export function withoutSecrets(variant: unknown): unknown {
  if (Array.isArray(variant)) return variant.map(withoutSecrets);
  if (!isObj(variant)) return variant;
  const out: Json = {};
  for (const [k, v] of Object.entries(variant)) {
    if (SECRETS.has(k) || (k.endsWith('Version') && SECRETS.has(k.slice(0, -'Version'.length)))) continue;
    out[k] = withoutSecrets(v);
  }
  return out;
}

/** Sets `value` at the dotted `path` of `o` (creating objects on the way). */
export function setPath(o: Json, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur = o;
  for (const p of parts.slice(0, -1)) {
    if (!isObj(cur[p])) cur[p] = {};
    cur = cur[p] as Json;
  }
  cur[parts[parts.length - 1]] = value;
}

/**
 * A secret's reference cannot be read at apply: the environment variable is not set, or the file
 * cannot be read or is empty. The message names the address, the field and the source (never a
 * value) and what to do.
 */
export class SecretUnreadableError extends DqformError {
  static override readonly code: string = 'write.secret';
  override readonly name = 'SecretUnreadableError';
}

/** Apply has no secret references for an address: this process did not plan it from the code. */
export class SecretRefsUnknownError extends DqformError {
  static override readonly code: string = 'write.secret-refs';
  override readonly name = 'SecretRefsUnknownError';
}

/** How a reference is named in messages (never the value). */
export function describeRef(ref: SecretRef): string {
  return ref.fromEnv !== undefined ? `environment variable ${ref.fromEnv}` : `file ${JSON.stringify(ref.fromFile)}`;
}

/**
 * The value of a reference, registered for redaction before it is returned: a variable of `env`,
 * or a file (a relative path: relative to `cwd`). Throws an error naming the address, the field
 * and the variable or file as written (never a value) when it cannot be read.
 */
export function readSecret(ref: SecretRef, where: string, env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  let value: string | undefined;
  if (ref.fromEnv !== undefined) {
    value = env[ref.fromEnv];
    if (value === undefined || value === '') throw new SecretUnreadableError(`${where}: environment variable ${ref.fromEnv} is not set; set it to the secret before apply (dqform reads it only then)`);
  } else {
    try {
      value = readFileSync(resolve(cwd, ref.fromFile!), 'utf8').replace(/\r?\n$/, '');
    } catch (e) {
      throw new SecretUnreadableError(`${where}: cannot read file ${JSON.stringify(ref.fromFile)} (${(e as NodeJS.ErrnoException).code ?? 'error'}); give the path of the file holding the secret (relative to the current directory)`);
    }
    if (value === '') throw new SecretUnreadableError(`${where}: file ${JSON.stringify(ref.fromFile)} is empty`, { hint: 'Write the secret into the file (one trailing newline is dropped).' });
  }
  registerSecret(value);
  return value;
}

/** References of the resources plan saw last, by namespace and address (this process only). */
const bound = new Map<string, DeclaredSecret[]>();
const keyOf = (namespace: string, address: string) => `${namespace}\u0000${address}`;

/** Remembers the secret references of the declared integrations of `namespace` (plan calls it; apply reads them). */
export function bindSecretRefs(resources: readonly { address: string; desired: Json }[], namespace: string): void {
  for (const r of resources) {
    const config = isObj(r.desired.config) ? r.desired.config : {};
    const variant = Object.keys(config).find((k) => config[k] !== undefined);
    bound.set(keyOf(namespace, r.address), variant ? declaredSecrets(config[variant]) : []);
  }
}

/** The references bound for `address`; throws when plan did not see it in this process. */
export function boundSecrets(namespace: string, address: string): DeclaredSecret[] {
  const s = bound.get(keyOf(namespace, address));
  if (!s) throw new SecretRefsUnknownError(`${address}: the secrets' references are not known to this process; dqform sends secrets only while applying a plan it made from the code (run dqform apply with the code, or apply a saved plan: it plans again)`);
  return s;
}
