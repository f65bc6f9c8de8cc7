// A real client in front of `ladder gateway`: the official MCP inspector's CLI mode lists the
// tools and calls one, over stdio (the inspector starts `ladder gateway` itself, as Claude
// Desktop or Cursor would) and over Streamable HTTP (the command started on a free port, its
// URL read from its stderr). Behind it, the crashy fixture server: the answers show the
// gateway's names (`a__echo`), the upstream's own answer to the arguments given, and where
// the turn policy draws a turn for this client: its `tools/call` command sends tools/list
// first (to convert the arguments by the schema), so under `list` every command is a turn.
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const LADDER = join(ROOT, 'bin', 'ladder.js');
const INSPECTOR = join(ROOT, 'node_modules', '.bin', 'mcp-inspector-cli');
const CRASHY = fileURLToPath(new URL('../fixtures/crashy-server.mjs', import.meta.url));
/** Each inspector command starts a Node process (and over stdio the gateway from sources): seconds each on a busy machine. */
const CLI_TIMEOUT_MS = 90_000;

let dir: string;
const gateways: ChildProcess[] = [];

/** Starts `ladder gateway --transport http` on a free port; resolves to its URL, read from its stderr. */
async function startHttp(servers: string, ...extra: string[]): Promise<string> {
  const child = spawn(process.execPath, [LADDER, 'gateway', '--servers', servers, '--transport', 'http', '--port', '0', ...extra], { stdio: ['ignore', 'ignore', 'pipe'] });
  gateways.push(child);
  return new Promise<string>((resolve, reject) => {
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /serving (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`ladder gateway exited (${code}) before serving: ${stderr}`)));
  });
}

const httpConfig = (file: string, url: string): void => writeFileSync(join(dir, file), JSON.stringify({ mcpServers: { ladder: { type: 'streamable-http', url } } }));

/** Runs the inspector CLI with the arguments; resolves to its stdout parsed as JSON. */
async function inspector(...args: string[]): Promise<unknown> {
  // inspector-cli 0.21.2 reads its own package.json at ../package.json relative to its working
  // directory before it imports it relative to its module; a folder whose parent has a
  // package.json makes both lookups succeed (scripts/inspector-check.sh does the same).
  const { stdout } = await promisify(execFile)(INSPECTOR, ['--cli', ...args], { cwd: join(dir, 'run'), timeout: CLI_TIMEOUT_MS });
  return JSON.parse(stdout);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ladder-inspector-'));
  mkdirSync(join(dir, 'run'));
  writeFileSync(join(dir, 'package.json'), '{}');
  const servers = join(dir, 'servers.json');
  writeFileSync(servers, JSON.stringify({ mcpServers: { a: { command: 'node', args: [CRASHY], env: { CRASHY_PIDS: join(dir, 'a.pids') } } } }));
  const stdioArgs = [LADDER, 'gateway', '--servers', servers, '--transport', 'stdio'];
  writeFileSync(join(dir, 'stdio.json'), JSON.stringify({ mcpServers: { ladder: { command: process.execPath, args: stdioArgs } } }));
  const [listTurns, idleTurns] = await Promise.all([startHttp(servers), startHttp(servers, '--turn', 'idle=600')]);
  httpConfig('http.json', listTurns);
  httpConfig('http-idle.json', idleTurns);
}, CLI_TIMEOUT_MS);

afterAll(async () => {
  await Promise.all(gateways.filter((g) => g.exitCode === null).map((g) => {
    const gone = new Promise((resolve) => g.once('exit', resolve));
    g.kill('SIGTERM');
    return gone;
  }));
  rmSync(dir, { recursive: true, force: true });
});

const names = (listed: unknown): string[] => (listed as { tools: { name: string }[] }).tools.map((t) => t.name);
const text = (called: unknown): string => (called as { content: { text: string }[] }).content[0]!.text;
const TOOLS = ['a__echo', 'a__fail', 'a__crash', 'a__hang', 'a__steps', 'harness__refresh_tools'];

describe.each(['stdio', 'http'] as const)('the MCP inspector CLI through ladder gateway over %s', (transport) => {
  const config = () => ['--config', join(dir, `${transport}.json`), '--server', 'ladder'];

  it('lists the upstream tools under the gateway names', async () => {
    expect(names(await inspector(...config(), '--method', 'tools/list'))).toEqual(TOOLS);
  }, CLI_TIMEOUT_MS);

  it("calls one and gets the upstream's answer to the arguments given", async () => {
    const called = await inspector(...config(), '--method', 'tools/call', '--tool-name', 'a__echo', '--tool-arg', 'n=7');
    expect(called).toEqual({ content: [{ type: 'text', text: 'echo {"n":7}' }] });
  }, CLI_TIMEOUT_MS);

  it("answers the upstream's error as an error result", async () => {
    const called = await inspector(...config(), '--method', 'tools/call', '--tool-name', 'a__fail', '--tool-arg', `n=${transport.length}`);
    expect(called).toMatchObject({ isError: true });
    expect(text(called)).toBe('upstream MCP session is closed');
  }, CLI_TIMEOUT_MS);
});

describe('the inspector CLI and where a turn begins', () => {
  const failTwice = async (config: string): Promise<string[]> => {
    const args = ['--config', join(dir, config), '--server', 'ladder', '--method', 'tools/call', '--tool-name', 'a__fail', '--tool-arg', 'n=99'];
    return [text(await inspector(...args)), text(await inspector(...args))];
  };

  it('sends a failed call again from the next command: each of its calls lists the tools first, which begins a turn', async () => {
    expect(await failTwice('http.json')).toEqual(['upstream MCP session is closed', 'upstream MCP session is closed']);
  }, 2 * CLI_TIMEOUT_MS);

  it('refuses it from the next command when only an idle gap begins a turn', async () => {
    expect(await failTwice('http-idle.json')).toEqual([
      'upstream MCP session is closed',
      'upstream MCP session is closed\nNot sent again: the identical call failed at round 1 of this turn with the error above.',
    ]);
  }, 2 * CLI_TIMEOUT_MS);
});
