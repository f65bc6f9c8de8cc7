// Servers in the ecosystem's `mcpServers` shape: `{command, args, env, cwd}` for stdio,
// `{url, headers}` for Streamable HTTP. Every mistake is fatal here, before any server starts.
import type { Transport } from '../mcp/types.ts';
import { z } from 'zod';
import { PROTOCOL_CHOICES, PROTOCOLS } from '../mcp/protocols.ts';
import type { Protocol } from '../mcp/protocols.ts';
import { validateServerName } from '../reliability/index.ts';

/** Every kind of server: which MCP revision to speak with it (src/mcp/protocols.ts; `auto` when absent). */
interface ProtocolSetting {
  protocol?: Protocol;
}

export interface StdioServerConfig extends ProtocolSetting {
  command: string;
  args?: string[];
  /** Added to a small inherited environment (PATH, HOME, ...); values never enter a trace. */
  env?: Record<string, string>;
  cwd?: string;
}

export interface HttpServerConfig extends ProtocolSetting {
  url: string;
  /** Sent with every request; values never enter a trace. */
  headers?: Record<string, string>;
}

/** A server already running in this process (tests, benchmarks, an embedded workbench). */
export interface TransportServerConfig extends ProtocolSetting {
  transport: Transport;
}

export type ServerConfig = StdioServerConfig | HttpServerConfig | TransportServerConfig;

/** A configuration mistake a user made; the message is one line naming the offenders. */
export class LaneConfigError extends Error {
  override name = 'LaneConfigError';
}

// `type` is accepted because configs pasted from other clients carry it; it must agree
// with the fields present.
const stdioSchema = z.strictObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1, 'expected a command'),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().min(1).optional(),
  protocol: z.enum(PROTOCOLS, { error: PROTOCOL_CHOICES }).optional(),
});

const httpSchema = z.strictObject({
  type: z.enum(['http', 'streamable-http', 'streamableHttp']).optional(),
  url: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }),
  headers: z.record(z.string(), z.string()).optional(),
  protocol: z.enum(PROTOCOLS, { error: PROTOCOL_CHOICES }).optional(),
});

function problems(error: z.ZodError, where: string): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.length > 0 ? `.${issue.path.join('.')}` : '';
    return `${where}${path}: ${issue.message}`;
  });
}

function parseOne(value: unknown, where: string): { config?: StdioServerConfig | HttpServerConfig; problems: string[] } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { problems: [`${where}: expected {command, args, env, cwd} or {url, headers}`] };
  }
  const record = value as Record<string, unknown>;
  if (record.type === 'sse') {
    return { problems: [`${where}: the SSE transport is not supported; use the server's Streamable HTTP URL`] };
  }
  const schema = 'url' in record ? httpSchema : 'command' in record ? stdioSchema : undefined;
  if (schema === undefined) return { problems: [`${where}: expected {command, args, env, cwd} or {url, headers}`] };
  const parsed = schema.safeParse(value);
  if (!parsed.success) return { problems: problems(parsed.error, where) };
  const { type: _type, ...config } = parsed.data;
  return { config, problems: [] };
}

/** Every offending name at once, so one run of the user's fix is enough. */
export function validateServerNames(names: readonly string[], where = 'mcpServers'): void {
  const offenders: string[] = [];
  for (const name of names) {
    try {
      validateServerName(name);
    } catch (error) {
      offenders.push((error as Error).message);
    }
  }
  if (offenders.length > 0) throw new LaneConfigError(`${where}: ${offenders.join('; ')}`);
}

/**
 * Reads an `mcpServers` object (or a whole config holding one) from JSON, validates every
 * server and every name, and throws one LaneConfigError listing all the problems.
 */
export function parseServers(input: unknown, where = 'mcpServers'): Record<string, StdioServerConfig | HttpServerConfig> {
  let servers = input;
  if (servers !== null && typeof servers === 'object' && 'mcpServers' in servers) {
    servers = (servers as { mcpServers: unknown }).mcpServers;
  }
  if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) {
    throw new LaneConfigError(`${where}: expected an object of servers by name`);
  }
  validateServerNames(Object.keys(servers), where);
  const found: string[] = [];
  const configs: Record<string, StdioServerConfig | HttpServerConfig> = {};
  for (const [name, value] of Object.entries(servers)) {
    const one = parseOne(value, `${where}.${name}`);
    found.push(...one.problems);
    if (one.config !== undefined) configs[name] = one.config;
  }
  if (found.length > 0) throw new LaneConfigError(found.join('; '));
  return configs;
}

export function isStdio(config: ServerConfig): config is StdioServerConfig {
  return 'command' in config;
}

export function isHttp(config: ServerConfig): config is HttpServerConfig {
  return 'url' in config;
}

/** How a server is named in errors: its command line or URL, never env or header values. */
export function describeServer(config: ServerConfig): string {
  if (isStdio(config)) return [config.command, ...(config.args ?? [])].join(' ');
  if (isHttp(config)) {
    // Origin and path only: credentials and tokens ride in userinfo and query strings.
    const url = URL.parse(config.url);
    return url === null ? 'an invalid URL' : `${url.origin}${url.pathname}`;
  }
  return 'an in-process transport';
}
