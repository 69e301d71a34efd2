/** Changes that write something (create, update, replace, delete): a module of its own so that the applier loads no planner. */
import type { Change } from '../../schemas/model/plan';

/** Changes that write something. */
export function isWrite(c: Change): boolean {
  return c.action === 'create' || c.action === 'update' || c.action === 'replace' || c.action === 'delete';
}
