// The protobuf wire format, as far as OTLP's trace messages need it: varints, 64-bit fixed
// integers and doubles, and length-delimited fields (strings, bytes, nested messages). The
// field numbers live in encode.ts; a test decodes what this writes with code generated from
// the official opentelemetry-proto definitions, so a wrong tag or wire type cannot pass.

const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;

const utf8 = new TextEncoder();

/** Builds one message; nested messages are built by a writer of their own and added whole. */
export class ProtoWriter {
  readonly #chunks: Uint8Array[] = [];
  #length = 0;

  #push(chunk: Uint8Array): void {
    this.#chunks.push(chunk);
    this.#length += chunk.length;
  }

  #tag(field: number, wireType: number): void {
    this.#push(varintBytes(BigInt((field << 3) | wireType)));
  }

  /** An int64, uint32, bool or enum; a negative value is its 64-bit two's complement, as protobuf writes int64. */
  varint(field: number, value: number | bigint): this {
    this.#tag(field, VARINT);
    this.#push(varintBytes(BigInt.asUintN(64, BigInt(value))));
    return this;
  }

  bool(field: number, value: boolean): this {
    return this.varint(field, value ? 1 : 0);
  }

  fixed64(field: number, value: bigint): this {
    this.#tag(field, FIXED64);
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setBigUint64(0, BigInt.asUintN(64, value), true);
    this.#push(bytes);
    return this;
  }

  double(field: number, value: number): this {
    this.#tag(field, FIXED64);
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setFloat64(0, value, true);
    this.#push(bytes);
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.#tag(field, LENGTH_DELIMITED);
    this.#push(varintBytes(BigInt(value.length)));
    this.#push(value);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, utf8.encode(value));
  }

  message(field: number, build: (writer: ProtoWriter) => void): this {
    const inner = new ProtoWriter();
    build(inner);
    return this.bytes(field, inner.finish());
  }

  get length(): number {
    return this.#length;
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.#length);
    let at = 0;
    for (const chunk of this.#chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  }
}

function varintBytes(value: bigint): Uint8Array {
  const bytes: number[] = [];
  let rest = value;
  while (rest > 0x7fn) {
    bytes.push(Number(rest & 0x7fn) | 0x80);
    rest >>= 7n;
  }
  bytes.push(Number(rest));
  return Uint8Array.from(bytes);
}

/** One field as read back: a varint as a bigint, a length-delimited field as its bytes. */
export type ProtoField = { field: number; varint: bigint } | { field: number; bytes: Uint8Array };

/**
 * The top-level fields of a message, for reading a collector's small answers
 * (ExportTraceServiceResponse). Fixed-width fields are skipped; a malformed message ends the
 * reading with what was read so far, as an answer that cannot be read tells nothing anyway.
 */
export function readFields(data: Uint8Array): ProtoField[] {
  const fields: ProtoField[] = [];
  let at = 0;
  const varint = (): bigint | undefined => {
    let value = 0n;
    for (let shift = 0n; at < data.length && shift < 70n; shift += 7n) {
      const byte = data[at++]!;
      value |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return value;
    }
    return undefined;
  };
  while (at < data.length) {
    const tag = varint();
    if (tag === undefined) break;
    const field = Number(tag >> 3n);
    const wireType = Number(tag & 7n);
    if (wireType === VARINT) {
      const value = varint();
      if (value === undefined) break;
      fields.push({ field, varint: value });
    } else if (wireType === LENGTH_DELIMITED) {
      const length = varint();
      if (length === undefined || at + Number(length) > data.length) break;
      fields.push({ field, bytes: data.subarray(at, at + Number(length)) });
      at += Number(length);
    } else if (wireType === FIXED64) at += 8;
    else if (wireType === 5) at += 4;
    else break;
  }
  return fields;
}
