/**
 * Config validation of a saved view, beyond its schema: what the platform would store but the
 * view could not show (sorting or grouping by a column it does not show), and grants that say the
 * same thing twice.
 */
import type { ConfigProblem, ConfigValidator } from '../shared/validation';

type Grant = { userEmail?: string; groupId?: string; permission?: string };
type Config = { columns?: string[]; sortBy?: string; sortDescending?: boolean; groupBy?: string };

export const validateSavedView: ConfigValidator = (desired) => {
  const out: ConfigProblem[] = [];
  const selection = desired.selection as { resolverQl?: string } | undefined;
  if (selection !== undefined && !selection.resolverQl) {
    out.push({ field: 'selection.resolverQl', message: 'selection is set without selection.resolverQl', hint: 'give the ResolverQL of what the view shows, or drop selection (the view then shows everything)' });
  }
  const config = (desired.config ?? {}) as Config;
  if (config.sortDescending && config.sortBy === undefined) {
    out.push({ field: 'config.sortDescending', message: 'config.sortDescending is set without config.sortBy', hint: 'name the column to sort by in config.sortBy, or drop sortDescending' });
  }
  if (config.columns !== undefined) {
    for (const k of ['sortBy', 'groupBy'] as const) {
      const col = config[k];
      if (col !== undefined && !config.columns.includes(col)) {
        out.push({ field: `config.${k}`, message: `config.${k} names "${col}", which is not one of config.columns (${config.columns.join(', ') || 'none'})`, hint: `add "${col}" to config.columns or pick one of them` });
      }
    }
  }
  const seen = new Map<string, number>();
  ((desired.grants ?? []) as Grant[]).forEach((g, i) => {
    const who = g.userEmail !== undefined ? `user ${g.userEmail.toLowerCase()}` : `group ${g.groupId}`;
    const first = seen.get(who);
    if (first !== undefined) out.push({ field: `grants[${i}]`, message: `grants[${i}] grants ${who} again (grants[${first}] already does)`, hint: 'keep one grant per user or group, with the permission it should have' });
    else seen.set(who, i);
  });
  if (desired.visibility === 'VISIBILITY_WORKSPACE') {
    ((desired.grants ?? []) as Grant[]).forEach((g, i) => {
      if (g.permission === 'PERMISSION_VIEW') out.push({ field: `grants[${i}].permission`, message: `grants[${i}] grants PERMISSION_VIEW on a VISIBILITY_WORKSPACE view, which everyone may see already`, hint: 'drop the grant, or grant PERMISSION_EDIT' });
    });
  }
  return out;
};
