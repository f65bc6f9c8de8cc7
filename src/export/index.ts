// `ladder export <run> --otlp <url>`: a run's traces as OTLP spans, sent to a collector in
// batches. Passes are read one at a time (passes.ts), turned into spans (src/otlp/spans.ts),
// encoded (src/otlp/encode.ts) and posted (src/otlp/send.ts); nothing holds more than one pass
// and one batch. The encoding and the sending are the gateway's too (src/gateway/otlp.ts).
//
// Why Ladder's own encoder and not the OpenTelemetry JS exporter: the exporter sends spans an
// SDK recorded, so every span would have to be dressed as the SDK's ReadableSpan (hrtime
// pairs, a Resource, an instrumentation scope object) and the SDK brings six packages for
// what is here a hundred lines of protobuf; its own serializer, since 0.211, is hand-written
// too. Protobuf rather than JSON because it is what OTLP/HTTP exporters send by default and
// every collector named in docs/export.md takes it; a test decodes the requests with code
// generated from the official opentelemetry-proto files.
import { readManifest } from '../results/read.ts';
import { LADDER_VERSION } from '../results/manifest.ts';
import { encodeRequest, encodeSpan } from '../otlp/encode.ts';
import type { Origin } from '../otlp/encode.ts';
import { emptyLeftOut, runPasses } from './passes.ts';
import type { LeftOut } from './passes.ts';
import { ExportError, post, shown, tracesEndpoint } from '../otlp/send.ts';
import type { Transport } from '../otlp/send.ts';
import { hasWallClock, passSpans } from '../otlp/spans.ts';

export { ExportError } from '../otlp/send.ts';
export type { Transport } from '../otlp/send.ts';

/** The batch size of the OpenTelemetry SDK's BatchSpanProcessor (maxExportBatchSize). */
export const MAX_BATCH_SPANS = 512;
/** Half of nginx's default client_max_body_size (1 MiB), a common proxy in front of collectors. */
export const MAX_BATCH_BYTES = 512 * 1024;

export interface ExportOptions {
  /** `--otlp`: the collector's base URL or its /v1/traces endpoint. */
  otlp: string;
  /** `--header name=value`, repeatable. */
  headers?: readonly string[];
  /** OTEL_EXPORTER_OTLP_HEADERS (`name=value,name=value`, values percent-encoded); `--header` wins. */
  envHeaders?: string;
  /** `--content`: attach the conversation; never for a redacted run. */
  content?: boolean;
  /** Most spans and bytes of spans in one request; MAX_BATCH_SPANS and MAX_BATCH_BYTES by default. */
  batch?: { spans?: number; bytes?: number };
}

export interface ExportSummary {
  endpoint: string;
  /** Passes whose every span the collector took. */
  passes: number;
  spans: number;
  requests: number;
  /** Spans the collector said it rejected, with its messages. */
  rejected: number;
  rejections: string[];
  leftOut: LeftOut;
  /** Passes sent without content although --content asked for it (redacted, or recorded before traces held it). */
  withoutContent: number;
}

/** The headers to send; throws ExportError naming a malformed one (never its value). */
export function parseHeaders(flags: readonly string[] = [], env?: string): Record<string, string> {
  const headers = new Map<string, [string, string]>();
  const add = (text: string, where: string, decode: boolean): void => {
    const at = text.indexOf('=');
    const name = at < 0 ? text.trim() : text.slice(0, at).trim();
    if (at <= 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new ExportError(`${where} "${name}": expected name=value, e.g. --header "Authorization=Basic <base64 of key:secret>"`);
    }
    let value = text.slice(at + 1).trim();
    if (decode) {
      try {
        value = decodeURIComponent(value);
      } catch {
        throw new ExportError(`${where} "${name}": the value is not percent-encoded as OTEL_EXPORTER_OTLP_HEADERS requires`);
      }
    }
    // What fetch would refuse, said here rather than as a collector that cannot be reached.
    if (!/^[\t\x20-\x7e]*$/.test(value)) {
      throw new ExportError(`${where} "${name}": the value has a character a header cannot carry (a line break, a control or non-ASCII character)`);
    }
    headers.set(name.toLowerCase(), [name, value]);
  };
  for (const item of (env ?? '').split(',')) if (item.trim() !== '') add(item, 'OTEL_EXPORTER_OTLP_HEADERS', true);
  for (const flag of flags) add(flag, '--header', false);
  return Object.fromEntries(headers.values());
}

/** Sends every pass of the run at `dir` that the report counts; throws ExportError or ReportInputError. */
export async function exportRun(dir: string, options: ExportOptions, transport: Transport): Promise<ExportSummary> {
  const url = tracesEndpoint(options.otlp);
  const headers = parseHeaders(options.headers, options.envHeaders);
  const manifest = readManifest(dir);
  const origin: Origin = {
    resource: {
      'service.name': 'ladder',
      'service.version': manifest.ladderVersion,
      'ladder.run.id': manifest.runId,
      'ladder.model': manifest.model.spec,
    },
    scope: { name: 'ladder', version: LADDER_VERSION },
  };
  const summary: ExportSummary = {
    endpoint: shown(url), passes: 0, spans: 0, requests: 0, rejected: 0, rejections: [], leftOut: emptyLeftOut(), withoutContent: 0,
  };
  const maxSpans = options.batch?.spans ?? MAX_BATCH_SPANS;
  const maxBytes = options.batch?.bytes ?? MAX_BATCH_BYTES;
  let batch: Uint8Array[] = [];
  let bytes = 0;
  /** Passes whose last span is in the batch: sent once it is. */
  let ending = 0;
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const accepted = await post(url, headers, encodeRequest(origin, batch), transport);
    summary.requests += 1;
    summary.spans += batch.length;
    summary.passes += ending;
    summary.rejected += accepted.rejected;
    if (accepted.message !== '') summary.rejections.push(accepted.message);
    batch = [];
    bytes = 0;
    ending = 0;
  };
  try {
    for await (const pass of runPasses(dir, summary.leftOut)) {
      if (!hasWallClock(pass)) {
        const { rung, arm, pass: index, time } = pass.start;
        summary.leftOut.damaged += 1;
        summary.leftOut.problems.push(`${pass.file}:1: pass.start field "time": not a date, got ${JSON.stringify(time)}; ${rung} ${arm} pass ${index} left out`);
        continue;
      }
      if (options.content === true && pass.start.content !== 'full') summary.withoutContent += 1;
      for (const span of passSpans(pass, { runId: manifest.runId, content: options.content === true })) {
        const encoded = encodeSpan(span);
        if (batch.length >= maxSpans || (batch.length > 0 && bytes + encoded.length > maxBytes)) await flush();
        batch.push(encoded);
        bytes += encoded.length;
      }
      ending += 1;
    }
    await flush();
  } catch (error) {
    if (error instanceof ExportError && summary.passes > 0) {
      throw new ExportError(`${error.message} (${summary.passes} passes were sent before it)`);
    }
    throw error;
  }
  return summary;
}
