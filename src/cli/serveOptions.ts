// `ladder serve`'s flags as ServeOptions. Apart from the command's definition (serve.ts) so
// that defining the command, which every `ladder` start does for --help, loads no zod.
import fs from 'node:fs';
import { parseFaults, type FaultsInput, type WorkbenchOptions } from '../server/options.ts';
import type { ServeOptions } from '../server/serve.ts';
import type { ServeArgs } from './serve.ts';

/** A mistake in the flags: printed as one line, exit code 2. */
export class ServeUsageError extends Error {
  override name = 'ServeUsageError';
}

/** The flags as ServeOptions; throws ServeUsageError naming the flag that is wrong. */
export function serveOptions(args: ServeArgs, env: NodeJS.ProcessEnv): ServeOptions {
  const config = (readJsonFlag('--config', args.config) ?? {}) as Partial<WorkbenchOptions>;
  if (typeof config !== 'object' || Array.isArray(config)) throw new ServeUsageError('--config must be a JSON object');
  const faults = mergeFaults(
    (readJsonFlag('--faults', args.faults) ?? config.faults ?? {}) as Record<string, unknown>,
    args,
  );
  const workbench: WorkbenchOptions = { ...config, workspace: args.workspace, faults: parseFaults(faults, '--faults') };
  if (args.seed !== undefined) workbench.seed = args.seed;
  if (args.timeFactor !== undefined) workbench.timeFactor = args.timeFactor;
  if (args.setupSql !== undefined) workbench.setupSql = readFile('--setup-sql', args.setupSql);
  if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65_535) {
    throw new ServeUsageError(`--port ${args.port} is not a port number (0..65535)`);
  }
  return {
    workbench,
    transport: args.transport,
    host: args.host,
    port: args.port,
    token: args.token ?? (env['LADDER_SERVE_TOKEN'] || undefined),
    allowRemote: args.allowRemote,
    resumable: args.resume,
    protocol: args.protocol,
  };
}

function mergeFaults(base: Record<string, unknown>, args: ServeArgs): FaultsInput {
  const merged: Record<string, unknown> = { ...base };
  const perTool = (field: string, flag: string, values: string[] | undefined) => {
    if (values === undefined) return;
    merged[field] = { ...(merged[field] as object | undefined), ...pairs(flag, values) };
  };
  if (args.deadUpstream !== undefined) merged['deadUpstream'] = args.deadUpstream;
  perTool('errorRate', '--error-rate', args.errorRate);
  perTool('failFirst', '--fail-first', args.failFirst);
  perTool('latencyMs', '--latency-ms', args.latencyMs);
  perTool('dropReply', '--drop-reply', args.dropReply);
  const listing: Record<string, unknown> = { ...(merged['listing'] as object | undefined) };
  if (args.listingFailFirst !== undefined) listing['failFirst'] = args.listingFailFirst;
  if (args.listingStallMs !== undefined) listing['stallMs'] = args.listingStallMs;
  if (Object.keys(listing).length > 0) merged['listing'] = listing;
  return merged as FaultsInput;
}

/** `tool=value` pairs as an object of numbers. */
function pairs(flag: string, values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const value of values) {
    const match = /^([*a-z_]+)=(.+)$/.exec(value);
    const number = match ? Number(match[2]) : Number.NaN;
    if (!match || !Number.isFinite(number)) {
      throw new ServeUsageError(`${flag} ${value}: expected tool=number, e.g. ${flag} browser_navigate=0.5`);
    }
    out[match[1] as string] = number;
  }
  return out;
}

function readJsonFlag(flag: string, value: string | undefined): unknown {
  if (value === undefined) return undefined;
  const source = value.startsWith('@') ? readFile(flag, value.slice(1)) : value;
  try {
    return JSON.parse(source);
  } catch (error) {
    throw new ServeUsageError(`${flag}: not valid JSON (${(error as Error).message})`);
  }
}

function readFile(flag: string, file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    throw new ServeUsageError(`${flag} ${file}: cannot read this file`);
  }
}
