// Where a Gemini request goes: the model and the method are in the path
// (`/v1beta/models/{model}:generateContent`), the key in a header, the query or a bearer token.
// What the gateway does not take is answered as the Gemini API answers it.
import type { IncomingHttpHeaders } from 'node:http';
import type { GeminiAuth } from './auth.ts';
import type { GoogleDetail } from './errors.ts';
import { googleErrorBody } from './errors.ts';
import type { WireRoute } from './types.ts';

export const GEMINI_PREFIX = '/v1beta/';
const MODELS = '/v1beta/models/';
const METHODS: Readonly<Record<string, boolean>> = { generateContent: false, streamGenerateContent: true };
const SERVED = 'POST /v1beta/models/{model}:generateContent and POST /v1beta/models/{model}:streamGenerateContent?alt=sse';

const KEY_WANTED = 'the model gateway wants the token Ladder gave this pass as the API key: "x-goog-api-key: <token>", "?key=<token>" or "Authorization: Bearer <token>" (GEMINI_API_KEY for Gemini CLI)';
const debugInfo = (detail: string): GoogleDetail => ({ '@type': 'type.googleapis.com/google.rpc.DebugInfo', detail });

// The Gemini API's own answers for a key it does not take, word for word: no key is 403
// PERMISSION_DENIED, a wrong API key 400 INVALID_ARGUMENT with reason API_KEY_INVALID, a bearer
// token that is not a valid OAuth token 401 UNAUTHENTICATED. Ladder's line is in a DebugInfo detail.
const AUTH_REFUSALS: Readonly<Record<Exclude<GeminiAuth, 'ok'>, { status: number; message: string; details: GoogleDetail[] }>> = {
  missing: {
    status: 403,
    message: 'Method doesn\'t allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.',
    details: [debugInfo(KEY_WANTED)],
  },
  'wrong-key': {
    status: 400,
    message: 'API key not valid. Please pass a valid API key.',
    details: [
      { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'generativelanguage.googleapis.com' } },
      debugInfo(KEY_WANTED),
    ],
  },
  'wrong-bearer': {
    status: 401,
    message: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
    details: [debugInfo(KEY_WANTED)],
  },
};

export type GeminiEntry = { readonly route: WireRoute; readonly endpoint: string } | { readonly status: number; readonly body: unknown };

export function geminiEntry(method: string, url: URL, headers: IncomingHttpHeaders, auth: (headers: IncomingHttpHeaders, query: URLSearchParams) => GeminiAuth): GeminiEntry {
  const checked = auth(headers, url.searchParams);
  if (checked !== 'ok') {
    const refusal = AUTH_REFUSALS[checked];
    return { status: refusal.status, body: googleErrorBody(refusal.status, refusal.message, refusal.details) };
  }
  const notFound = (why: string) => ({ status: 404, body: googleErrorBody(404, `${method} ${url.pathname}: ${why}`) });
  if (!url.pathname.startsWith(MODELS)) return notFound(`not served here; the model gateway serves ${SERVED}`);
  let rest: string;
  try {
    rest = decodeURIComponent(url.pathname.slice(MODELS.length));
  } catch {
    return notFound('the path is not valid percent-encoding');
  }
  // The model name may hold colons (`synthetic:retrier`) and comes unescaped: the method is after the last one.
  const colon = rest.lastIndexOf(':');
  const name = colon < 0 ? undefined : rest.slice(colon + 1);
  const stream = name === undefined ? undefined : METHODS[name];
  if (stream === undefined) return notFound(`not served here; the model gateway serves ${SERVED}`);
  if (method !== 'POST') return notFound('only POST is served here');
  const route = { model: rest.slice(0, colon), stream };
  // streamGenerateContent without alt=sse is a JSON array written as it grows: not served
  if (stream && url.searchParams.get('alt') !== 'sse') {
    return { status: 400, body: googleErrorBody(400, `POST ${url.pathname}: streamed answers are served as server-sent events only: add ?alt=sse (Gemini CLI and @google/genai send it)`) };
  }
  return { route, endpoint: `POST ${url.pathname}` };
}
