/**
 * What `dqform list --json` and `dqform output --json` print (issue 26): the objects a namespace
 * manages, read from live, and the ids of the code's objects by address.
 */
import { z } from 'zod';

/** One object the namespace manages (live, owned by it: declared or not). */
export const ManagedObject = z.object({
  /** The code's address (`dq_alert.orders`), or for an object the code no longer declares the address the plan gives it (`dq_alert["shop.old"]`). */
  address: z.string(),
  /** The resource type without `dq_` (`alert`, `sql_test`): what `--kind` filters on. */
  kind: z.string(),
  /** The platform id (alerts: the fqn). */
  id: z.string(),
  /** Its title or name ('' when it has none). */
  title: z.string(),
  /** Whether the code declares it (false: the next apply deletes it). */
  declared: z.boolean(),
  stack: z.string(),
  namespace: z.string(),
});
export type ManagedObject = z.infer<typeof ManagedObject>;

/** `dqform output --json`: the id of each declared object that exists live, by address. */
export const Outputs = z.record(z.string(), z.string());
export type Outputs = z.infer<typeof Outputs>;
