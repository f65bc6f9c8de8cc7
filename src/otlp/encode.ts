// OTLP's trace messages (opentelemetry-proto, opentelemetry/proto/trace/v1/trace.proto and
// collector/trace/v1/trace_service.proto), written with the field numbers of those files:
// an ExportTraceServiceRequest is what an OTLP/HTTP collector takes at /v1/traces as
// `application/x-protobuf`.
import { ProtoWriter, readFields } from './protobuf.ts';

/** trace.proto Span.SpanKind. */
export const SpanKind = { internal: 1, server: 2, client: 3 } as const;
export type SpanKindName = keyof typeof SpanKind;

/** trace.proto Status.StatusCode (UNSET is 0, left out). */
const STATUS_ERROR = 2;

/**
 * An attribute value: a string, a boolean, a list of strings, or a number, which goes as an
 * int64 when it is an integer; `{ double }` for a figure the conventions type as a double
 * (a temperature of 1 is still 1.0).
 */
export type AttributeValue = string | number | boolean | readonly string[] | { readonly double: number };

export interface Span {
  traceId: Uint8Array;
  spanId: Uint8Array;
  parentSpanId?: Uint8Array;
  name: string;
  kind: SpanKindName;
  startNs: bigint;
  endNs: bigint;
  /** In the order they are written; undefined values are left out. */
  attributes: Record<string, AttributeValue | undefined>;
  /** ERROR with this description; a span without it leaves its status unset. */
  error?: string;
}

/** What every span of one export has in common: the resource and the instrumentation scope. */
export interface Origin {
  resource: Record<string, AttributeValue | undefined>;
  scope: { name: string; version: string };
}

function anyValue(w: ProtoWriter, value: AttributeValue): void {
  // common.proto AnyValue: string 1, bool 2, int 3, double 4, array 5.
  if (typeof value === 'string') w.string(1, value);
  else if (typeof value === 'boolean') w.bool(2, value);
  else if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) w.varint(3, value);
    else w.double(4, value);
  } else if ('double' in value) w.double(4, value.double);
  else w.message(5, (array) => {
    for (const item of value) array.message(1, (v) => v.string(1, item));
  });
}

function keyValues(w: ProtoWriter, field: number, attributes: Record<string, AttributeValue | undefined>): void {
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined) continue;
    // common.proto KeyValue: key 1, value 2.
    w.message(field, (kv) => kv.string(1, key).message(2, (v) => anyValue(v, value)));
  }
}

function span(w: ProtoWriter, s: Span): void {
  // trace.proto Span: trace_id 1, span_id 2, parent_span_id 4, name 5, kind 6,
  // start_time_unix_nano 7, end_time_unix_nano 8, attributes 9, status 15.
  w.bytes(1, s.traceId).bytes(2, s.spanId);
  if (s.parentSpanId !== undefined) w.bytes(4, s.parentSpanId);
  w.string(5, s.name).varint(6, SpanKind[s.kind]).fixed64(7, s.startNs).fixed64(8, s.endNs);
  keyValues(w, 9, s.attributes);
  // Status: message 2, code 3.
  if (s.error !== undefined) w.message(15, (status) => status.string(2, s.error!).varint(3, STATUS_ERROR));
}

/** One span as the bytes of a Span message, so a batch can be sized before it is sent. */
export function encodeSpan(s: Span): Uint8Array {
  const w = new ProtoWriter();
  span(w, s);
  return w.finish();
}

/** One ExportTraceServiceRequest holding the encoded `spans`, all of one resource and scope. */
export function encodeRequest(origin: Origin, spans: readonly Uint8Array[]): Uint8Array {
  const request = new ProtoWriter();
  // ExportTraceServiceRequest: resource_spans 1. ResourceSpans: resource 1, scope_spans 2.
  request.message(1, (resourceSpans) => {
    resourceSpans.message(1, (resource) => keyValues(resource, 1, origin.resource));
    // ScopeSpans: scope 1, spans 2. InstrumentationScope: name 1, version 2.
    resourceSpans.message(2, (scopeSpans) => {
      scopeSpans.message(1, (scope) => scope.string(1, origin.scope.name).string(2, origin.scope.version));
      for (const s of spans) scopeSpans.bytes(2, s);
    });
  });
  return request.finish();
}

/**
 * A collector's partial success (ExportTraceServiceResponse.partial_success: rejected_spans 1,
 * error_message 2), or undefined when it accepted everything or said nothing readable.
 */
export function partialSuccess(body: Uint8Array): { rejected: number; message: string } | undefined {
  const outer = readFields(body).find((f) => f.field === 1 && 'bytes' in f);
  if (outer === undefined || !('bytes' in outer)) return undefined;
  let rejected = 0;
  let message = '';
  for (const f of readFields(outer.bytes)) {
    if (f.field === 1 && 'varint' in f) rejected = Number(BigInt.asIntN(64, f.varint));
    if (f.field === 2 && 'bytes' in f) message = new TextDecoder().decode(f.bytes);
  }
  return rejected === 0 && message === '' ? undefined : { rejected, message };
}
