// The SDK v2 fixture servers (test/fixtures/v2-server.mjs) as real processes: `modern` speaks
// only the 2026-07-28 revision, `dual` both eras, `legacy` (stdio only) the 2025 ones. Over stdio a test gets the command to start
// one; over Streamable HTTP the server is started here, on a free port of 127.0.0.1.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { StdioServerConfig } from '../../src/lane/index.ts';

export const V2_SERVER = fileURLToPath(new URL('../fixtures/v2-server.mjs', import.meta.url));

/** `legacy`: the 2025 revisions only, over stdio only (the server wired to its transport by hand). */
export type V2Era = 'modern' | 'dual' | 'legacy';

/** The lines the fixture logged to `file` (V2_FIXTURE_LOG): `start <pid>`, `<POST|GET|DELETE> <method>`. */
export function fixtureLog(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((line) => line !== '') : [];
}

/** How a lane starts the fixture over stdio; with `log`, it records its starts there. */
export function v2Stdio(era: V2Era, log?: string): StdioServerConfig {
  return {
    command: process.execPath,
    args: [V2_SERVER, era, 'stdio'],
    ...(log === undefined ? {} : { env: { ...inheritedEnv(), V2_FIXTURE_LOG: log } }),
  };
}

/** This process's environment, without unset entries: the base a test adds its own variables to. */
export function inheritedEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

export interface V2Http extends AsyncDisposable {
  /** The endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  close(): Promise<void>;
}

/**
 * Starts the fixture over Streamable HTTP; resolves once it listens. `probe500`: its
 * `server/discover` is answered with HTTP 500 every time, or the first N times.
 */
export async function startV2Http(era: V2Era, log?: string, probe500?: 'always' | number): Promise<V2Http> {
  const child = spawn(process.execPath, [V2_SERVER, era, 'http'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      ...(log === undefined ? {} : { V2_FIXTURE_LOG: log }),
      ...(probe500 === undefined ? {} : { V2_FIXTURE_PROBE_500: String(probe500) }),
    },
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /^listening (\S+)\n/.exec(out);
      if (match !== null) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`v2-server ${era} http exited ${code} before listening: ${stderr}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return { url, close, [Symbol.asyncDispose]: close };
}
