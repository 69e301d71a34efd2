/**
 * The `.proto` subset (schemas/proto) against grpc-facts.md, table by table: every method path,
 * every message field (number, name, type, label: repeated / optional / oneof) and every enum
 * value of the subset must be the facts' ones; every message and field the four calls reach
 * must be in the subset, except the omissions listed here with their reason.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as Protobuf from 'protobufjs';
import { loadProtobufjs, methodPath, PREVIEW_METHODS, PROTO_FILES, protoDir } from '../../schemas/platform/grpc';
import { FACTS_FILE, readFacts, SHARED_FACTS_FILE, type FactField } from './facts';

/** Facts fields the subset leaves out on purpose. */
const OMITTED_FIELDS: Record<string, string> = {
  'platform.queries.v1.InFolder.folder_of':
    'dqform never sets it; it alone reaches the general Query, its six extra parts and the data platform identifier (26 messages, 1 enum)',
};

const facts = readFacts();
const pb = loadProtobufjs();
const root: Protobuf.Root = (() => {
  const dir = protoDir();
  const r = new pb.Root();
  r.resolvePath = (_o: string, t: string) => (path.isAbsolute(t) ? t : path.join(dir, t));
  r.loadSync(PROTO_FILES.map((f) => path.join(dir, f)), { keepCase: true });
  r.resolveAll();
  return r;
})();

/** Every type of the subset under `platform.` (nested ones included). */
function subsetTypes(): { messages: Protobuf.Type[]; enums: Protobuf.Enum[] } {
  const messages: Protobuf.Type[] = [];
  const enums: Protobuf.Enum[] = [];
  const walk = (ns: Protobuf.NamespaceBase): void => {
    for (const o of ns.nestedArray) {
      if (o instanceof pb.Type) messages.push(o);
      else if (o instanceof pb.Enum) enums.push(o);
      if (o instanceof pb.Namespace || o instanceof pb.Type) walk(o as Protobuf.NamespaceBase);
    }
  };
  walk(root.lookup('platform') as Protobuf.Namespace);
  return { messages, enums };
}
const full = (o: Protobuf.ReflectionObject) => o.fullName.replace(/^\./, '');

/** A subset field in the facts' terms. */
function asFact(f: Protobuf.Field): FactField {
  const rt = f.resolvedType;
  const synthetic = f.partOf && f.partOf.name === `_${f.name}` && f.partOf.fieldsArray.length === 1;
  return {
    number: f.id,
    name: f.name,
    type: rt ? full(rt) : f.type,
    kind: rt instanceof pb.Type ? 'message' : rt instanceof pb.Enum ? 'enum' : 'scalar',
    label: f.repeated ? 'repeated' : synthetic ? 'optional' : f.partOf ? `oneof ${f.partOf.name}` : '',
  };
}

const { messages, enums } = subsetTypes();
const byNumber = (a: { number: number }, b: { number: number }) => a.number - b.number;

test('the facts copy in the repository is the team\'s current grpc-facts.md', () => {
  if (!fs.existsSync(SHARED_FACTS_FILE)) return; // a fresh clone has only the copy
  expect(fs.readFileSync(FACTS_FILE, 'utf8')).toBe(fs.readFileSync(SHARED_FACTS_FILE, 'utf8'));
});

test('the facts reader finds what the facts file declares (111 messages per its inventory, less the 17 data platform ones it does not parse)', () => {
  // Inventory (section 9): 111 messages. The reader skips section 7 (data platform identifier,
  // 17 messages reached only through folder_of); everything else is a table it reads.
  expect(facts.messages.size).toBe(111 - 17);
  expect(facts.methods).toHaveLength(4);
  expect(facts.enums.size).toBe(8); // 9 enums less DataPlatformType (8.9, folder_of only)
});

describe('methods: path, request, response, idempotency, scopes', () => {
  test.each(Object.values(PREVIEW_METHODS).map((m) => [m.name, m] as const))('%s', (_n, m) => {
    const path = methodPath('platform', m);
    const f = facts.methods.find((x) => x.path === path);
    expect(f).toBeDefined();
    expect(`platform.${m.requestType.split('.').slice(-1)[0]}`).toBe(`platform.${f!.request}`);
    expect(m.responseType.endsWith(`.${f!.response}`)).toBe(true);
    expect(f!.idempotency).toBe('NO_SIDE_EFFECTS');
    expect([...m.scopes].sort()).toEqual([...f!.scopes].sort());
    const service = root.lookupService(`platform.${m.service}`);
    const method = service.methods[m.name];
    expect(method).toBeDefined();
    method.resolve();
    expect(full(method.resolvedRequestType!)).toBe(m.requestType);
    expect(full(method.resolvedResponseType!)).toBe(m.responseType);
    expect(method.requestStream ?? false).toBe(false);
    expect(method.responseStream ?? false).toBe(false);
    expect(facts.messages.get(m.requestType)).toBeDefined();
  });

  test('the subset declares exactly these two services with two methods each', () => {
    const services = Object.values(PREVIEW_METHODS).map((m) => `platform.${m.service}`);
    for (const s of new Set(services)) expect(Object.keys(root.lookupService(s).methods).sort()).toEqual(Object.values(PREVIEW_METHODS).filter((m) => `platform.${m.service}` === s).map((m) => m.name).sort());
  });
});

describe('every message of the subset matches the facts field by field', () => {
  test.each(messages.map((t) => [full(t), t] as const))('%s', (name, t) => {
    const fm = facts.messages.get(name);
    expect(fm).toBeDefined();
    const mine = t.fieldsArray.map(asFact).sort(byNumber);
    const theirs = fm!.fields.filter((f) => !OMITTED_FIELDS[`${name}.${f.name}`]).sort(byNumber);
    expect(mine).toEqual(theirs);
  });
});

describe('every enum of the subset matches the facts value by value', () => {
  test.each(enums.map((e) => [full(e), e] as const))('%s', (name, e) => {
    const fe = facts.enums.get(name);
    expect(fe).toBeDefined();
    const mine = Object.entries(e.values).map(([n, v]) => [v, n] as const).sort((a, b) => a[0] - b[0]);
    expect(mine).toEqual([...fe!.values.entries()].sort((a, b) => a[0] - b[0]));
  });
});

test('every message and enum the four calls reach (less the omissions) is in the subset', () => {
  const seen = new Set<string>();
  const missing: string[] = [];
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    const fm = facts.messages.get(name);
    if (!fm) {
      if (!facts.enums.has(name)) missing.push(`${name} (not in the facts reader)`);
      else if (!root.lookup(name)) missing.push(name);
      return;
    }
    if (!root.lookup(name)) missing.push(name);
    for (const f of fm.fields) if (f.kind !== 'scalar' && !OMITTED_FIELDS[`${name}.${f.name}`]) visit(f.type);
  };
  for (const m of Object.values(PREVIEW_METHODS)) {
    visit(m.requestType);
    visit(m.responseType);
  }
  expect(missing).toEqual([]);
  // and nothing in the subset is unreachable (a typo'd or stale message would be)
  const reachable = [...seen].filter((n) => facts.messages.has(n));
  expect(messages.map(full).sort()).toEqual(reachable.sort());
});

test('RuleTest keeps number 24 reserved', () => {
  const t = root.lookupType('platform.datachecks.sqltests.v1.RuleTest');
  expect(t.reserved).toEqual([[24, 24]]);
});
