/** Config validation of an integration: the title with its marker fits the platform's 255, no marker by hand, no version counter without its secret. */
import { oneofKey } from '../../../schemas/platform/common';
import { versionField } from '../../../schemas/model/kinds/integrations';
import { SECRET_FIELDS } from '../../../schemas/platform/integrations';
import type { ConfigValidator, ConfigProblem } from '../shared/validation';
import { markerLength, parseTitle } from './marker';
import { declaredSecrets } from './secrets';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
/** The longest id a marker carries (a UUID). */
const ID = '00000000-0000-8000-8000-000000000000';

function orphanVersions(v: unknown, at: string, out: ConfigProblem[]): void {
  if (!isObj(v)) return;
  for (const f of SECRET_FIELDS) {
    if (v[versionField(f)] !== undefined && v[f] === undefined) {
      out.push({ field: `${at}.${versionField(f)}`, message: `${versionField(f)} is set, but ${f} is not`, hint: `Give ${f}: { fromEnv: NAME } (or { fromFile: PATH }), or drop ${versionField(f)}.` });
    }
  }
  for (const [k, x] of Object.entries(v)) if (isObj(x)) orphanVersions(x, `${at}.${k}`, out);
}

export const validateIntegration: ConfigValidator = (desired) => {
  const out: ConfigProblem[] = [];
  const title = String(desired.title ?? '');
  if (parseTitle(title).marked) out.push({ field: 'title', message: 'ends with a [dqform...] marker, which dqform writes itself', hint: 'Give the title without the bracketed marker.' });
  const config = isObj(desired.config) ? desired.config : {};
  const variant = oneofKey(config);
  const versions: Record<string, number> = {};
  if (variant) {
    for (const s of declaredSecrets(config[variant])) versions[s.path] = s.version;
    orphanVersions(config[variant], `config.${variant}`, out);
  }
  const room = 255 - markerLength(ID, versions);
  if (title.length > room) {
    out.push({ field: 'title', message: `is ${title.length} characters; with dqform's identity marker it must fit the platform's 255, so at most ${room}`, hint: 'Shorten the title.' });
  }
  return out;
};
