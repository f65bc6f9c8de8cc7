// The pass's token, checked on every request. Compared as digests in constant time so the
// time a wrong token takes says nothing about the right one.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** A check of `Authorization: Bearer <token>` or `x-api-key: <token>`: the OpenAI SDK sends the first, Anthropic's the first or the second. */
export function tokenCheck(token: string): (headers: IncomingHttpHeaders) => boolean {
  if (typeof token !== 'string' || token.trim() === '') throw new RangeError('model gateway token must be a non-empty string');
  const expected = digest(token);
  const matches = (given: string | undefined) => given !== undefined && timingSafeEqual(digest(given), expected);
  return (headers) => {
    const bearer = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1]?.trim();
    const key = headers['x-api-key'];
    return matches(bearer) || matches(Array.isArray(key) ? key[0] : key);
  };
}

export type GeminiAuth = 'ok' | 'missing' | 'wrong-key' | 'wrong-bearer';

/**
 * Gemini's key: `x-goog-api-key` (what @google/genai and Gemini CLI send), `?key=` (Google's REST
 * samples) or a bearer token. What is wrong is told apart because Google answers each its own way.
 */
export function geminiKeyCheck(token: string): (headers: IncomingHttpHeaders, query: URLSearchParams) => GeminiAuth {
  const expected = digest(token);
  const matches = (given: string) => timingSafeEqual(digest(given), expected);
  return (headers, query) => {
    const header = headers['x-goog-api-key'];
    const key = (Array.isArray(header) ? header[0] : header) ?? query.get('key') ?? undefined;
    const bearer = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1]?.trim();
    if (key !== undefined) return matches(key) ? 'ok' : 'wrong-key';
    if (bearer !== undefined) return matches(bearer) ? 'ok' : 'wrong-bearer';
    return 'missing';
  };
}
