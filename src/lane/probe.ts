// `ladder probe`: connect to one server through the lane, show its roster, call one tool.
// A quick check that a server works with Ladder, and what the MCP conformance suite drives.
import type { Protocol } from '../mcp/protocols.ts';
import { REFRESH_TOOL, canonicalJson } from '../reliability/index.ts';
import { TraceWriter } from '../trace/index.ts';
import type { Emit } from '../trace/index.ts';
import { LaneConfigError, describeServer } from './config.ts';
import type { ServerConfig } from './config.ts';
import { Lane } from './lane.ts';
import { nodePackage } from './nodeBin.ts';

/** The name the probed server gets: its tools appear as `probe__<tool>`. */
export const PROBE_SERVER = 'probe';

export interface ProbeOptions {
  /** The tool to call, bare or qualified; default the first one listed. */
  tool?: string;
  /** Arguments as JSON; default a sample built from the tool's input schema. */
  args?: string;
  arm?: string;
  /** The MCP revision to speak (src/mcp/protocols.ts); `auto` when not given. */
  protocol?: Protocol;
  timeoutMs?: number;
  /** A JSONL file for the lane's trace events. */
  trace?: string;
  /** Print each tool's input schema under its line; no call is made unless `tool` is given. */
  schema?: boolean;
  write: (line: string) => void;
  /** Where a mistake or a server that did not start is said (`ladder probe: FAIL ...`); `write` when not given. */
  err?: (line: string) => void;
}

/** Splits one command string the way a shell would for plain words and quotes. */
export function splitCommand(text: string): string[] {
  const words: string[] = [];
  const pattern = /"((?:\\.|[^"\\])*)"|'([^']*)'|((?:\\.|[^\s"'\\])+)|(\s+)/g;
  let word: string | undefined;
  for (const [, double, single, bare, space] of text.matchAll(pattern)) {
    if (space !== undefined) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + (double?.replace(/\\(.)/g, '$1') ?? single ?? bare!.replace(/\\(.)/g, '$1'));
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** A URL, a command line (one string or words), an installed package, or a script file. */
export function probeTarget(target: readonly string[]): ServerConfig {
  const words = target.length === 1 ? splitCommand(target[0]!) : [...target];
  const [first, ...rest] = words;
  if (first === undefined) throw new LaneConfigError('name a server URL or a command to start one');
  if (/^https?:\/\//.test(first)) return { url: first };
  if (first.startsWith('@')) return nodePackage(first, rest);
  if (/\.(ts|mts)$/.test(first)) return { command: process.execPath, args: ['--import', import.meta.resolve('tsx'), first, ...rest] };
  if (/\.(js|mjs|cjs)$/.test(first)) return { command: process.execPath, args: [first, ...rest] };
  return { command: first, args: rest };
}

type Schema = { type?: unknown; default?: unknown; enum?: unknown[]; const?: unknown; format?: unknown };

function sampleValue(schema: Schema): unknown {
  if ('default' in schema) return schema.default;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'number' || type === 'integer') return 1;
  if (type === 'boolean') return true;
  if (type === 'array') return [];
  if (type === 'object') return {};
  return schema.format === 'uri' ? 'https://example.com/' : 'ladder';
}

/** Values for the schema's required properties only: the least a tool must accept. */
export function sampleArgs(inputSchema: Record<string, unknown>): Record<string, unknown> {
  const properties = (inputSchema.properties ?? {}) as Record<string, Schema>;
  const required = Array.isArray(inputSchema.required) ? (inputSchema.required as string[]) : [];
  return Object.fromEntries(required.map((name) => [name, sampleValue(properties[name] ?? {})]));
}

function parseArgs(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new LaneConfigError(`--args: not JSON: ${text}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new LaneConfigError('--args: expected a JSON object, e.g. {"a":1}');
  }
  return value as Record<string, unknown>;
}

/** Returns the exit code: 0 connected and the call (if any) answered ok, 1 it did not, 2 bad input or no server. */
export async function runProbe(target: readonly string[], options: ProbeOptions): Promise<number> {
  const { write } = options;
  const err = options.err ?? write;
  const config = { ...probeTarget(target), ...(options.protocol === undefined ? {} : { protocol: options.protocol }) };
  const given = options.args === undefined ? undefined : parseArgs(options.args);
  using trace = options.trace === undefined ? undefined : TraceWriter.open(options.trace);
  const emit: Emit | undefined = trace?.emit;
  await using lane = await Lane.connect({
    servers: { [PROBE_SERVER]: config },
    ...(options.arm === undefined ? {} : { arm: options.arm }),
    ...(emit === undefined ? {} : { emit }),
    ...(options.timeoutMs === undefined ? {} : { callTimeoutMs: options.timeoutMs, connectTimeoutMs: options.timeoutMs }),
  });
  const failed = lane.startErrors[0];
  if (failed !== undefined) {
    err(`ladder probe: FAIL ${failed.message}`);
    return 2;
  }
  write(`connected: ${describeServer(config)} (MCP ${lane.protocols()[PROBE_SERVER] ?? 'unknown'})`);
  const turn = await lane.openTurn();
  const c = turn.counters;
  write(`roster: ${turn.tools.length} tools (configured ${c.configured}, reached ${c.reached}, listed ${c.listed}, ` +
    `registered ${c.registered}, unavailable ${c.unavailable}, cached ${c.cached})`);
  for (const tool of turn.tools) {
    write(`  ${tool.name}  ${tool.description.split('\n')[0]}`);
    if (options.schema === true) write(`    input: ${JSON.stringify(tool.inputSchema)}`);
  }
  const wanted = options.tool;
  if (options.schema === true && wanted === undefined) return 0;
  const tool = wanted === undefined
    ? turn.tools.find((t) => t.name !== REFRESH_TOOL)
    : turn.tools.find((t) => t.name === wanted || t.name === `${PROBE_SERVER}__${wanted}`);
  if (tool === undefined) {
    if (wanted === undefined) {
      write('no tools to call: the server lists none');
      return 0;
    }
    err(`ladder probe: FAIL no tool named ${wanted}; the roster is above`);
    return 2;
  }
  const args = given ?? sampleArgs(tool.inputSchema);
  write(`call: ${tool.name} ${canonicalJson(args)}`);
  const result = await lane.call(tool.name, args, { round: 1 });
  write(`outcome: ${result.outcome}`);
  write(result.text);
  return result.outcome === 'ok' ? 0 : 1;
}
