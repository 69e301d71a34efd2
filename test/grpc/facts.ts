/**
 * A reader of `grpc-facts.md` (the copy beside this file, checked against
 * `../shared/spec/grpc-facts.md` when that exists): methods, messages with their fields
 * (number, name, type, label) and enums, as the facts' tables state them. The proto table test
 * compares the `.proto` subset with this; the wire decoder of the encoding test decodes with
 * it, so neither depends on protobufjs or on the `.proto` files.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const FACTS_FILE = path.join(__dirname, 'grpc-facts.md');
/** Where the team keeps the original (outside the repository). */
export const SHARED_FACTS_FILE = path.resolve(__dirname, '..', '..', '..', 'shared', 'spec', 'grpc-facts.md');

export const SCALARS = new Set(['string', 'bool', 'int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64', 'bytes', 'double', 'float', 'fixed32', 'fixed64', 'sfixed32', 'sfixed64']);

export interface FactField {
  number: number;
  /** snake_case, as in the definitions. */
  name: string;
  /** A scalar name, or the full name of a message or enum (`platform.v1.Source`). */
  type: string;
  kind: 'scalar' | 'message' | 'enum';
  /** `repeated`, `optional`, `oneof <name>` or `` (singular). */
  label: string;
}

export interface FactMessage {
  /** `platform.monitors.automated_monitors.v1.QueryConfig`. */
  fullName: string;
  fields: FactField[];
}

export interface FactEnum {
  fullName: string;
  /** number -> value name. */
  values: Map<number, string>;
}

export interface FactMethod {
  path: string;
  request: string;
  response: string;
  scopes: string[];
  idempotency: string;
}

export interface Facts {
  methods: FactMethod[];
  messages: Map<string, FactMessage>;
  enums: Map<string, FactEnum>;
}

const cells = (line: string): string[] =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());
const ticks = (s: string): string[] => [...s.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

/** `pkg.Name` lives in `platform.pkg`; a bare (possibly nested) name in `pkg` of the holder. */
export function resolveTypeName(token: string, holderPackage: string): string {
  const segs = token.split('.');
  let last = -1;
  segs.forEach((s, i) => {
    if (/^v\d+$/.test(s)) last = i;
  });
  if (last < 0) return `${holderPackage}.${token}`;
  return `platform.${segs.slice(0, last + 1).join('.')}.${segs.slice(last + 1).join('.')}`;
}

function typeOf(cell: string, holderPackage: string): Pick<FactField, 'type' | 'kind'> {
  const t = ticks(cell);
  if (t.length === 0) {
    const s = cell.trim();
    if (!SCALARS.has(s)) throw new Error(`grpc-facts: unknown type cell "${cell}"`);
    return { type: s, kind: 'scalar' };
  }
  return { type: resolveTypeName(t[0], holderPackage), kind: /\(enum\)/.test(cell) ? 'enum' : 'message' };
}

function labelOf(cell: string): string {
  const c = cell.trim();
  if (c === '') return '';
  if (c === 'repeated' || c === 'optional') return c;
  const m = /^oneof `(\w+)`$/.exec(c);
  if (m) return `oneof ${m[1]}`;
  throw new Error(`grpc-facts: unknown label "${cell}"`);
}

/** camelCase key -> snake_case field name (`warehouseAccountTable` -> `warehouse_account_table`). */
export function snake(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** Reads the facts file. */
export function readFacts(file = FACTS_FILE): Facts {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const facts: Facts = { methods: [], messages: new Map(), enums: new Map() };
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const h = /^##+ (\d+(?:\.\d+)?)/.exec(line);
    if (h) section = h[1];

    // section 1: methods
    if (section === '1' && line.startsWith('| `/')) {
      const c = cells(line);
      facts.methods.push({ path: ticks(c[0])[0], request: ticks(c[1])[0], response: ticks(c[2])[0], scopes: c[4].split(',').map((s) => s.trim()), idempotency: c[5] });
      continue;
    }

    // section 2: requests and responses (one row per field)
    if (section === '2' && /^\| `\w+` \(/.test(line)) {
      const c = cells(line);
      const name = ticks(c[0])[0];
      const pkgCell = /\(([\w.]+)\)/.exec(c[0])![1];
      const prev = [...facts.messages.values()].pop();
      const pkg = pkgCell === 'same' ? prev!.fullName.replace(/\.\w+$/, '') : `platform.${pkgCell}`;
      const msg: FactMessage = { fullName: `${pkg}.${name}`, fields: [] };
      msg.fields.push({ number: Number(c[1]), name: ticks(c[2])[0], ...typeOf(c[3].replace(/\(\d+\.\d+\)/, ''), pkg), label: '' });
      facts.messages.set(msg.fullName, msg);
      continue;
    }

    // message blocks: **`Name`** (pkg) ... then a field table (or "no fields")
    const mb = /^\*\*`([\w.]+)`\*\* \(([\w.]+)\)(.*)$/.exec(line);
    if (mb) {
      const pkg = `platform.${mb[2]}`;
      const msg: FactMessage = { fullName: `${pkg}.${mb[1]}`, fields: [] };
      facts.messages.set(msg.fullName, msg);
      if (/no fields/.test(mb[3])) continue;
      let j = i + 1;
      while (j < lines.length && !lines[j].startsWith('| # |')) j++;
      for (j += 2; j < lines.length && lines[j].startsWith('|'); j++) {
        const c = cells(lines[j]);
        msg.fields.push({ number: Number(c[0]), name: ticks(c[1])[0], ...typeOf(c[2], pkg), label: labelOf(c[3]) });
      }
      i = j;
      continue;
    }

    // section 6: the entity identifier, one member per row
    if (section === '6' && /^\| \d+ \| `\w+` \|/.test(line)) {
      const pkg = 'platform.entities.v1';
      const c = cells(line);
      const key = ticks(c[1])[0];
      const memberName = `${pkg}.${key[0].toUpperCase()}${key.slice(1)}Identifier`;
      const idName = `${pkg}.Identifier`;
      if (!facts.messages.has(idName)) facts.messages.set(idName, { fullName: idName, fields: [] });
      facts.messages.get(idName)!.fields.push({ number: Number(c[0]), name: snake(key), type: memberName, kind: 'message', label: 'oneof id' });
      const member: FactMessage = { fullName: memberName, fields: [] };
      for (const part of c[2].split(/,\s*(?=\d+ `)/)) {
        const m = /^(\d+) `(\w+)`(?: \((\w+)\))?(?: \[([^\]]+)\])?$/.exec(part.trim());
        if (!m) throw new Error(`grpc-facts: cannot read identifier member field "${part}"`);
        const type = m[3] ? { type: resolveTypeName(m[3], pkg), kind: 'message' as const } : { type: 'string', kind: 'scalar' as const };
        member.fields.push({ number: Number(m[1]), name: m[2], ...type, label: m[4] && /optional/.test(m[4]) ? 'optional' : '' });
      }
      facts.messages.set(memberName, member);
      continue;
    }

    // section 8: enums. 8.1-8.7: **8.x** `Name` (pkg) + | number | name |; 8.8: ranges
    const eb = /^\*\*8\.\d+\*\* `(\w+)` \(([\w.]+)\)/.exec(line) ?? /^### 8\.8 `(\w+)` \(([\w.]+)\)/.exec(line);
    if (eb) {
      const e: FactEnum = { fullName: `platform.${eb[2]}.${eb[1]}`, values: new Map() };
      let j = i + 1;
      while (j < lines.length && !/^\| numbers? \|/.test(lines[j])) j++;
      const ranged = lines[j].startsWith('| numbers |');
      for (j += 2; j < lines.length && lines[j].startsWith('|'); j++) {
        const c = cells(lines[j]);
        if (!ranged) e.values.set(Number(c[0]), ticks(c[1])[0]);
        else for (const m of c[1].matchAll(/(\d+) `(\w+)`/g)) e.values.set(Number(m[1]), `ENTITY_TYPE_${m[2]}`);
      }
      facts.enums.set(e.fullName, e);
      i = j;
    }
  }
  return facts;
}
