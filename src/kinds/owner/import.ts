/** Import rendering of an owner: contacts as `Contact.*` factories. */
import type { ImportRendering, TsRenderHelpers } from '../shared/import';
import type { Json } from '../shared/yaml';

function contact(c: Json, h: TsRenderHelpers): unknown {
  h.use('Contact');
  const [k] = Object.keys(c);
  const b = c[k] as Json;
  if (k === 'slack') return h.code(`Contact.slack(${h.quote(String(b.channel))})`);
  if (k === 'email') return h.code(`Contact.email(${h.literal(b.recipientEmails)})`);
  if (k === 'msTeams') return h.code(`Contact.msTeams(${h.quote(String(b.channelId))})`);
  if (k === 'users') return h.code(`Contact.users(${h.literal(b.userEmails)})`);
  return c;
}

export const ownerImport: ImportRendering = {
  ts(c, h) {
    if (Array.isArray(c.contacts)) c.contacts = (c.contacts as Json[]).map((x) => contact(x, h));
    return h.ordered(c);
  },
};
