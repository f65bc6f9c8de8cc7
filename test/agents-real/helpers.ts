// What the real-agent tests share: a pass's folders under the checkout's .cache/
// (not the temp folder, as for Codex), the values pointing an agent at the stand-ins, an MCP
// server with one tool that checks the bearer token, the processes left in a folder, and what
// an agent's version flag prints.
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { AgentPassValues } from '../../src/agents/placeholders.ts';
import { spawnGroup } from '../../src/lane/processGroup.ts';
import { startStatelessMcp, type StatelessMcp } from '../helpers/statelessMcp.ts';

const PASSES = fileURLToPath(new URL('../../.cache/agents-real/', import.meta.url));

export interface Bench extends AsyncDisposable {
  mcp: StatelessMcp;
  /** The Authorization header of every MCP request. */
  mcpAuth: (string | undefined)[];
  /** Every ping call's arguments. */
  pings: unknown[];
  values(name: string, openaiBaseUrl: string): AgentPassValues;
}

export async function bench(prefix: string): Promise<Bench> {
  mkdirSync(PASSES, { recursive: true });
  const root = mkdtempSync(join(PASSES, `${prefix}-`));
  const mcpAuth: (string | undefined)[] = [];
  const pings: unknown[] = [];
  const mcp = await startStatelessMcp(
    'ladder',
    (server) => server.registerTool('ping', { description: 'Answers pong.', inputSchema: { text: z.string() } }, async (args) => {
      pings.push(args);
      return { content: [{ type: 'text', text: 'pong' }] };
    }),
    (req) => mcpAuth.push(req.headers.authorization),
  );
  return {
    mcp, mcpAuth, pings,
    values(name, openaiBaseUrl) {
      const dir = mkdtempSync(join(root, `${name}-`));
      return {
        workspace: join(dir, 'workspace'), home: join(dir, 'home'), model: 'tiny', mcpUrl: mcp.url, mcpToken: `mcp-token-${name}`,
        openaiBaseUrl, anthropicBaseUrl: openaiBaseUrl.replace(/\/v1$/, ''), geminiBaseUrl: openaiBaseUrl.replace(/\/v1$/, ''), apiKey: `pass-key-${name}`,
      };
    },
    async [Symbol.asyncDispose]() {
      await mcp.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Processes whose cwd is in `folder`: an agent, or anything it left behind. */
export function processesIn(folder: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`).startsWith(folder)) pids.push(Number(entry));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return pids;
}

/**
 * The processes still in `folder` once they are all gone, or after `ms`: an ended group's
 * processes exit on the kernel's time, which a fixed 500 ms wait left to a loaded machine.
 */
export async function processesLeftIn(folder: string, ms = 5_000): Promise<number[]> {
  const until = Date.now() + ms;
  for (;;) {
    const left = processesIn(folder);
    if (left.length === 0 || Date.now() > until) return left;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The function tools a Chat Completions request offered, by name. */
export function offered(body: unknown): string[] {
  return ((body as { tools?: Array<{ function?: { name: string } }> }).tools ?? []).map((t) => t.function?.name ?? '?').sort();
}

/** What `<command> --version` printed, trimmed, once it exited 0 (the command on PATH, offline). */
export async function versionLine(command: string, env?: NodeJS.ProcessEnv): Promise<string> {
  const child = spawnGroup(command, ['--version'], { stdio: ['ignore', 'pipe', 'pipe'], ...(env === undefined ? {} : { env }) });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`${command} --version exited ${code}: ${out.trim()}`);
  return out.trim();
}
