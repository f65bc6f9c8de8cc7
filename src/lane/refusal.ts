// A server's definite refusal of the protocol Ladder speaks. A server on the MCP SDK's v2 line
// that serves only the 2026-07-28 revision answers Ladder's `initialize` (2025-11-25) with
// -32022 "Unsupported protocol version" and the revisions it does support in the error's data
// (MCP 2026-07-28, basic/versioning: the server MUST answer an unsupported version so, and
// SHOULD list `supported`). That answer is the same on every try: a pass that retried it spent
// its whole 60 s connect timeout re-asking, and ended with the last try's timeout instead of
// the server's reason. So a refusal is recognised, said once with what each side offered, and
// not retried. Only an error that answered the connect's own request is read here.
import { answeredError, SPOKEN_REVISIONS, unspokenVersionAnswered } from '../mcp/errors.ts';

/** The 2026-07-28 revision's code for a protocol version the server does not support. */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;
/**
 * JSON-RPC codes that answer the shape of the request, not its moment: a parse error, an invalid
 * request, invalid params. To `initialize` they say the server cannot read Ladder's envelope
 * (a server that wants the 2026-07-28 `_meta` envelope answers its absence with -32602).
 */
const ENVELOPE_CODES: ReadonlySet<number> = new Set([-32700, -32600, -32602]);

/** The revisions Ladder speaks, newest first: what its MCP client offers. */
export const LADDER_PROTOCOL_VERSIONS: readonly string[] = SPOKEN_REVISIONS;

export interface ProtocolRefusal {
  /**
   * `version`: the server refused the protocol version (-32022); `envelope`: it could not read
   * the request (-32700, -32600, -32602); `answered`: it answered with a version Ladder does not speak.
   */
  kind: 'version' | 'envelope' | 'answered';
  /** The revisions the server said it speaks; empty when it did not say. */
  offered: readonly string[];
  /** The server's answer in its own words: `MCP error -32022: Unsupported protocol version: 2025-11-25`. */
  said: string;
}

function offeredIn(data: unknown): string[] {
  const supported = (data as { supported?: unknown } | undefined)?.supported;
  return Array.isArray(supported) ? supported.filter((v): v is string => typeof v === 'string') : [];
}

/** The refusal in an error a connect threw, or undefined when the error is anything else (a timeout, a crash, an outage). */
export function protocolRefusal(error: unknown): ProtocolRefusal | undefined {
  const answered = unspokenVersionAnswered(error);
  if (answered !== undefined) return { kind: 'answered', offered: [answered], said: `it answered initialize with protocol version ${answered}` };
  const rpc = answeredError(error);
  if (rpc === undefined) return undefined;
  const kind = rpc.code === UNSUPPORTED_PROTOCOL_VERSION ? 'version' : ENVELOPE_CODES.has(rpc.code) ? 'envelope' : undefined;
  if (kind === undefined) return undefined;
  // The SDK's error message already carries its code; a body's does not.
  const said = rpc.message.startsWith('MCP error ') ? rpc.message : `MCP error ${rpc.code}: ${rpc.message}`;
  const http = rpc.httpStatus === undefined ? '' : `, HTTP ${rpc.httpStatus}`;
  return { kind, offered: offeredIn(rpc.data), said: `${said}${http}` };
}

const list = (versions: readonly string[]) => versions.join(', ');

/**
 * One line: which server refused, what each side offered, the server's words, and what to do.
 * `where` is its command or URL, as every start error names it.
 */
export function refusalLine(server: string, where: string, refusal: ProtocolRefusal): string {
  const ours = `Ladder speaks ${list(LADDER_PROTOCOL_VERSIONS)}`;
  const theirs = refusal.offered.length === 0 ? 'it did not say which revisions it speaks' : `it speaks ${list(refusal.offered)}`;
  const what = refusal.kind === 'envelope'
    ? `refused Ladder's initialize request as malformed (${where}): ${refusal.said}; ${theirs}, ${ours}`
    : `refused Ladder's protocol version (${where}): ${theirs}, ${ours} (${refusal.said})`;
  const todo = refusal.offered.length > 0 && refusal.offered.every((v) => !LADDER_PROTOCOL_VERSIONS.includes(v))
    ? 'the server speaks only revisions this Ladder does not'
    : 'the server answers every connect this way';
  // The same answer on every try: there is nothing to wait for.
  return `server "${server}" ${what}; ${todo}, so it was not tried again: serve a revision Ladder speaks as well ` +
    `(a server on the MCP SDK v2 serves both eras unless told legacy: 'reject')`;
}
