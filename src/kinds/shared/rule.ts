/**
 * The rule family's handler (monitor and SQL-test deployment rules): Deploy for create and
 * update, Delete (NOT_FOUND is success), BatchDeploy for batches, a preview from the deploy and
 * delete overviews. The API takes no etag: the applier guards these kinds by re-reading
 * (descriptor concurrency `readback`). A kind gives its descriptor, its read, its comparable
 * forms, its write message, its service and how it previews.
 */
import type { PlatformClient } from '../../client';
import type { Change, Effects } from '../../../schemas/model/plan';
import { effectsOf, effectsUnknown, errorsByAddress, ignoreNotFound, liveObject } from './support';
import type { KindDescriptor } from './descriptor';
import type { HandlerContext, LiveObject, ResourceHandler } from './types';

/** The objects a full list answered, as live objects (through `lift`), sorted by key. */
export function liveSorted<T extends { id: string }>(items: readonly T[], lift: (o: LiveObject) => LiveObject = (o) => o): LiveObject[] {
  return items.map((r) => lift(liveObject(r.id, r))).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

type EffectsSource = Effects['source'];

/** How a rule kind previews: the overview of a deploy and of a delete, and how an overview becomes the plan's effects. */
export interface RulePreview<O> {
  readonly sources: { readonly deploy: EffectsSource; readonly delete: EffectsSource };
  deployOverview(client: PlatformClient, change: Change, ctx: HandlerContext): Promise<O>;
  deleteOverview(client: PlatformClient, id: string): Promise<O>;
  effects(source: EffectsSource, ov: O, change: Change): Effects;
  /** What a failed overview's effects also say (beside `source` and `error`). */
  readonly failed?: (source: EffectsSource) => Partial<Effects>;
}

/** The preview capability of a rule kind: a failed overview is an `error` effect, never a failed plan. */
export function rulePreview<O>(p: RulePreview<O>): NonNullable<ResourceHandler['preview']> {
  return async (client, change, ctx) => {
    const source = change.action === 'delete' ? p.sources.delete : p.sources.deploy;
    try {
      const ov = change.action === 'delete' ? await p.deleteOverview(client, change.id) : await p.deployOverview(client, change, ctx);
      return p.effects(source, ov, change);
    } catch (e) {
      return effectsOf({ source, error: effectsUnknown(e), ...p.failed?.(source) });
    }
  };
}

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

/** A rule kind: what its handler does beyond the family's (see {@link ruleHandler}). */
export interface RuleKind<W, O> {
  descriptor: KindDescriptor;
  read: ResourceHandler['read'];
  fromLive: ResourceHandler['fromLive'];
  fromDesired: ResourceHandler['fromDesired'];
  /** The Deploy message of a create or update. */
  write(change: Change, ctx: HandlerContext): W;
  service(client: PlatformClient): RuleService<W>;
  preview: RulePreview<O>;
}

/** The handler of a rule kind: no replace, the family's preview and writes. */
export function ruleHandler<W, O>(k: RuleKind<W, O>): ResourceHandler {
  return {
    type: k.descriptor.type,
    label: k.descriptor.label,
    read: k.read,
    fromLive: k.fromLive,
    fromDesired: k.fromDesired,
    replaceReasons: () => [],
    preview: rulePreview(k.preview),
    ...ruleWrites(k.write, k.service),
  };
}
