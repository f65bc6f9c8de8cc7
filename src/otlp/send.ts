// OTLP/HTTP: one POST of an ExportTraceServiceRequest per batch, as `application/x-protobuf`,
// retried where the OTLP specification says a client may retry (429, 502, 503, 504, after
// `Retry-After` when the collector gives one). A collector that cannot be reached, or that
// answers with any other error, ends the export with one line saying which and why.
import { readFields } from './protobuf.ts';
import { partialSuccess } from './encode.ts';

/** The OTLP exporters' default timeout for one request (OTEL_EXPORTER_OTLP_TIMEOUT). */
export const REQUEST_TIMEOUT_MS = 10_000;
/** Attempts at one batch when the collector answers with a retryable status. */
export const MAX_ATTEMPTS = 3;
/** The first wait before a retry without Retry-After; doubled for each further one. */
const BACKOFF_MS = 1_000;
/** A Retry-After longer than this is a collector that wants no more now: give up rather than hang. */
const MAX_RETRY_AFTER_MS = 30_000;
/** Statuses the OTLP/HTTP specification lists as retryable. */
const RETRYABLE = new Set([429, 502, 503, 504]);
/** Enough of an error body to say what the collector objected to. */
const MAX_BODY_CHARS = 200;

/** An export that could not be sent; the message is one line saying where, what and what to do. */
export class ExportError extends Error {
  override name = 'ExportError';
}

export interface Transport {
  fetch: typeof fetch;
  sleep: (ms: number) => Promise<void>;
  /** How long one request may take; REQUEST_TIMEOUT_MS when not given. */
  timeoutMs?: number;
}

/** What a collector said about a request it took. */
export interface Accepted {
  /** Spans the collector said it rejected (OTLP partial success), and why. */
  rejected: number;
  message: string;
}

/**
 * `--otlp <url>` as the traces endpoint: a URL that ends in /v1/traces is used as it is; any
 * other is the collector's base, as OTEL_EXPORTER_OTLP_ENDPOINT is, and /v1/traces is added.
 */
export function tracesEndpoint(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ExportError(`--otlp "${text}": not a URL; give the collector's address, e.g. http://127.0.0.1:4318`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ExportError(`--otlp "${shown(url)}": OTLP/HTTP needs an http:// or https:// URL (gRPC endpoints are not supported)`);
  }
  if (!/\/v1\/traces\/?$/.test(url.pathname)) url.pathname = `${url.pathname.replace(/\/+$/, '')}/v1/traces`;
  return url;
}

/** The URL without any credentials in it, for messages. */
export function shown(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/** Posts one encoded request; resolves when the collector took it, throws ExportError when not. */
export async function post(url: URL, headers: Record<string, string>, body: Uint8Array, transport: Transport): Promise<Accepted> {
  const timeoutMs = transport.timeoutMs ?? REQUEST_TIMEOUT_MS;
  for (let attempt = 1; ; attempt += 1) {
    let response: Response;
    try {
      response = await transport.fetch(url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/x-protobuf' },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new ExportError(`cannot reach ${shown(url)} (${reason(error, timeoutMs)}); is the collector running, and is this its OTLP/HTTP address?`);
    }
    const answer = new Uint8Array(await response.arrayBuffer().catch(() => new ArrayBuffer(0)));
    if (response.ok) return accepted(answer, response.headers.get('content-type')) ?? { rejected: 0, message: '' };
    const wait = retryAfterMs(response.headers.get('retry-after')) ?? BACKOFF_MS * 2 ** (attempt - 1);
    if (RETRYABLE.has(response.status) && attempt < MAX_ATTEMPTS && wait <= MAX_RETRY_AFTER_MS) {
      await transport.sleep(wait);
      continue;
    }
    const said = errorText(answer, response.headers.get('content-type'));
    const hint = response.status === 401 || response.status === 403 ? '; check the credentials (--header, OTEL_EXPORTER_OTLP_HEADERS)'
      : response.status === 404 ? '; check the URL (the collector\'s OTLP/HTTP traces endpoint)'
        : !RETRYABLE.has(response.status) ? ''
          : wait > MAX_RETRY_AFTER_MS ? `; it asks for a wait of ${Math.round(wait / 1000)} s, try again later`
            : `; still ${response.status} after ${attempt} attempts, try again later`;
    throw new ExportError(`${shown(url)} answered ${response.status} ${response.statusText}${said === '' ? '' : `: ${said}`}${hint}`);
  }
}

/** A partial success, in the encoding the collector answered with (protobuf, or JSON for a JSON request or a lenient server). */
function accepted(body: Uint8Array, contentType: string | null): Accepted | undefined {
  if (contentType?.includes('json') !== true) return partialSuccess(body);
  try {
    const answer = JSON.parse(new TextDecoder().decode(body)) as { partialSuccess?: { rejectedSpans?: string | number; errorMessage?: string } };
    const rejected = Number(answer.partialSuccess?.rejectedSpans ?? 0);
    const message = answer.partialSuccess?.errorMessage ?? '';
    return rejected === 0 && message === '' ? undefined : { rejected, message };
  } catch {
    return undefined;
  }
}

/** The seconds or HTTP date of a Retry-After header, in ms from now; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** What an error answer says: a google.rpc.Status message (protobuf), or the text of the body. */
function errorText(body: Uint8Array, contentType: string | null): string {
  let text: string;
  if (contentType?.includes('protobuf') === true) {
    const message = readFields(body).find((f) => f.field === 2 && 'bytes' in f);
    text = message !== undefined && 'bytes' in message ? new TextDecoder().decode(message.bytes) : '';
  } else text = new TextDecoder().decode(body);
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_BODY_CHARS ? `${line.slice(0, MAX_BODY_CHARS)}...` : line;
}

function reason(error: unknown, timeoutMs: number): string {
  const err = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError') return `no answer in ${timeoutMs / 1000} s`;
  return err.cause?.code ?? err.cause?.message ?? err.message ?? String(error);
}
