/**
 * A small protobuf wire-format reader and writer, written for the tests from the encoding
 * spec (varints, zigzag-free int32/int64, 64- and 32-bit fields, length-delimited fields,
 * packed and unpacked repeated scalars). It shares no code with protobufjs or the `.proto`
 * files: {@link decodeWith} takes its field table from grpc-facts.md (./facts.ts).
 */
import type { FactMessage, Facts } from './facts';

/** One field occurrence on the wire. */
export interface RawField {
  number: number;
  wireType: 0 | 1 | 2 | 5;
  /** Varints and fixed values as bigint; length-delimited as bytes. */
  value: bigint | Uint8Array;
}

function readVarint(buf: Uint8Array, pos: { i: number }): bigint {
  let result = 0n;
  let shift = 0n;
  for (;;) {
    if (pos.i >= buf.length) throw new Error('truncated varint');
    const b = buf[pos.i++];
    result |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return result;
    shift += 7n;
    if (shift > 63n) throw new Error('varint longer than 10 bytes');
  }
}

/** Every field of one message, in wire order. */
export function readFields(buf: Uint8Array): RawField[] {
  const out: RawField[] = [];
  const pos = { i: 0 };
  while (pos.i < buf.length) {
    const key = readVarint(buf, pos);
    const number = Number(key >> 3n);
    const wireType = Number(key & 7n);
    if (number === 0) throw new Error('field number 0');
    switch (wireType) {
      case 0:
        out.push({ number, wireType, value: readVarint(buf, pos) });
        break;
      case 1: {
        if (pos.i + 8 > buf.length) throw new Error('truncated fixed64');
        const v = new DataView(buf.buffer, buf.byteOffset + pos.i, 8).getBigUint64(0, true);
        pos.i += 8;
        out.push({ number, wireType, value: v });
        break;
      }
      case 2: {
        const len = Number(readVarint(buf, pos));
        if (pos.i + len > buf.length) throw new Error('truncated length-delimited field');
        out.push({ number, wireType, value: buf.subarray(pos.i, pos.i + len) });
        pos.i += len;
        break;
      }
      case 5: {
        if (pos.i + 4 > buf.length) throw new Error('truncated fixed32');
        const v = new DataView(buf.buffer, buf.byteOffset + pos.i, 4).getUint32(0, true);
        pos.i += 4;
        out.push({ number, wireType, value: BigInt(v) });
        break;
      }
      default:
        throw new Error(`wire type ${wireType} (groups are not used here)`);
    }
  }
  return out;
}

const VARINT_SCALARS = new Set(['int32', 'int64', 'uint32', 'uint64', 'bool']);

/** A varint as the scalar it encodes (two's complement for negative int32/int64). */
function scalarOf(type: string, v: bigint): number | boolean {
  if (type === 'bool') return v !== 0n;
  const signed = BigInt.asIntN(64, v);
  if (type === 'int32') return Number(BigInt.asIntN(32, signed));
  return Number(signed);
}

function packedVarints(bytes: Uint8Array): bigint[] {
  const out: bigint[] = [];
  const pos = { i: 0 };
  while (pos.i < bytes.length) out.push(readVarint(bytes, pos));
  return out;
}

/**
 * Decodes `buf` as message `typeName` with the facts' field table: keys are the facts' field
 * names (snake_case), enums and integers are numbers, repeated fields arrays (packed or not),
 * nested messages objects. A field number the table does not know appears as `#<number>`
 * (so a test comparing with the intended message fails on it).
 */
export function decodeWith(facts: Facts, typeName: string, buf: Uint8Array): Record<string, unknown> {
  const msg: FactMessage | undefined = facts.messages.get(typeName);
  if (!msg) throw new Error(`no facts for ${typeName}`);
  const out: Record<string, unknown> = {};
  for (const f of readFields(buf)) {
    const fact = msg.fields.find((x) => x.number === f.number);
    if (!fact) {
      out[`#${f.number}`] = f.value instanceof Uint8Array ? Buffer.from(f.value).toString('hex') : f.value.toString();
      continue;
    }
    const repeated = fact.label === 'repeated';
    const push = (v: unknown) => {
      if (repeated) ((out[fact.name] as unknown[] | undefined) ?? (out[fact.name] = [] as unknown[]) as unknown[]).push(v);
      else out[fact.name] = v; // last one wins (proto3 singular fields)
    };
    const varintType = fact.kind === 'enum' ? 'int32' : fact.type;
    if (fact.kind === 'message') {
      if (f.wireType !== 2) throw new Error(`${typeName}.${fact.name}: a message on wire type ${f.wireType}`);
      push(decodeWith(facts, fact.type, f.value as Uint8Array));
    } else if (fact.type === 'string' && fact.kind === 'scalar') {
      if (f.wireType !== 2) throw new Error(`${typeName}.${fact.name}: a string on wire type ${f.wireType}`);
      push(Buffer.from(f.value as Uint8Array).toString('utf8'));
    } else if (fact.kind === 'enum' || VARINT_SCALARS.has(fact.type)) {
      if (f.wireType === 2 && repeated) for (const v of packedVarints(f.value as Uint8Array)) push(scalarOf(varintType, v));
      else if (f.wireType === 0) push(scalarOf(varintType, f.value as bigint));
      else throw new Error(`${typeName}.${fact.name}: a varint field on wire type ${f.wireType}`);
    } else {
      throw new Error(`${typeName}.${fact.name}: type ${fact.type} is not used by the preview calls`);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// A writer for hand-made responses

function varint(v: bigint | number): number[] {
  let x = BigInt.asUintN(64, BigInt(v));
  const out: number[] = [];
  while (x >= 0x80n) {
    out.push(Number((x & 0x7fn) | 0x80n));
    x >>= 7n;
  }
  out.push(Number(x));
  return out;
}

/** A field for {@link message}: `[number, value]`; strings, nested messages (arrays of fields) or raw. */
export type WireField =
  | { n: number; varint: number | bigint }
  | { n: number; str: string }
  | { n: number; msg: WireField[] }
  | { n: number; packed: number[] }
  | { n: number; fixed64: bigint }
  | { n: number; fixed32: number }
  | { n: number; bytes: Uint8Array };

/** Encodes a message from its fields, in the given order. */
export function message(fields: WireField[]): Buffer {
  const out: number[] = [];
  const ld = (n: number, bytes: Uint8Array | number[]) => {
    out.push(...varint((n << 3) | 2), ...varint(bytes.length), ...bytes);
  };
  for (const f of fields) {
    if ('varint' in f) out.push(...varint((f.n << 3) | 0), ...varint(f.varint));
    else if ('str' in f) ld(f.n, Buffer.from(f.str, 'utf8'));
    else if ('msg' in f) ld(f.n, message(f.msg));
    else if ('packed' in f) ld(f.n, f.packed.flatMap((v) => varint(v)));
    else if ('bytes' in f) ld(f.n, f.bytes);
    else if ('fixed64' in f) {
      const b = Buffer.alloc(8);
      b.writeBigUInt64LE(f.fixed64);
      out.push(...varint((f.n << 3) | 1), ...b);
    } else {
      const b = Buffer.alloc(4);
      b.writeUInt32LE(f.fixed32);
      out.push(...varint((f.n << 3) | 5), ...b);
    }
  }
  return Buffer.from(out);
}
