/**
 * Import rendering of an integration: the title without dqform's marker, `enabled: false` for a
 * disabled one, and every secret dqform set (the marker lists them; a read answers them empty or
 * not at all) as a reference to fill in, `Secret.fromEnv('TODO_...')` (YAML `{ fromEnv:
 * TODO_... }`), never a value, with its version from the marker.
 */
import { oneofKey } from '../../../schemas/platform/common';
import { versionField } from '../../../schemas/model/kinds/integrations';
import { SECRET_FIELDS } from '../../../schemas/platform/integrations';
import type { ImportRendering } from '../shared/import';
import { isObj, type Json } from '../shared/yaml';
import { parseTitle } from './marker';

const SECRETS: ReadonlySet<string> = new Set(SECRET_FIELDS);

/** `TODO_<TITLE>_<FIELD>`: the variable name imported code asks the user to set. */
export function todoName(title: string, path: string): string {
  const s = `${title}_${path}`
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return `TODO_${s}`.slice(0, 120);
}

/** The variant's fields with each stored secret (a string, empty as read) turned into a reference. */
function refs(v: unknown, title: string, versions: Record<string, number>, prefix = ''): unknown {
  if (!isObj(v)) return v;
  const out: Json = {};
  for (const k of Object.keys(v).sort()) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (SECRETS.has(k)) {
      if (typeof v[k] !== 'string' && versions[path] === undefined) continue;
      out[k] = { fromEnv: todoName(title, path) };
      if ((versions[path] ?? 1) !== 1) out[versionField(k)] = versions[path];
    } else out[k] = refs(v[k], title, versions, path);
  }
  return out;
}

/** The variant with a reference at every secret the marker lists (the read answers them empty, or not at all). */
function withMarkedSecrets(variant: Json, title: string, versions: Record<string, number>): Json {
  for (const path of Object.keys(versions).sort()) {
    const parts = path.split('.');
    let cur = variant;
    for (const p of parts.slice(0, -1)) cur = (cur[p] = isObj(cur[p]) ? cur[p] : {}) as Json;
    const last = parts[parts.length - 1];
    cur[last] = { fromEnv: todoName(title, path) };
    if (versions[path] !== 1) cur[versionField(last)] = versions[path];
  }
  return variant;
}

export const integrationImport: ImportRendering = {
  fromLive(raw) {
    const m = parseTitle(raw.title);
    const config = isObj(raw.config) ? raw.config : {};
    const variant = oneofKey(config);
    const out: Json = { title: m.title };
    if (raw.disabled === true) out.enabled = false;
    if (variant) out.config = { [variant]: withMarkedSecrets(refs(config[variant], m.title, m.versions) as Json, m.title, m.versions) };
    return out;
  },
  ts(c, h) {
    const walk = (v: unknown): unknown => {
      if (!isObj(v)) return v;
      if (typeof v.fromEnv === 'string' && Object.keys(v).length === 1) {
        h.use('Secret');
        return h.code(`Secret.fromEnv(${h.quote(v.fromEnv)})`);
      }
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    };
    if (isObj(c.config)) c.config = walk(c.config);
    return h.ordered(c);
  },
};
