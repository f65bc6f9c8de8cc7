// The acp recipes (Claude Code through Zed's adapter, Gemini CLI, opencode, Qwen Code) run the way a
// user runs them: `ladder run` on a three-step rung, the reference policy behind the model gateway.
// What must hold for each: one ACP session a pass (step k's first model request carries every
// earlier step's messages), its start-up counted once (on the first step only), only the gateway's
// tools offered (its own switched off), the model the recipe chose for the session (else the agent
// asks a hosted model, offline, and no request comes), and no process of it left once the run ends.
// The pass time and its start-up share are printed. And at a step's time limit, with a model that
// never answers, each ends its turn on session/cancel.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadAgentFile } from '../../src/agents/file.ts';
import { locateAgent } from '../../src/agents/locate.ts';
import { startAgentSession } from '../../src/agents/session.ts';
import { startModelGateway } from '../../src/gateway/model/index.ts';
import type { ModelResponse } from '../../src/models/types.ts';
import { readTraceAll } from '../../src/trace/index.ts';
import { bench, processesIn } from './helpers.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OUT = fileURLToPath(new URL('../../.cache/agents-real/', import.meta.url));
const RUNG = 'rungs/config-from-catalog.yaml';
/** The workbench's tools, as the MCP gateway offers them on arm on (harness__refresh_tools among them). */
const GATEWAY_TOOLS = 15;

const SIDE_ANSWER: ModelResponse = {
  text: 'Hello.', toolCalls: [], usage: { inputTokens: 10, outputTokens: 5 }, latencyMs: 1, attempts: 1, retryWaitMs: 0,
  stopReason: 'end', providerStopReason: null, ignoredOptions: [], details: { provider: 'synthetic', policy: 'reference', seed: 0 },
};

export const ACP_RECIPES = ['claude-code-acp', 'gemini-acp', 'opencode-acp', 'qwen-code-acp'] as const;

/** Processes started from this recipe's folder of the agent cache (its own, never an exec recipe's). */
async function leftOver(recipe: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)('ps', ['-eo', 'pid,args']);
  return stdout.split('\n').filter((line) => line.includes(`/agents/${recipe}/`));
}

describe.each(ACP_RECIPES)('%s', (recipe) => {
  it('keeps one ACP session a pass on a three-step rung, starts once, offers only the gateway\'s tools and leaves no process', async () => {
    mkdirSync(OUT, { recursive: true });
    const out = join(mkdtempSync(join(OUT, `acp-${recipe}-`)), 'run');
    const started = Date.now();
    await promisify(execFile)(process.execPath, [
      join(ROOT, 'bin', 'ladder.js'), 'run', RUNG, '--agent', recipe, '--arms', 'on', '--passes', '1', '--model', 'synthetic:reference', '--out', out,
    ], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
    const wall = Date.now() - started;
    const { events } = await readTraceAll(join(out, 'traces', 'config-from-catalog', 'on', '0.jsonl'));
    const ends = events.flatMap((e) => (e.type === 'step.end' ? [e] : []));
    expect(ends.map((e) => `${e.step}: ${e.reason} ${e.passed}`)).toEqual(['0: answered true', '1: answered true', '2: answered true']);
    // Start-up once: the session's, on its first step.
    expect(ends[0]!.agentStartupMs).toBeGreaterThan(0);
    expect(ends.slice(1).map((e) => e.agentStartupMs)).toEqual([undefined, undefined]);
    const requests = events.flatMap((e) => (e.type === 'model.request' ? [e] : []));
    // One conversation: each step's first request carries more than the last request of the step before.
    for (const step of [1, 2]) {
      const before = requests.filter((r) => r.step === step - 1).at(-1)!;
      const first = requests.find((r) => r.step === step)!;
      expect(first.messages, `step ${step}'s first request against step ${step - 1}'s last`).toBeGreaterThan(before.messages);
    }
    // Only the gateway's tools (a request with none is an agent's own side request: Claude Code's first).
    expect([...new Set(requests.map((r) => r.tools).filter((n) => n > 0))]).toEqual([GATEWAY_TOOLS]);
    expect(await leftOver(recipe)).toEqual([]);
    const pass = events.find((e) => e.type === 'pass.end')!;
    const startup = ends[0]!.agentStartupMs!;
    process.stderr.write(`${recipe}: a ${ends.length}-step pass in ${(pass.ms / 1000).toFixed(1)} s, start-up ${(startup / 1000).toFixed(1)} s (${Math.round((100 * startup) / pass.ms)}%); the run ${(wall / 1000).toFixed(1)} s\n`);
    if (recipe === 'claude-code-acp') {
      // The pinned Claude Code, not the 2.1.83 the adapter's agent SDK bundles: its system prompt names its version.
      const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { agent: { version: string } };
      expect(manifest.agent.version).toBe('0.23.1+claude-code-2.1.328');
      const system = events.flatMap((e) => (e.type === 'message' && e.message.role === 'system' ? [String(e.message.content)] : []));
      expect(system.some((text) => text.includes('cc_version=2.1.328.'))).toBe(true);
    }
  }, 600_000);

  it("ends its turn on session/cancel at the step's time limit, and leaves no process once the pass is closed", async () => {
    await using b = await bench(`acp-hang-${recipe}`);
    // The runner's clock, as `ladder run` keeps it: the limit passes 2 s after the agent's first
    // model request, which is never answered (the agent waits on it until Ladder stops the turn).
    const timeUp = new AbortController();
    const fallback = setTimeout(() => timeUp.abort(), 150_000);
    await using models = await startModelGateway({
      token: 'pass-key',
      answer: ({ request }) => {
        // Claude Code's own request at session/new (no tools) is answered: it is part of starting.
        if (request.tools.length === 0) return Promise.resolve(SIDE_ANSWER);
        setTimeout(() => timeUp.abort(), 2_000);
        return new Promise(() => {});
      },
    });
    const values = { ...b.values(recipe, models.openaiBaseUrl), anthropicBaseUrl: models.anthropicBaseUrl, geminiBaseUrl: models.geminiBaseUrl, apiKey: 'pass-key' };
    // Found as `ladder run` finds it: the agent cache at the pinned version first, then PATH.
    const file = await loadAgentFile(recipe);
    const session = await startAgentSession({ ...file, command: locateAgent(file).command }, values);
    const result = await session.runStep('What is the answer?', { timeLimitMs: 2_000, timeUp: timeUp.signal, signal: timeUp.signal });
    clearTimeout(fallback);
    await session.close();
    expect(result, JSON.stringify(result)).toMatchObject({ timedOut: true });
    // Each of the four ended the turn within the 2 s grace: none needed its group ended.
    expect(result.failure).toMatch(/did not answer within the step's time limit \(2 s, its start-up not counted\); its turn was cancelled \(session\/cancel\)$/);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(processesIn(values.workspace)).toEqual([]);
    expect(await leftOver(recipe)).toEqual([]);
    process.stderr.write(`${recipe} at its time limit: ${result.failure}\n`);
  }, 200_000);
});
