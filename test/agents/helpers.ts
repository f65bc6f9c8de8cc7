// What the agent driver tests share: a pass's folders and values, an agent file from a plain
// object (through the real parser, so the tests read files as users write them), and checks
// that a process is gone.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseAgentFile, type AgentFile } from '../../src/agents/file.ts';
import type { AgentPassValues } from '../../src/agents/placeholders.ts';

export const EXEC_AGENT = fileURLToPath(new URL('../fixtures/agents/exec-agent.mjs', import.meta.url));
export const ACP_AGENT = fileURLToPath(new URL('../fixtures/agents/acp-agent.mjs', import.meta.url));

export function agentFile(fields: Record<string, unknown>): AgentFile {
  return parseAgentFile('test-agent.yaml', JSON.stringify({ name: 'test', ...fields }));
}

export interface Pass extends Disposable {
  root: string;
  values: AgentPassValues;
}

/** Fresh folders for one pass, removed afterwards. */
export function pass(overrides: Partial<AgentPassValues> = {}): Pass {
  const root = mkdtempSync(join(tmpdir(), 'ladder-agents-'));
  const values: AgentPassValues = {
    workspace: join(root, 'workspace'),
    home: join(root, 'home'),
    model: 'tiny',
    mcpUrl: 'http://127.0.0.1:5000/mcp',
    mcpToken: 'mcp-token-1',
    openaiBaseUrl: 'http://127.0.0.1:5001/v1',
    anthropicBaseUrl: 'http://127.0.0.1:5001',
    geminiBaseUrl: 'http://127.0.0.1:5001',
    apiKey: 'pass-key-1',
    ...overrides,
  };
  return { root, values, [Symbol.dispose]: () => rmSync(root, { recursive: true, force: true }) };
}

/** Running, not a zombie waiting for whoever adopted it to reap it. */
export function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

// The polls sleep on node:timers/promises, which Vitest's fake timers leave alone: a test that
// holds a step's time limit on a fake clock still waits for its processes in real time.

/** Polls until every pid is gone, at most `ms`; the kernel reaps re-parented processes on its own time. */
export async function allGoneWithin(pids: number[], ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!pids.some(alive)) return true;
    await delay(50);
  }
  return !pids.some(alive);
}

/** The pids a fixture wrote into its workspace. */
export function pidsIn(file: string): number[] {
  return readFileSync(file, 'utf8').trim().split(' ').map(Number);
}

/** Waits until a fixture has written its pids (it does so as it starts). */
export async function pidsWhenWritten(file: string, ms = 10_000): Promise<number[]> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      const pids = pidsIn(file);
      if (pids.length === 2 && pids.every((p) => p > 0)) return pids;
    } catch {
      // Not written yet.
    }
    if (Date.now() > until) throw new Error(`no pids in ${file} after ${ms} ms`);
    await delay(25);
  }
}
