// The model gateway's contract: an external agent speaks a provider's wire format to it, the
// gateway turns each request into Ladder's neutral ModelRequest and back. Nothing here knows
// where the answer comes from (a provider adapter, a synthetic policy, a replay).
import type { ModelRequest, ModelResponse } from '../../models/types.ts';

export type WireFormat = 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'gemini';

export interface GatewayRequest {
  format: WireFormat;
  /** The model name the agent asked for. */
  model: string;
  /**
   * Neutral: messages and function tools. A Responses namespace tool's nested tools are named
   * `<namespace>__<name>` (Codex: `mcp__<server>__<tool>`); every other tool keeps its own name.
   */
  request: ModelRequest;
  stream: boolean;
  /** Tools the agent offered that are not functions the model can call through Ladder (web_search, image_generation...): their type or name, for the report's "agent's own tools". */
  otherTools: string[];
}

export interface AnswerOptions {
  /** Aborted when the agent disconnects before the answer is written, or the gateway closes. */
  signal: AbortSignal;
  /** Called with text as it is produced, when the answerer streams; the gateway forwards each piece at once. Given only for streamed requests. */
  onText?: (delta: string) => void;
}

export interface ModelGatewayOptions {
  /** Required on every request: `Authorization: Bearer <token>` or `x-api-key: <token>`; else 401 in the format's error shape. */
  token: string;
  answer(request: GatewayRequest, options: AnswerOptions): Promise<ModelResponse>;
  /** Default 32 MiB; a larger body is answered 413. */
  maxBodyBytes?: number;
  /** The model `GET /v1/models` lists; without it the list is empty. */
  model?: string;
}

export interface ModelGateway extends AsyncDisposable {
  /** `http://127.0.0.1:<port>/v1`: the OpenAI SDK's and Codex's base_url. */
  readonly openaiBaseUrl: string;
  /** `http://127.0.0.1:<port>`: the Anthropic SDK appends /v1/messages itself. */
  readonly anthropicBaseUrl: string;
  /** `http://127.0.0.1:<port>`: Gemini CLI's GOOGLE_GEMINI_BASE_URL; @google/genai appends /v1beta/models/... itself. */
  readonly geminiBaseUrl: string;
  close(): Promise<void>;
}

/**
 * A request the endpoint does not take, said in one line naming the endpoint and the field;
 * answered 400 (or `status`) in the endpoint's error shape.
 */
export class WireRequestError extends Error {
  override readonly name = 'WireRequestError';
  constructor(
    message: string,
    /** The field at fault, as the provider's own `param` would name it. */
    readonly param: string | null = null,
    readonly status = 400,
    /** OpenAI's `code` for it (`missing_required_parameter`, `invalid_value`...), when OpenAI has one. */
    readonly code: string | null = null,
    /** What to send instead, when `message` is the provider's own fixed wording (Gemini puts it in the error's details). */
    readonly hint: string | null = null,
  ) {
    super(message);
  }
}

/** Writes one server-sent event at once; `event` is the SSE `event:` line, when the format uses one. */
export interface EventSink {
  send(data: unknown, event?: string): void;
  /** `data: [DONE]` and the like: a line that is not JSON. */
  sendRaw(data: string): void;
  /** Bytes outside the event framing: Google sends an error mid-stream as a bare JSON object. */
  write(text: string): void;
}

/** Where a request came in: Gemini's model name and method are in the path. */
export interface WireRoute {
  /** The model named in the path (`models/{model}:method`), when the endpoint has one. */
  readonly model?: string;
  readonly stream?: boolean;
}

/** What every wire format supplies to the server: parsing, and the answer in both shapes. */
export interface WireCodec {
  readonly format: WireFormat;
  /** `headers` are lower-case, as node gives them. */
  parse(body: unknown, headers: Readonly<Record<string, string | string[] | undefined>>, route?: WireRoute): ParsedRequest;
  /** The non-streamed body for an answer. */
  reply(parsed: ParsedRequest, response: ModelResponse): unknown;
  /** A stream writer for one request: events go to `sink` as the answer is produced. */
  stream(parsed: ParsedRequest, sink: EventSink): WireStream;
  /** The format's error body for a status: OpenAI's `{error: {message, type, param, code}}` or Anthropic's `{type: 'error', error: {type, message}}`. */
  errorBody(status: number, message: string, param?: string | null, code?: string | null, hint?: string | null): unknown;
  /** The HTTP status the provider answers for one of the gateway's (Gemini has no 413, 502 or 529); the same when absent. */
  httpStatus?(status: number): number;
}

export interface ParsedRequest extends GatewayRequest {
  /** Per-format state the answer needs to be written back (names, include_usage...). */
  readonly wire: unknown;
}

export interface WireStream {
  /** Text as the answerer produces it; the stream opens on the first call. */
  text(delta: string): void;
  /** The whole answer: closes what is open, writes the calls and the final events. */
  finish(response: ModelResponse): void;
  /** The answer failed after the stream was open: the format's in-stream error, then the end. */
  fail(status: number, message: string, code?: string | null): void;
}
