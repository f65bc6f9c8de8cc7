// Codex with `ladder gateway` as its MCP server over stdio: the way a user puts the gateway in
// front of Codex (`[mcp_servers.ladder] command = ...`). Codex starts the gateway itself, lists
// through it and calls a tool of the server behind it; the model is Ladder's model gateway with
// a scripted answer (a call to the namespaced tool, then the text with what it answered).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadAgentFile } from '../../src/agents/file.ts';
import { startAgentSession } from '../../src/agents/session.ts';
import { startModelGateway } from '../../src/gateway/model/index.ts';
import type { ModelResponse } from '../../src/models/types.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CRASHY = join(ROOT, 'test/fixtures/crashy-server.mjs');
const BASE = fileURLToPath(new URL('../../.cache/agents-real/', import.meta.url));

const reply = (over: Partial<ModelResponse>): ModelResponse => ({
  text: '', toolCalls: [], usage: { inputTokens: 10, outputTokens: 5 }, latencyMs: 1, attempts: 1, retryWaitMs: 0,
  stopReason: 'end', providerStopReason: null, ignoredOptions: [], details: { provider: 'synthetic', policy: 'reference', seed: 0 }, ...over,
});

describe('Codex in front of ladder gateway over stdio', () => {
  it('lists and calls a tool through the gateway it started', async () => {
    mkdirSync(BASE, { recursive: true });
    const dir = mkdtempSync(join(BASE, 'gateway-'));
    const servers = join(dir, 'servers.json');
    writeFileSync(servers, JSON.stringify({ mcpServers: { a: { command: 'node', args: [CRASHY] } } }));
    const trace = join(dir, 'trace');
    const seen: string[][] = [];
    await using models = await startModelGateway({
      token: 'pass-key',
      answer: async ({ request }) => {
        seen.push(request.tools.map((t) => t.name));
        const result = request.messages.find((m) => m.role === 'tool');
        if (result === undefined) {
          return reply({ toolCalls: [{ id: 'call_1', name: 'mcp__ladder__a__echo', args: { n: 7 } }], stopReason: 'tool_calls' });
        }
        return reply({ text: `The tool said: ${result.content}` });
      },
    });
    const recipe = await loadAgentFile('codex');
    const config = Object.keys(recipe.files)[0]!;
    // The gateway starts three seconds late, always: Codex gives an optional server one second,
    // so this proves the recipe's `required = true` makes it wait, instead of hoping the machine
    // is slow enough to show it. startup_timeout_sec: a loaded machine needs more than the default 10.
    const ladder = [process.execPath, join(ROOT, 'bin/ladder.js'), 'gateway', '--servers', servers, '--trace', trace];
    const gateway = `command = "sh"\n    args = ${JSON.stringify(['-c', 'sleep 3 && exec "$@"', 'sh', ...ladder])}\n    startup_timeout_sec = 60`;
    const file = { ...recipe, files: { [config]: recipe.files[config]!.replace(/url = "\{mcpUrl\}"\n\s*bearer_token_env_var = "LADDER_MCP_TOKEN"/, gateway) } };
    expect(file.files[config]).toContain('gateway');
    const session = await startAgentSession(file, {
      workspace: join(dir, 'workspace'), home: join(dir, 'home'), model: 'tiny', mcpUrl: 'http://127.0.0.1:9/unused', mcpToken: 'unused',
      openaiBaseUrl: models.openaiBaseUrl, anthropicBaseUrl: models.anthropicBaseUrl, geminiBaseUrl: models.geminiBaseUrl, apiKey: 'pass-key',
    });
    const result = await session.runStep('Echo seven.', { timeLimitMs: 90_000 });
    await session.close();

    // The notes ride along so that a failure shows what the agent said about the missing tools.
    expect({ tools: seen[0], notes: result.notes }).toEqual({ tools: expect.arrayContaining(['mcp__ladder__a__echo']), notes: expect.any(Array) });
    expect(seen[0]).toContain('mcp__ladder__harness__refresh_tools');
    expect(result.answer).toContain('echo {"n":7}');
    const events = readdirSync(trace).flatMap((name) => readFileSync(join(trace, name), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; outcome?: string; tool?: string }));
    expect(events.filter((e) => e.type === 'tool.call').map((e) => [e.tool, e.outcome])).toEqual([['echo', 'ok']]);
  });
});
