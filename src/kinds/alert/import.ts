/** Import rendering of an alert: owners as references; friendly `trigger` and owner targets. */
import { ownerDescriptor } from '../owner/descriptor';
import { ALERT_BODIES, type ImportRendering, type TsRenderHelpers } from '../shared/import';
import { isObj, type Json } from '../shared/yaml';

const OWNER = ownerDescriptor.type;

function target(t: Json, h: TsRenderHelpers): unknown {
  if (isObj(t.owner) && typeof t.owner.ownerPath === 'string') {
    const v = h.refName(t.owner.ownerPath, OWNER, 'entity_id') !== undefined ? h.asVar(t.owner.ownerPath, OWNER) : undefined;
    if (v) {
      h.use('Target');
      return h.code(`Target.owner(${v.code})`);
    }
    return { owner: { ownerPath: h.idOf(t.owner.ownerPath) } };
  }
  return t;
}

export const alertImport: ImportRendering = {
  ts(c, h) {
    for (const kind of ALERT_BODIES) {
      const body = c[kind];
      if (!isObj(body)) continue;
      if (isObj(body.trigger)) body.trigger = h.queryInput(body.trigger);
      if (Array.isArray(body.targets)) body.targets = (body.targets as Json[]).map((t) => target(t, h));
      if (body.owner !== undefined) body.owner = /^owner-/i.test(String(h.idOf(body.owner))) ? (h.asVar(body.owner, OWNER) ?? h.idOf(body.owner)) : h.idOf(body.owner);
    }
    return h.ordered(c);
  },
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
