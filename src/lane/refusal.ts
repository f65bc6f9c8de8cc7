// A server's definite refusal of the protocol Ladder offered it. A server on the MCP SDK's v2
// line that serves only the 2026-07-28 revision answers a 2025 `initialize` with -32022
// "Unsupported protocol version" and the revisions it does support in the error's data (MCP
// 2026-07-28, basic/versioning: the server MUST answer an unsupported version so, and SHOULD list
// `supported`); a 2025 server has no `server/discover` to offer 2026-07-28 in. Either answer is
// the same on every try: a pass that retried it spent its whole connect timeout re-asking, and
// ended with the last try's timeout instead of the server's reason. So a refusal is recognised,
// said once with what each side offered and the protocol setting that would work, and not
// retried. Only an error that answered the connect's own requests is read here.
import { answeredError, pinnedRevisionRefused, revisionsOf, RpcCode, unspokenVersionAnswered } from '../mcp/errors.ts';
import { MODERN_REVISION } from '../mcp/protocols.ts';
import type { Protocol } from '../mcp/protocols.ts';

/**
 * JSON-RPC codes that answer the shape of the request, not its moment: a parse error, an invalid
 * request, invalid params. To a connect they say the server cannot read Ladder's envelope.
 */
const ENVELOPE_CODES: ReadonlySet<number> = new Set([-32700, -32600, -32602]);

export interface ProtocolRefusal {
  /**
   * `version`: the server refused the protocol version (-32022); `envelope`: it could not read
   * the request (-32700, -32600, -32602); `answered`: it answered with a version Ladder does not
   * speak; `pinned`: its `server/discover` did not offer the pinned 2026-07-28 (or it has none).
   */
  kind: 'version' | 'envelope' | 'answered' | 'pinned';
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
  if (pinnedRevisionRefused(error)) return { kind: 'pinned', offered: [], said: (error as Error).message };
  const answered = unspokenVersionAnswered(error);
  if (answered !== undefined) return { kind: 'answered', offered: [answered], said: `it answered initialize with protocol version ${answered}` };
  const rpc = answeredError(error);
  if (rpc === undefined) return undefined;
  const kind = rpc.code === RpcCode.UnsupportedProtocolVersion ? 'version' : ENVELOPE_CODES.has(rpc.code) ? 'envelope' : undefined;
  if (kind === undefined) return undefined;
  const http = rpc.httpStatus === undefined ? '' : `, HTTP ${rpc.httpStatus}`;
  return { kind, offered: offeredIn(rpc.data), said: `${rpc.message}${http}` };
}

const list = (versions: readonly string[]) => versions.join(', ');

/**
 * The protocol setting that would reach a server that refused `protocol`: `auto` speaks every
 * revision Ladder knows, so it is the answer unless it was what was refused, or the server named
 * only revisions Ladder does not speak.
 */
export function settingThatWorks(refusal: ProtocolRefusal, protocol: Protocol): Protocol | undefined {
  if (protocol === 'auto' || refusal.kind === 'envelope') return undefined;
  const auto = revisionsOf('auto');
  if (refusal.offered.length > 0 && refusal.offered.every((v) => !auto.includes(v))) return undefined;
  // Pinned to 2026-07-28 and refused: a server that offered 2025 revisions speaks legacy.
  return protocol === MODERN_REVISION && refusal.offered.length > 0 && !refusal.offered.includes(MODERN_REVISION) ? 'legacy' : 'auto';
}

/**
 * One line: which server refused, what each side offered, the server's words, and what to do.
 * `where` is its command or URL, as every start error names it; `protocol` is what Ladder was told to speak.
 */
export function refusalLine(server: string, where: string, refusal: ProtocolRefusal, protocol: Protocol): string {
  const ours = `Ladder offered ${list(revisionsOf(protocol))} (protocol: ${protocol})`;
  const theirs = refusal.offered.length === 0 ? 'it did not say which revisions it speaks' : `it speaks ${list(refusal.offered)}`;
  const what = refusal.kind === 'envelope'
    ? `refused Ladder's request as malformed (${where}): ${refusal.said}; ${theirs}, ${ours}`
    : refusal.kind === 'pinned'
      ? `does not speak ${MODERN_REVISION} (${where}): ${refusal.said}; ${ours}`
      : `refused Ladder's protocol version (${where}): ${theirs}, ${ours} (${refusal.said})`;
  const works = settingThatWorks(refusal, protocol);
  const auto = revisionsOf('auto');
  const todo = works !== undefined
    ? `give it protocol: ${works} in its server entry, or --protocol ${works}`
    : refusal.offered.length > 0 && refusal.offered.every((v) => !auto.includes(v))
      ? 'the server speaks only revisions this Ladder does not; serve one it speaks as well'
      : "the server answers every connect this way; serve a revision Ladder speaks (a server on the MCP SDK v2 serves both eras unless told legacy: 'reject')";
  // The same answer on every try: there is nothing to wait for.
  return `server "${server}" ${what}; it was not tried again: ${todo}`;
}
