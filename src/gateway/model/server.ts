// The model gateway's HTTP server: 127.0.0.1 on a port of its own, the pass's token on every
// request, one codec per endpoint, and the answer callback behind all four. An agent that
// disconnects aborts its answer; closing the gateway aborts every answer still running.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ModelResponse } from '../../models/types.ts';
import { geminiKeyCheck, tokenCheck } from './auth.ts';
import { chatCodec } from './chat.ts';
import { anthropicErrorBody, failureReply, FINAL_HEADERS, openaiErrorBody } from './errors.ts';
import { geminiCodec } from './gemini.ts';
import { GEMINI_PREFIX, geminiEntry } from './geminiRoute.ts';
import { messagesCodec } from './messages.ts';
import { responsesCodec } from './responses.ts';
import { eventSink } from './sse.ts';
import { WireRequestError } from './types.ts';
import type { ModelGateway, ModelGatewayOptions, ParsedRequest, WireCodec, WireRoute } from './types.ts';

// A long conversation with tool results is a few MiB; 32 MiB leaves room for any real one and
// still bounds what one request can make the gateway hold.
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

const ENDPOINTS: Readonly<Record<string, WireCodec>> = {
  '/v1/chat/completions': chatCodec,
  '/v1/responses': responsesCodec,
  '/v1/messages': messagesCodec,
};

const SERVED = 'POST /v1/chat/completions, POST /v1/responses, POST /v1/messages and POST /v1beta/models/{model}:generateContent (Gemini)';

/**
 * A missing or wrong key (the pass token), in the provider's words, so an agent reads it as the
 * auth failure it is: Anthropic's 401 authentication_error "invalid x-api-key", OpenAI's
 * "You didn't provide an API key..." or "Incorrect API key provided: ..." (with the key masked, as
 * OpenAI masks it, and its code invalid_api_key). As their 401s read; the error pages name the
 * status and type, not the wording.
 */
function tokenRefusal(anthropic: boolean, headers: IncomingMessage['headers']): { message: string; code: string | null } {
  if (anthropic) return { message: 'invalid x-api-key', code: null };
  const given = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1]?.trim() ?? [headers['x-api-key']].flat()[0];
  if (given === undefined || given === '') {
    return {
      message: "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.",
      code: null,
    };
  }
  const masked = given.length > 8 ? `${given.slice(0, 3)}${'*'.repeat(given.length - 7)}${given.slice(-4)}` : '*'.repeat(given.length);
  return { message: `Incorrect API key provided: ${masked}. You can find your API key at https://platform.openai.com/account/api-keys.`, code: 'invalid_api_key' };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** A refusal in the codec's shape, under the status its provider would answer with. */
function sendCodecError(res: ServerResponse, codec: WireCodec, status: number, message: string, param: string | null, code: string | null, hint: string | null = null, headers: Record<string, string> = {}): void {
  sendJson(res, codec.httpStatus?.(status) ?? status, codec.errorBody(status, message, param, code, hint), headers);
}

type Body = { readonly bytes: Buffer } | { readonly tooLarge: true };

/** The whole body, or word that it passed `max` bytes: by its declared length at once, else while it arrives. */
function readBody(req: IncomingMessage, max: number): Promise<Body> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) return Promise.resolve({ tooLarge: true });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        // node discards the rest of the body once the response ends
        req.off('data', onData);
        resolve({ tooLarge: true });
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => resolve({ bytes: Buffer.concat(chunks) }));
    req.on('error', reject);
  });
}

export async function startModelGateway(options: ModelGatewayOptions): Promise<ModelGateway> {
  const authorized = tokenCheck(options.token);
  const geminiAuthorized = geminiKeyCheck(options.token);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1) throw new RangeError(`maxBodyBytes must be a positive integer, got ${maxBodyBytes}`);
  const running = new Set<AbortController>();

  async function answer(codec: WireCodec, parsed: ParsedRequest, res: ServerResponse): Promise<void> {
    const controller = new AbortController();
    running.add(controller);
    res.on('close', () => {
      running.delete(controller);
      if (!res.writableFinished) controller.abort(new Error(`the agent disconnected before the ${codec.format} answer was written`));
    });
    // a client gone before the listener above was there never fires it
    if (res.req.socket.destroyed) controller.abort(new Error(`the agent disconnected before the ${codec.format} answer was written`));
    const anthropic = codec.format === 'anthropic-messages';
    const { signal } = controller;
    // the callback gets the neutral request only; what the codec keeps to write the answer stays here
    const { wire: _wire, ...request } = parsed;
    if (!parsed.stream) {
      let response: ModelResponse;
      try {
        response = await options.answer(request, { signal });
      } catch (err) {
        const failure = failureReply(err, anthropic);
        sendCodecError(res, codec, failure.status, failure.message, null, failure.code, null, failure.final ? FINAL_HEADERS : {});
        return;
      }
      sendJson(res, 200, codec.reply(parsed, response));
      return;
    }
    const sink = eventSink(res);
    const writer = codec.stream(parsed, sink);
    let answered = false;
    const onText = (delta: string) => {
      // text after the answer, or after the agent left, has nowhere to go
      if (!answered && !signal.aborted) writer.text(delta);
    };
    try {
      const response = await options.answer(request, { signal, onText });
      answered = true;
      if (signal.aborted) return;
      writer.finish(response);
      sink.end();
    } catch (err) {
      answered = true;
      if (signal.aborted && res.destroyed) return;
      const failure = failureReply(err, anthropic);
      if (!sink.opened) {
        sendCodecError(res, codec, failure.status, failure.message, null, failure.code, null, failure.final ? FINAL_HEADERS : {});
        return;
      }
      writer.fail(failure.status, failure.message, failure.code);
      sink.end();
    }
  }

  /** The body read, parsed by the codec and answered; `fail` refuses in the codec's shape. */
  async function serve(codec: WireCodec, req: IncomingMessage, res: ServerResponse, endpoint: string, route?: WireRoute): Promise<void> {
    const body = await readBody(req, maxBodyBytes);
    const fail = (status: number, message: string, param: string | null = null, code: string | null = null, hint: string | null = null) => sendCodecError(res, codec, status, message, param, code, hint);
    if ('tooLarge' in body) return fail(413, `${endpoint}: the body is over the gateway's limit of ${maxBodyBytes} bytes`);
    let json: unknown;
    try {
      json = JSON.parse(body.bytes.toString('utf8'));
    } catch (err) {
      // OpenAI's words for it (as its 400s read); Anthropic's are not documented, so Ladder's
      if (codec.format === 'openai-chat' || codec.format === 'openai-responses') {
        return fail(400, "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)");
      }
      return fail(400, `${endpoint}: the body is not JSON (${(err as Error).message})`);
    }
    let parsed: ParsedRequest;
    try {
      parsed = codec.parse(json, req.headers, route);
    } catch (err) {
      if (err instanceof WireRequestError) return fail(err.status, err.message, err.param, err.code, err.hint);
      throw err;
    }
    await answer(codec, parsed, res);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://gateway');
    const path = url.pathname;
    if (path.startsWith(GEMINI_PREFIX)) {
      // Google's API: its key, its paths and its error shape from the first byte
      const entry = geminiEntry(method, url, req.headers, geminiAuthorized);
      if ('status' in entry) return sendJson(res, entry.status, entry.body);
      return serve(geminiCodec, req, res, entry.endpoint, entry.route);
    }
    const codec = ENDPOINTS[path];
    // an unknown path answers in the shape of the client that asked: Anthropic's sends anthropic-version
    const anthropic = codec ? codec.format === 'anthropic-messages' : req.headers['anthropic-version'] !== undefined;
    const fail = (status: number, message: string, param: string | null = null, headers: Record<string, string> = {}, code: string | null = null) =>
      sendJson(res, status, codec ? codec.errorBody(status, message, param, code) : anthropic ? anthropicErrorBody(status, message) : openaiErrorBody(status, message, param, code), headers);
    if (!authorized(req.headers)) {
      const refusal = tokenRefusal(anthropic, req.headers);
      return fail(401, refusal.message, null, {}, refusal.code);
    }
    if (path === '/v1/models' && method === 'GET') return sendJson(res, 200, modelList(options.model, anthropic));
    // OpenAI's words for a path it does not serve; Anthropic's are not documented, so Ladder's
    if (codec === undefined) return fail(404, anthropic ? `${method} ${path}: not served here; the model gateway serves ${SERVED}` : `Invalid URL (${method} ${path})`);
    if (method !== 'POST') return fail(405, `${method} ${path}: only POST is served here`, null, { allow: 'POST' });
    await serve(codec, req, res, `POST ${path}`);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      // a fault of the gateway itself: said in the answer when nothing was sent yet, else the stream is cut
      if (!res.headersSent) sendJson(res, 500, openaiErrorBody(500, `the model gateway failed: ${err instanceof Error ? err.message : String(err)}`));
      else res.destroy(err instanceof Error ? err : new Error(String(err)));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= new Promise<void>((resolve) => {
      for (const controller of running) controller.abort(new Error('the model gateway closed'));
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closing;
  };
  return {
    openaiBaseUrl: `http://127.0.0.1:${port}/v1`,
    anthropicBaseUrl: `http://127.0.0.1:${port}`,
    geminiBaseUrl: `http://127.0.0.1:${port}`,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** GET /v1/models: the one model, in the listing shape of the client that asks. */
function modelList(model: string | undefined, anthropic: boolean): unknown {
  const ids = model === undefined ? [] : [model];
  if (anthropic) {
    return { data: ids.map((id) => ({ type: 'model', id, display_name: id, created_at: '1970-01-01T00:00:00Z' })), has_more: false, first_id: ids[0] ?? null, last_id: ids.at(-1) ?? null };
  }
  return { object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: 'ladder' })) };
}
