// Names the model sees: `server__tool`. Collisions are fatal, because degrading past one
// would silently drop whichever tool lost.

export const SEPARATOR = '__';
/** The server name of tools the harness itself offers; no configured server may take it. */
export const HARNESS_SERVER = 'harness';
export const REFRESH_TOOL = `${HARNESS_SERVER}${SEPARATOR}refresh_tools`;

// No `_` in server names: the first `__` in a qualified name then always ends the server
// part, so two servers can never produce the same qualified name.
const SERVER_NAME = /^[a-z0-9-]+$/;

// OpenAI and Anthropic accept only [A-Za-z0-9_-] in function names and reject the whole
// request otherwise; MCP tool names may contain `.`, `/` and more.
const REFUSED_IN_FUNCTION_NAMES = /[^A-Za-z0-9_-]/g;

/** Throws a one-line Error naming the server when it is not [a-z0-9-]+ or is reserved. */
export function validateServerName(server: string): void {
  if (!SERVER_NAME.test(server)) {
    throw new Error(
      `server name ${JSON.stringify(server)} is not allowed: use only lowercase letters, digits and "-"`,
    );
  }
  if (server === HARNESS_SERVER) {
    throw new Error(
      `server name "${HARNESS_SERVER}" is reserved for the harness's own tools: rename the server`,
    );
  }
}

/** `server__tool`, with characters providers refuse in tool names replaced by `_`. */
export function qualify(server: string, tool: string): string {
  return `${server}${SEPARATOR}${tool}`.replace(REFUSED_IN_FUNCTION_NAMES, '_');
}
