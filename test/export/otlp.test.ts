// The OTLP encoding and its sending, at the wire: what Ladder writes is decoded by code
// generated from the official opentelemetry-proto files, and the collector's answers (errors,
// retries, partial success) come from a real HTTP server on 127.0.0.1.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { ExportError, parseHeaders } from '../../src/export/index.ts';
import { encodeRequest, encodeSpan, partialSuccess } from '../../src/otlp/encode.ts';
import type { Span } from '../../src/otlp/encode.ts';
import { MAX_ATTEMPTS, post, retryAfterMs, shown, tracesEndpoint } from '../../src/otlp/send.ts';
import type { Transport } from '../../src/otlp/send.ts';
import { decodeRequest, startReceiver } from './receiver.ts';

const root = createRequire(import.meta.url)('@opentelemetry/otlp-transformer/build/src/generated/root.js');
const ExportResponse = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;

const origin = { resource: { 'service.name': 'ladder', absent: undefined }, scope: { name: 'ladder', version: '9.9.9' } };
const ids = (n: number) => ({ traceId: Uint8Array.from({ length: 16 }, (_, i) => i + n), spanId: Uint8Array.from({ length: 8 }, (_, i) => 100 + i + n) });
/** 2026-01-01T00:00:00.123456789Z: past 2^53 ns, so a double would lose the last digits. */
const START = 1_767_225_600_123_456_789n;

function span(overrides: Partial<Span> = {}): Span {
  return { ...ids(0), name: 'chat model', kind: 'client', startNs: START, endNs: START + 1_500_000n, attributes: {}, ...overrides };
}

/** Sleeps recorded, none taken: retries are checked by what they wait, not by waiting. */
function transport(): Transport & { slept: number[] } {
  const slept: number[] = [];
  return { fetch, slept, sleep: async (ms) => void slept.push(ms) };
}

describe('the OTLP encoding', () => {
  it('writes spans the official definitions decode field for field', () => {
    const parent = span({ ...ids(1), name: 'invoke_workflow r', kind: 'internal' });
    const child = span({
      ...ids(2), parentSpanId: parent.spanId, name: 'execute_tool wb__sql_query', kind: 'internal', endNs: START + 7n,
      attributes: {
        text: 'ünïcödé ✓', empty: '', int: 42, zero: 0, negative: -3, big: Number.MAX_SAFE_INTEGER, fraction: 0.25,
        double: { double: 1 }, yes: true, no: false, list: ['a', 'b'], none: [], skipped: undefined,
      },
      error: 'timeout',
    });
    const decoded = decodeRequest(encodeRequest(origin, [parent, child].map(encodeSpan)));
    expect(decoded.resource).toEqual({ 'service.name': 'ladder' });
    expect(decoded.scope).toEqual({ name: 'ladder', version: '9.9.9' });
    expect(decoded.spans).toEqual([
      {
        traceId: Buffer.from(parent.traceId).toString('hex'), spanId: Buffer.from(parent.spanId).toString('hex'), parentSpanId: '',
        name: 'invoke_workflow r', kind: 'SPAN_KIND_INTERNAL', startNs: START, endNs: START + 1_500_000n, attributes: {},
        status: { code: 'STATUS_CODE_UNSET', message: '' },
      },
      {
        traceId: Buffer.from(child.traceId).toString('hex'), spanId: Buffer.from(child.spanId).toString('hex'),
        parentSpanId: Buffer.from(parent.spanId).toString('hex'), name: 'execute_tool wb__sql_query', kind: 'SPAN_KIND_INTERNAL',
        startNs: START, endNs: START + 7n,
        attributes: {
          text: 'ünïcödé ✓', empty: '', int: 42, zero: 0, negative: -3, big: Number.MAX_SAFE_INTEGER, fraction: 0.25,
          double: 1, yes: true, no: false, list: ['a', 'b'], none: [],
        },
        status: { code: 'STATUS_CODE_ERROR', message: 'timeout' },
      },
    ]);
  });

  it('sends an integer as an int64 and a { double } as a double, so a temperature of 1 stays a double', () => {
    const body = encodeRequest(origin, [encodeSpan(span({ attributes: { n: 1, t: { double: 1 } } }))]);
    const raw = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest.decode(body);
    const [n, t] = raw.resourceSpans[0].scopeSpans[0].spans[0].attributes;
    expect(n.value.value).toBe('intValue');
    expect(t.value.value).toBe('doubleValue');
  });

  it('marks client spans CLIENT', () => {
    const [decoded] = decodeRequest(encodeRequest(origin, [encodeSpan(span())])).spans;
    expect(decoded!.kind).toBe('SPAN_KIND_CLIENT');
  });

  it('reads a collector\'s partial success, and nothing from an answer that accepted everything', () => {
    const answer = (body: object) => ExportResponse.encode(ExportResponse.create(body)).finish();
    expect(partialSuccess(answer({ partialSuccess: { rejectedSpans: 3, errorMessage: 'span too large' } }))).toEqual({ rejected: 3, message: 'span too large' });
    expect(partialSuccess(answer({}))).toBeUndefined();
    expect(partialSuccess(new Uint8Array())).toBeUndefined();
    expect(partialSuccess(Uint8Array.from([0x0a, 0x05, 0x08]))).toBeUndefined();
  });
});

describe('the collector\'s address and headers', () => {
  it('adds /v1/traces to a base address and keeps a traces endpoint as it is', () => {
    expect(tracesEndpoint('http://127.0.0.1:4318').href).toBe('http://127.0.0.1:4318/v1/traces');
    expect(tracesEndpoint('http://127.0.0.1:4318/').href).toBe('http://127.0.0.1:4318/v1/traces');
    expect(tracesEndpoint('https://cloud.langfuse.com/api/public/otel').href).toBe('https://cloud.langfuse.com/api/public/otel/v1/traces');
    expect(tracesEndpoint('http://localhost:6006/v1/traces').href).toBe('http://localhost:6006/v1/traces');
    expect(shown(tracesEndpoint('https://user:secret@collector.example/otel'))).toBe('https://collector.example/otel/v1/traces');
  });

  it('refuses what is not an http(s) URL in one line', () => {
    expect(() => tracesEndpoint('localhost:4318')).toThrow(/OTLP\/HTTP needs an http:\/\/ or https:\/\/ URL/);
    expect(() => tracesEndpoint('not a url')).toThrow(new ExportError('--otlp "not a url": not a URL; give the collector\'s address, e.g. http://127.0.0.1:4318'));
  });

  it('takes headers from --header and OTEL_EXPORTER_OTLP_HEADERS, the flag winning, and never quotes a value', () => {
    expect(parseHeaders(['Authorization=Basic cGs6c2s=', 'x-extra = 1'], 'authorization=Bearer%20env,x-langfuse-ingestion-version=4'))
      .toEqual({ Authorization: 'Basic cGs6c2s=', 'x-langfuse-ingestion-version': '4', 'x-extra': '1' });
    expect(() => parseHeaders(['Authorization: Basic secret'])).toThrow(/^--header "Authorization: Basic secret"/);
    expect(() => parseHeaders(['=secret'])).toThrow(/^--header "": expected name=value/);
    expect(() => parseHeaders([], 'auth=%E0%A4%A')).toThrow(/^OTEL_EXPORTER_OTLP_HEADERS "auth": the value is not percent-encoded/);
    expect(() => parseHeaders([], 'auth=Basic%0Aevil')).toThrow(/^OTEL_EXPORTER_OTLP_HEADERS "auth": the value has a character a header cannot carry/);
    expect(() => parseHeaders(['Authorization=Clé'])).toThrow(/^--header "Authorization": the value has a character/);
  });

  it('reads Retry-After as seconds or as a date', () => {
    expect(retryAfterMs('7')).toBe(7000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:30 GMT', Date.parse('2026-01-01T00:00:00Z'))).toBe(30_000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});

describe('posting to a collector', () => {
  const body = encodeRequest(origin, [encodeSpan(span())]);

  it('sends the headers given and application/x-protobuf', async () => {
    await using receiver = await startReceiver();
    const t = transport();
    expect(await post(tracesEndpoint(receiver.url), { Authorization: 'Basic cGs6c2s=' }, body, t)).toEqual({ rejected: 0, message: '' });
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]!.path).toBe('/v1/traces');
    expect(receiver.requests[0]!.headers['authorization']).toBe('Basic cGs6c2s=');
    expect(t.slept).toEqual([]);
  });

  it('retries 429 after the Retry-After it names, and 503 with doubling waits', async () => {
    await using receiver = await startReceiver();
    receiver.script.push({ status: 429, headers: { 'retry-after': '2' } }, { status: 503 });
    const t = transport();
    await post(tracesEndpoint(receiver.url), {}, body, t);
    expect(t.slept).toEqual([2000, 2000]);
    expect(receiver.requests).toHaveLength(1);
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts, or at once when Retry-After asks for more than it would wait`, async () => {
    await using receiver = await startReceiver();
    receiver.script.push(...Array.from({ length: MAX_ATTEMPTS }, () => ({ status: 503, body: 'overloaded' })));
    const t = transport();
    await expect(post(tracesEndpoint(receiver.url), {}, body, t)).rejects.toThrow(
      new ExportError(`${receiver.url}/v1/traces answered 503 Service Unavailable: overloaded; still 503 after ${MAX_ATTEMPTS} attempts, try again later`));
    expect(t.slept).toEqual([1000, 2000]);
    receiver.script.push({ status: 429, headers: { 'retry-after': '3600' } });
    const patient = transport();
    await expect(post(tracesEndpoint(receiver.url), {}, body, patient)).rejects.toThrow(/answered 429 Too Many Requests; it asks for a wait of 3600 s, try again later$/);
    expect(patient.slept).toEqual([]);
  });

  it('reads a partial success a collector answers in JSON', async () => {
    await using receiver = await startReceiver();
    receiver.script.push({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"partialSuccess":{"rejectedSpans":"4","errorMessage":"too old"}}' });
    expect(await post(tracesEndpoint(receiver.url), {}, body, transport())).toEqual({ rejected: 4, message: 'too old' });
    receiver.script.push({ status: 200, headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(await post(tracesEndpoint(receiver.url), {}, body, transport())).toEqual({ rejected: 0, message: '' });
  });

  it('says in one line what the collector objected to, with what to check', async () => {
    await using receiver = await startReceiver();
    receiver.script.push({ status: 401, headers: { 'content-type': 'application/json' }, body: '{"message":\n "Invalid credentials"}' });
    await expect(post(tracesEndpoint(receiver.url), {}, body, transport())).rejects.toThrow(
      new ExportError(`${receiver.url}/v1/traces answered 401 Unauthorized: {"message": "Invalid credentials"}; check the credentials (--header, OTEL_EXPORTER_OTLP_HEADERS)`));
    // A protobuf error answer is a google.rpc.Status: its message is field 2.
    const status = Uint8Array.from([0x08, 0x03, 0x12, 0x07, ...Buffer.from('bad ids')]);
    receiver.script.push({ status: 400, headers: { 'content-type': 'application/x-protobuf' }, body: status });
    await expect(post(tracesEndpoint(receiver.url), {}, body, transport())).rejects.toThrow(/answered 400 Bad Request: bad ids$/);
    receiver.script.push({ status: 404 });
    await expect(post(tracesEndpoint(receiver.url), {}, body, transport())).rejects.toThrow(/answered 404 Not Found; check the URL/);
  });

  it('says a collector cannot be reached, or did not answer in time, in one line', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(post(tracesEndpoint(`http://127.0.0.1:${port}`), {}, body, transport())).rejects.toThrow(
      new ExportError(`cannot reach http://127.0.0.1:${port}/v1/traces (ECONNREFUSED); is the collector running, and is this its OTLP/HTTP address?`));

    // A collector that takes the request and never answers.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      await expect(post(tracesEndpoint(url), {}, body, { ...transport(), timeoutMs: 50 })).rejects.toThrow(/^cannot reach .* \(no answer in 0\.05 s\)/);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
