// Which MCP revision Ladder's client speaks with a server: a setting users write (a rung's server
// entry, a gateway `mcpServers` entry, `--protocol`, an arm's `protocol=`). No SDK import: the
// config readers and the arm parser use it, and they stay free of the SDK (test/mcp/seam.test.ts).
//
// - `auto` (the default): ask `server/discover` first (the 2026-07-28 revision, SEP-2575), and
//   fall back to the 2025 `initialize` handshake when the server gives a definite legacy answer.
//   That is what the SDK's v2 client does, and what clients such as Claude Code do today.
// - `legacy`: the 2025 handshake only, byte for byte what a 2025 client sends.
// - `2026-07-28`: that revision or nothing; a server that does not offer it is a refusal.

/** The stateless revision: no `initialize`, no session, `server/discover` and a `_meta` envelope per request. */
export const MODERN_REVISION = '2026-07-28';

export const PROTOCOLS = ['auto', 'legacy', MODERN_REVISION] as const;
export type Protocol = (typeof PROTOCOLS)[number];

export const DEFAULT_PROTOCOL: Protocol = 'auto';

export function isProtocol(value: unknown): value is Protocol {
  return typeof value === 'string' && (PROTOCOLS as readonly string[]).includes(value);
}

/** What a setting that is not one of PROTOCOLS is told, after `where`. */
export const PROTOCOL_CHOICES = `expected one of ${PROTOCOLS.join(', ')}`;
