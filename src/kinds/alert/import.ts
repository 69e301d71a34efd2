/** Import rendering of an alert: owners as references; friendly `trigger` and owner targets. */
import { ownerDescriptor } from '../owner/descriptor';
import { ALERT_BODIES, type ImportRendering } from '../shared/import';
import { isObj, type Json } from '../shared/yaml';

const OWNER = ownerDescriptor.type;

export const alertImport: ImportRendering = {
  refs(x, sub) {
    for (const kind of ALERT_BODIES) {
      const body = x[kind];
      if (!isObj(body)) continue;
      if (kind === 'issueLifecycle') sub(body, 'owner', OWNER);
      for (const t of (body.targets as Json[] | undefined) ?? []) if (isObj(t.owner)) sub(t.owner, 'ownerPath', OWNER);
    }
  },
  yaml(x, { refName, qlOnly }) {
    for (const kind of ALERT_BODIES) {
      const body = x[kind];
      if (!isObj(body)) continue;
      if (qlOnly(body.trigger) !== undefined) body.trigger = qlOnly(body.trigger);
      if (Array.isArray(body.targets)) {
        body.targets = (body.targets as Json[]).map((t) => {
          const n = isObj(t.owner) && Object.keys(t.owner).length === 1 ? refName(t.owner.ownerPath, OWNER, 'entity_id') : undefined;
          return n ? { owner: n } : t;
        });
      }
    }
  },
};
