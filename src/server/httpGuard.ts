// Who may talk to the HTTP server. The Host header must name the address the server is
// bound to (a DNS-rebinding page reaches 127.0.0.1 under its own host name, and is refused
// here), an Origin header if present must too, and with a token every request must carry
// it as a bearer. A non-loopback bind is refused unless asked for and protected by a token.
import { hash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** Throws one line saying what to add when a bind would expose the server unprotected. */
export function checkBind(host: string, allowRemote: boolean, token: string | undefined): void {
  if (isLoopback(host)) return;
  if (!allowRemote) {
    throw new RangeError(
      `--host ${host} is not a loopback address; add --allow-remote and a --token (or LADDER_SERVE_TOKEN) to serve beyond this machine`,
    );
  }
  if (!token) {
    throw new RangeError(`--host ${host} with --allow-remote needs a --token (or LADDER_SERVE_TOKEN): anyone on the network could call the tools`);
  }
}

export interface Guard {
  /** Null when the request may pass; else the status and message to refuse it with. */
  check(req: IncomingMessage): { status: number; message: string; headers?: Record<string, string> } | null;
}

export function makeGuard(bindHost: string, port: number, token: string | undefined): Guard {
  const name = bindHost.includes(':') && !bindHost.startsWith('[') ? `[${bindHost}]` : bindHost;
  const names = isLoopback(bindHost) ? [...LOOPBACK_NAMES, name] : [name];
  const allowed = new Set(names.flatMap((n) => (port === 80 ? [n, `${n}:80`] : [`${n}:${port}`])));
  // A wildcard bind answers under any name the network gives it; the token is the protection.
  const anyHost = isWildcard(bindHost);
  const expected = token === undefined ? undefined : sha256(`Bearer ${token}`);

  return {
    check(req) {
      const host = req.headers.host?.toLowerCase();
      if (!anyHost && (host === undefined || !allowed.has(host))) {
        return { status: 403, message: `Invalid Host header: ${host ?? '(none)'}` };
      }
      const origin = req.headers.origin;
      if (origin !== undefined && !anyHost && !allowed.has(originHost(origin))) {
        return { status: 403, message: `Invalid Origin header: ${origin}` };
      }
      if (expected !== undefined) {
        const given = req.headers.authorization;
        if (given === undefined || !timingSafeEqual(sha256(given), expected)) {
          return {
            status: 401,
            message: given === undefined ? 'Missing bearer token' : 'Invalid bearer token',
            headers: { 'WWW-Authenticate': 'Bearer realm="ladder"' },
          };
        }
      }
      return null;
    },
  };
}

function originHost(origin: string): string {
  try {
    const url = new URL(origin);
    return url.port === '' ? `${url.hostname}:${url.protocol === 'https:' ? 443 : 80}` : url.host;
  } catch {
    return '';
  }
}

/** One call, not a Hash object per request: this runs on every request to the gateway. */
function sha256(value: string): Buffer {
  return hash('sha256', value, 'buffer');
}
