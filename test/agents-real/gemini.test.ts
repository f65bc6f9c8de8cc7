// The pinned Gemini CLI through Ladder's exec driver (npm run test:agents puts it on PATH): it
// starts offline, reaches Ladder's model gateway in Google's Gemini API format, calls a tool of an
// MCP server over Streamable HTTP that checks the pass's bearer token, and answers. What it
// offered the model is read back: the recipe's exclusions of its own tools must hold, and the
// wait_for_previous it adds to every tool must not reach the MCP server.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadAgentFile } from '../../src/agents/file.ts';
import type { AgentPassValues } from '../../src/agents/placeholders.ts';
import { startAgentSession } from '../../src/agents/session.ts';
import { startModelGateway } from '../../src/gateway/model/index.ts';
import type { GatewayRequest, ModelGateway } from '../../src/gateway/model/index.ts';
import type { ModelResponse } from '../../src/models/types.ts';
import { startStatelessMcp, type StatelessMcp } from '../helpers/statelessMcp.ts';
import { processesIn, processesLeftIn, versionLine } from './helpers.ts';

const GEMINI_VERSION = '0.61.0';
const PASSES = fileURLToPath(new URL('../../.cache/agents-real/', import.meta.url));
// A loaded 2-core machine: Gemini CLI takes several seconds of CPU to start.
const STEP_MS = 120_000;

let mcp: StatelessMcp;
const mcpAuth: (string | undefined)[] = [];
const pings: unknown[] = [];
let root: string;

beforeAll(async () => {
  mkdirSync(PASSES, { recursive: true });
  root = mkdtempSync(join(PASSES, 'gemini-'));
  mcp = await startStatelessMcp(
    'ladder',
    (server) => server.registerTool('ping', { description: 'Answers pong.', inputSchema: z.object({ text: z.string() }).passthrough() }, async (args) => {
      pings.push(args);
      return { content: [{ type: 'text', text: `pong ${String(args.text)}` }] };
    }),
    (req) => mcpAuth.push(req.headers.authorization),
  );
});
afterAll(async () => {
  await mcp.close();
  rmSync(root, { recursive: true, force: true });
});

const reply = (fields: Partial<ModelResponse>): ModelResponse => ({
  text: '', toolCalls: [], usage: { inputTokens: 10, outputTokens: 5 }, latencyMs: 1, attempts: 1, retryWaitMs: 0,
  stopReason: 'end', providerStopReason: null, ignoredOptions: [], details: { provider: 'synthetic', policy: 'reference', seed: 0 }, ...fields,
});

function passValues(name: string, models: ModelGateway): AgentPassValues {
  const dir = mkdtempSync(join(root, `${name}-`));
  return {
    workspace: join(dir, 'workspace'), home: join(dir, 'home'), model: 'synthetic:retrier', mcpUrl: mcp.url, mcpToken: `mcp-token-${name}`,
    openaiBaseUrl: models.openaiBaseUrl, anthropicBaseUrl: models.anthropicBaseUrl, geminiBaseUrl: models.geminiBaseUrl, apiKey: 'pass-key',
  };
}

describe('Gemini CLI, pinned', () => {
  it('starts offline and is the pinned version', async () => {
    expect(await versionLine('gemini', { ...process.env, HOME: root })).toBe(GEMINI_VERSION);
  });

  it('answers an exec step through the model gateway: a tool round over MCP, its own tools off, wait_for_previous kept from the server', async () => {
    const seen: GatewayRequest[] = [];
    await using models = await startModelGateway({
      token: 'pass-key',
      answer: async (request) => {
        seen.push(request);
        const result = request.request.messages.find((m) => m.role === 'tool');
        if (result === undefined) {
          // the model sends Gemini CLI's scheduling flag: it must not reach the MCP server
          return reply({ toolCalls: [{ id: 'call_1', name: 'mcp_ladder_ping', args: { text: 'hi', wait_for_previous: true } }], stopReason: 'tool_calls' });
        }
        return reply({ text: `The tool said: ${result.content}` });
      },
    });
    const values = passValues('exec', models);
    const session = await startAgentSession(await loadAgentFile('gemini'), values);
    const result = await session.runStep('Ping the server with hi.', { timeLimitMs: STEP_MS });
    await session.close();

    expect(result).toMatchObject({ timedOut: false });
    expect(result.failure).toBeUndefined();
    expect(result.answer).toContain('The tool said:');
    expect(result.answer).toContain('pong hi');
    expect(seen.map((r) => [r.format, r.model, r.stream])).toEqual([['gemini', 'synthetic:retrier', true], ['gemini', 'synthetic:retrier', true]]);
    // What it offered the model: the gateway's one tool, none of its own, and no wait_for_previous in the schema the model sees.
    expect(seen[0]!.request.tools.map((t) => t.name)).toEqual(['mcp_ladder_ping']);
    expect(seen[0]!.otherTools).toEqual([]);
    expect(Object.keys(seen[0]!.request.tools[0]!.inputSchema.properties as object)).toEqual(['text']);
    // The second request answers the call by the id the gateway gave it.
    const call = seen[1]!.request.messages.find((m) => m.role === 'assistant');
    const answered = seen[1]!.request.messages.find((m) => m.role === 'tool');
    expect(call).toMatchObject({ toolCalls: [{ id: 'call_1', name: 'mcp_ladder_ping', args: { text: 'hi' } }] });
    expect(answered).toMatchObject({ toolCallId: 'call_1', toolName: 'mcp_ladder_ping' });
    expect(pings).toEqual([{ text: 'hi' }]);
    expect(mcpAuth).toContain('Bearer mcp-token-exec');
    expect(processesIn(values.workspace)).toEqual([]);
  }, STEP_MS + 30_000);

  it('at the time limit its whole group is ended', async () => {
    // A model that never answers: Gemini CLI waits on the stream until Ladder ends it.
    await using models = await startModelGateway({ token: 'pass-key', answer: () => new Promise<ModelResponse>(() => {}) });
    const values = passValues('hang', models);
    const session = await startAgentSession(await loadAgentFile('gemini'), values);
    const result = await session.runStep('What is the answer?', { timeLimitMs: 20_000 });
    await session.close();
    expect(result).toMatchObject({ answer: '', timedOut: true, failure: "gemini did not answer within 20 s (the step's time limit); its process group was ended" });
    expect(await processesLeftIn(values.workspace)).toEqual([]);
  }, 60_000);
});
