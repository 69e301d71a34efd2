/**
 * The rule family's writes (monitor and SQL-test deployment rules): Deploy for create and
 * update, Delete (NOT_FOUND is success), BatchDeploy for batches. The API takes no etag: the
 * applier guards these kinds by re-reading (descriptor concurrency `readback`).
 */
import type { PlatformClient } from '../../client';
import type { Change } from '../../../schemas/plan';
import { errorsByAddress, ignoreNotFound } from './support';
import type { HandlerContext, ResourceHandler } from './types';

/** The calls of a rule service of the client. */
export interface RuleService<W> {
  deploy(rule: W): Promise<void>;
  delete(id: string): Promise<void>;
  batchDeploy(rules: W[]): Promise<{ errors: readonly { id: string; reason: string }[] }>;
}

/** create, update, delete and writeMany of a rule kind. */
export function ruleWrites<W>(write: (change: Change, ctx: HandlerContext) => W, of: (client: PlatformClient) => RuleService<W>): Pick<ResourceHandler, 'create' | 'update' | 'delete' | 'writeMany'> {
  const deploy = async (client: PlatformClient, change: Change, ctx: HandlerContext): Promise<void> => {
    await of(client).deploy(write(change, ctx));
  };
  return {
    create: deploy,
    update: deploy,
    async delete(client, change) {
      await ignoreNotFound(of(client).delete(change.id));
    },
    async writeMany(client, changes, ctx) {
      if (changes.length === 0) return new Map();
      const res = await of(client).batchDeploy(changes.map((c) => write(c, ctx)));
      return errorsByAddress(changes, res.errors);
    },
  };
}
