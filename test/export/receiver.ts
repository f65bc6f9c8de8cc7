// An OTLP/HTTP trace receiver on 127.0.0.1 that decodes every request with the code
// @opentelemetry/otlp-transformer generated from the official opentelemetry-proto files
// (protobufjs), and answers as a collector does: an ExportTraceServiceResponse, or a scripted
// error or partial success. Spans come back as plain objects: ids in hex, times as bigints,
// attributes as a record of plain values.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// The package's generated root: protobufjs static code for opentelemetry-proto.
const root = require('@opentelemetry/otlp-transformer/build/src/generated/root.js');
const ExportRequest = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
const ExportResponse = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
const SpanKind = root.opentelemetry.proto.trace.v1.Span.SpanKind;
const StatusCode = root.opentelemetry.proto.trace.v1.Status.StatusCode;

export type Value = string | number | boolean | Value[];

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: string;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, Value>;
  /** `ERROR` and its message, or `UNSET`. */
  status: { code: string; message: string };
}

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  bytes: number;
  resource: Record<string, Value>;
  scope: { name: string; version: string };
  spans: ReceivedSpan[];
}

export type Reply =
  | { status: number; headers?: Record<string, string>; body?: string | Uint8Array }
  | { rejected: number; message: string };

const hex = (bytes: Uint8Array | null | undefined): string => Buffer.from(bytes ?? []).toString('hex');
const long = (value: { toString(): string } | number | null | undefined): bigint => BigInt(value?.toString() ?? '0');

function value(v: any): Value {
  if (v.stringValue != null) return v.stringValue;
  if (v.boolValue != null) return v.boolValue;
  if (v.intValue != null) return Number(long(v.intValue));
  if (v.doubleValue != null) return v.doubleValue;
  if (v.arrayValue != null) return (v.arrayValue.values ?? []).map(value);
  throw new Error(`an AnyValue of an unexpected kind: ${JSON.stringify(v)}`);
}

function attributes(list: any[] | null | undefined): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const kv of list ?? []) {
    if (kv.key in out) throw new Error(`attribute ${kv.key} twice`);
    out[kv.key] = value(kv.value);
  }
  return out;
}

/** A request body decoded by the official definitions; throws when it is not one. */
export function decodeRequest(body: Uint8Array): Omit<ReceivedRequest, 'path' | 'headers' | 'bytes'> {
  const request = ExportRequest.decode(body);
  if (request.resourceSpans.length !== 1) throw new Error(`expected one ResourceSpans, got ${request.resourceSpans.length}`);
  const resourceSpans = request.resourceSpans[0];
  if (resourceSpans.scopeSpans.length !== 1) throw new Error(`expected one ScopeSpans, got ${resourceSpans.scopeSpans.length}`);
  const scopeSpans = resourceSpans.scopeSpans[0];
  return {
    resource: attributes(resourceSpans.resource?.attributes),
    scope: { name: scopeSpans.scope?.name ?? '', version: scopeSpans.scope?.version ?? '' },
    spans: scopeSpans.spans.map((s: any): ReceivedSpan => ({
      traceId: hex(s.traceId), spanId: hex(s.spanId), parentSpanId: hex(s.parentSpanId), name: s.name,
      kind: SpanKind[s.kind], startNs: long(s.startTimeUnixNano), endNs: long(s.endTimeUnixNano),
      attributes: attributes(s.attributes),
      status: { code: StatusCode[s.status?.code ?? 0], message: s.status?.message ?? '' },
    })),
  };
}

export interface Receiver extends AsyncDisposable {
  url: string;
  requests: ReceivedRequest[];
  /** Every span of every request, in the order received. */
  spans(): ReceivedSpan[];
  /** Answers for the next requests, in order; an empty script answers 200. */
  script: Reply[];
}

export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const script: Reply[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const reply = script.shift();
      if (reply !== undefined && 'status' in reply) {
        res.writeHead(reply.status, reply.headers ?? {}).end(reply.body ?? '');
        return;
      }
      try {
        if (req.headers['content-type'] !== 'application/x-protobuf') throw new Error(`content-type ${req.headers['content-type']}`);
        requests.push({ path: req.url ?? '', headers: req.headers, bytes: body.length, ...decodeRequest(body) });
      } catch (error) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(`undecodable: ${(error as Error).message}`);
        return;
      }
      const answer = reply === undefined ? {} : { partialSuccess: { rejectedSpans: reply.rejected, errorMessage: reply.message } };
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end(ExportResponse.encode(ExportResponse.create(answer)).finish());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script,
    spans: () => requests.flatMap((r) => r.spans),
    [Symbol.asyncDispose]: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
