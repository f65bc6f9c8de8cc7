// A rung's servers as the lane starts them for one pass. `{workspace}` in args, env, cwd and
// reference arguments is the pass's own folder. Everything a user can get wrong here (a
// command not installed, a package missing, bad workbench faults) is found by checkServers
// before a results folder exists.
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPILED, LaneConfigError, nodeCommand, nodePackage, PACKAGE_ROOT } from '../lane/index.ts';
import type { ServerConfig } from '../lane/index.ts';
import type { Rung, ServerSpec } from '../rungs/schema.ts';
import { credentialsIn, WORKSPACE_TOKEN } from '../trace/index.ts';
import { startCommand, substitutePort } from './started.ts';
import type { Secret } from '../trace/index.ts';
import { FaultPlan } from '../server/faults.ts';
import { parseConfig, parseFaults } from '../server/options.ts';
import { TOOL_NAMES } from '../server/tools.ts';

/**
 * How a pass starts its workbench: `process.execPath [...WORKBENCH_ENTRY] '<options JSON>'`.
 * The compiled runner starts the lean entry point of its own build (dist/workbench.js, next to
 * the compiled code: no loader, no CLI), which answers `initialize` about as fast as a bare MCP
 * SDK server. The runner running from the TypeScript sources (tests, the mutation battery, a
 * checkout whose build is out of date) starts the same entry from the sources through tsx, so
 * what a test exercises is always the code under test, never a build of something older.
 */
export const WORKBENCH_ENTRY: readonly string[] = COMPILED
  ? [fileURLToPath(new URL('./workbench.js', import.meta.url))]
  : ['--import', import.meta.resolve('tsx'), join(PACKAGE_ROOT, 'src', 'server', 'main.ts')];
export { WORKSPACE_TOKEN };
const DEFAULT_DB_FILE = 'workbench.db';

export function substitute(text: string, workspace: string): string {
  return text.replaceAll(WORKSPACE_TOKEN, workspace);
}

/** Substitutes in every string inside a JSON-like value (reference arguments). */
export function substituteDeep(value: unknown, workspace: string): unknown {
  if (typeof value === 'string') return substitute(value, workspace);
  if (Array.isArray(value)) return value.map((item) => substituteDeep(item, workspace));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteDeep(v, workspace)]));
  }
  return value;
}

/**
 * What the trace must never hold of a rung's servers: every env value and header value given
 * to them (a value made from `{workspace}` is a path, scrubbed as the workspace instead).
 */
export function serverSecrets(rung: Rung): Secret[] {
  // A started server's env is configuration the pass gives a process it runs itself
  // (MCP_TRANSPORT_TYPE: http); only credential-like names are secrets there.
  const started = Object.entries(rung.servers).flatMap(([name, spec]) =>
    'url' in spec && spec.start !== undefined
      ? credentialsIn(Object.fromEntries(Object.entries(spec.start.env).filter(([, v]) => !v.includes(WORKSPACE_TOKEN))), `servers.${name}.start.env.`)
      : []);
  return [...started, ...Object.entries(rung.servers).flatMap(([name, spec]) => {
    const given: Record<string, Record<string, string>> = 'url' in spec ? { header: spec.headers } : 'workbench' in spec ? {} : { env: spec.env };
    return Object.entries(given).flatMap(([kind, values]) => Object.entries(values)
      .filter(([, value]) => !value.includes(WORKSPACE_TOKEN))
      .map(([key, value]) => ({ name: `servers.${name}.${kind}.${key}`, value })));
  })];
}

export interface PassServerInput {
  rung: Rung;
  workspace: string;
  seed: number;
  timeFactor: number;
  /** The arm's `cap` mechanism: the workbench's wait cap on or off. */
  waitCap: boolean;
  /** Ports of the servers the pass started itself (started.ts), by server name. */
  ports?: ReadonlyMap<string, number>;
}

export function workbenchName(rung: Rung): string | undefined {
  return Object.entries(rung.servers).find(([, spec]) => 'workbench' in spec)?.[0];
}

/** The workbench's SQLite file, for the rung's sql checks. */
export function databasePath(rung: Rung, workspace: string): string | undefined {
  const name = workbenchName(rung);
  if (name === undefined) return undefined;
  const spec = rung.servers[name] as Extract<ServerSpec, { workbench: unknown }>;
  const dbFile = spec.workbench.options['dbFile'];
  return join(workspace, typeof dbFile === 'string' ? dbFile : DEFAULT_DB_FILE);
}

export function passServers(input: PassServerInput): Record<string, ServerConfig> {
  const servers: Record<string, ServerConfig> = {};
  for (const [name, spec] of Object.entries(input.rung.servers)) servers[name] = serverConfig(name, spec, input);
  return servers;
}

function serverConfig(name: string, spec: ServerSpec, input: PassServerInput): ServerConfig {
  const { workspace } = input;
  if ('workbench' in spec) {
    const options = {
      ...spec.workbench.options,
      workspace, seed: input.seed, timeFactor: input.timeFactor, faults: spec.workbench.faults,
      ...(input.rung.setup.sql === undefined ? {} : { setupSql: input.rung.setup.sql }),
      ...(input.waitCap ? {} : { waitCap: false }),
    };
    return { command: process.execPath, args: [...WORKBENCH_ENTRY, JSON.stringify(options)], cwd: workspace };
  }
  const protocol = spec.protocol === undefined ? {} : { protocol: spec.protocol };
  if ('url' in spec) return { url: substitutePort(spec.url, input.ports?.get(name)), headers: spec.headers, ...protocol };
  const env = Object.fromEntries(Object.entries(spec.env).map(([k, v]) => [k, substitute(v, workspace)]));
  const args = spec.args.map((arg) => substitute(arg, workspace));
  const cwd = substitute(spec.cwd ?? WORKSPACE_TOKEN, workspace);
  if ('package' in spec) {
    return { ...nodePackage(spec.package, args, spec.bin === undefined ? {} : { bin: spec.bin }), env, cwd, ...protocol };
  }
  return { ...nodeCommand({ command: spec.command, args, env, cwd }), ...protocol };
}

/** One line per server of the rung that cannot start as written; [] when all can. */
export function checkServers(file: string, rung: Rung, lineOf: (path: (string | number)[]) => number): string[] {
  const problems: string[] = [];
  const workbenches = Object.entries(rung.servers).filter(([, spec]) => 'workbench' in spec);
  if (workbenches.length > 1) {
    problems.push(`${file}:${lineOf(['servers'])} servers: at most one workbench per rung (its database is what sql checks read)`);
  }
  for (const [name, spec] of Object.entries(rung.servers)) {
    const line = (...path: string[]) => `${file}:${lineOf(['servers', name, ...path])}`;
    const attempt = (path: string[], check: () => void, say: (message: string) => string): void => {
      try {
        check();
      } catch (error) {
        if (!(error instanceof LaneConfigError || error instanceof RangeError)) throw error;
        problems.push(`${line(...path)} ${say(error.message)}`);
      }
    };
    if ('workbench' in spec) {
      // The plan checks each fault's tool name too: a typo would otherwise inject nothing.
      attempt(['workbench', 'faults'], () => new FaultPlan(parseFaults(spec.workbench.faults, 'faults'), 0, TOOL_NAMES),
        (message) => `servers.${name}.workbench.${message}`);
      attempt(['workbench', 'options'], () => parseConfig({ ...spec.workbench.options, workspace: '.' } as never),
        (message) => `servers.${name}.workbench.${message.replace(/^workbench options/, 'options')}`);
    } else if ('url' in spec && spec.start !== undefined) {
      const start = spec.start;
      attempt(['start'], () => {
        const { command } = startCommand({ ...spec, start }, '.', 1);
        if (!('package' in start) && findCommand(command) === undefined) {
          throw new LaneConfigError(`command "${start.command}" not found on PATH; install it or fix the rung`);
        }
      }, (message) => `servers.${name}.start: ${message}`);
    } else if ('package' in spec) {
      attempt(['package'], () => nodePackage(spec.package, [], spec.bin === undefined ? {} : { bin: spec.bin }),
        (message) => `servers.${name}.package: ${message}`);
    } else if ('command' in spec) {
      attempt(['command'], () => {
        const command = nodeCommand({ command: spec.command, args: spec.args }).command;
        if (findCommand(command) === undefined) {
          throw new LaneConfigError(`command "${spec.command}" not found on PATH; install it or fix the rung`);
        }
      }, (message) => `servers.${name}.command: ${message}`);
    }
  }
  return problems;
}

/** The executable a command names, searched on PATH as a shell would; undefined when there is none. */
export function findCommand(command: string): string | undefined {
  const executable = (path: string): boolean => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (isAbsolute(command) || command.includes('/')) return executable(resolve(command)) ? resolve(command) : undefined;
  const dirs = (process.env['PATH'] ?? '').split(delimiter).filter(Boolean);
  const suffixes = process.platform === 'win32' ? ['', '.exe', '.cmd'] : [''];
  for (const dir of dirs) for (const suffix of suffixes) if (executable(join(dir, command + suffix))) return join(dir, command + suffix);
  return undefined;
}
