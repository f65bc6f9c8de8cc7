// Claude Code, pinned, through Ladder's exec driver (npm run test:agents puts it on PATH): it
// starts offline, answers a step against a local Messages endpoint and an MCP server over
// Streamable HTTP that checks the pass's bearer token, and is ended whole at the time limit.
// What it sends is read back: the recipe's switches for its own tools must hold, and the refusal
// of its system entry (for a model name it does not know) must make it re-send without it.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadAgentFile } from '../../src/agents/file.ts';
import type { AgentPassValues } from '../../src/agents/placeholders.ts';
import { startAgentSession } from '../../src/agents/session.ts';
import { startStatelessMcp, type StatelessMcp } from '../helpers/statelessMcp.ts';
import { MessagesEndpoint, SYSTEM_REFUSED } from './messages.ts';
import { processesIn, processesLeftIn, versionLine } from './helpers.ts';

const CLAUDE_CODE_VERSION = '2.1.328';
const PASSES = fileURLToPath(new URL('../../.cache/agents-real/', import.meta.url));
let mcp: StatelessMcp;
const mcpAuth: (string | undefined)[] = [];
let root: string;

beforeAll(async () => {
  mkdirSync(PASSES, { recursive: true });
  root = mkdtempSync(join(PASSES, 'claude-'));
  mcp = await startStatelessMcp(
    'ladder',
    (server) => server.registerTool('ping', { description: 'Answers pong.', inputSchema: { text: z.string() } }, async () => ({ content: [{ type: 'text', text: 'pong' }] })),
    (req) => mcpAuth.push(req.headers.authorization),
  );
});
afterAll(async () => {
  await mcp.close();
  rmSync(root, { recursive: true, force: true });
});

function passValues(name: string, endpoint: MessagesEndpoint): AgentPassValues {
  const dir = mkdtempSync(join(root, `${name}-`));
  return {
    workspace: join(dir, 'workspace'), home: join(dir, 'home'), model: 'tiny', mcpUrl: mcp.url, mcpToken: `mcp-token-${name}`,
    openaiBaseUrl: `${endpoint.baseUrl}/v1`, anthropicBaseUrl: endpoint.baseUrl, geminiBaseUrl: endpoint.baseUrl, apiKey: `pass-key-${name}`,
  };
}

interface MessagesBody {
  messages: Array<{ role: string }>;
  tools?: Array<{ name: string; defer_loading?: boolean }>;
}

describe('Claude Code, pinned', () => {
  it('claude starts offline and is the pinned version', async () => {
    expect(await versionLine('claude')).toBe(`${CLAUDE_CODE_VERSION} (Claude Code)`);
  });

  it('answers an exec step: its system entry refused in the API\'s words, the request re-sent without it, the gateway its only tools', async () => {
    await using endpoint = await MessagesEndpoint.start(() => 'The answer is 42.');
    const values = passValues('exec', endpoint);
    const session = await startAgentSession(await loadAgentFile('claude-code'), values);
    const result = await session.runStep('What is the answer?', { timeLimitMs: 120_000 });
    await session.close();
    expect(result).toEqual({ answer: 'The answer is 42.', timedOut: false, startupMs: expect.any(Number), notes: [] });

    const seen = endpoint.requests.map((r) => ({ ...r, body: r.body as MessagesBody }));
    expect(seen.map((r) => [r.method, r.path, r.apiKey, r.status])).toEqual([
      ['POST', '/v1/messages?beta=true', 'pass-key-exec', 400],
      ['POST', '/v1/messages?beta=true', 'pass-key-exec', 200],
    ]);
    // The first carries the environment block as a system entry after the prompt; the second is the same without it.
    expect(seen.map((r) => r.body.messages.map((m) => m.role))).toEqual([['user', 'system'], ['user']]);
    // --tools "": none of its own tools; what is left is the gateway's, and a deferred placeholder on the first.
    expect(seen.map((r) => (r.body.tools ?? []).map((t) => t.name))).toEqual([['DeferredToolPlaceholder', 'mcp__ladder__ping'], ['mcp__ladder__ping']]);
    expect(seen[0]!.body.tools![0]!.defer_loading).toBe(true);
    expect(mcpAuth).toContain('Bearer mcp-token-exec');
    expect(processesIn(values.workspace)).toEqual([]);
  });

  it('without the API\'s wording it does not re-send: the refusal is what its fallback reads', async () => {
    // The same refusal in words of its own (what the gateway said before): Claude Code retries the same request, then exits 1.
    const ownWords = { type: 'error', error: { type: 'invalid_request_error', message: 'POST /v1/messages: messages.1.role: expected "user" or "assistant", got "system"' } };
    await using endpoint = await MessagesEndpoint.start(() => 'The answer is 42.', ownWords);
    const values = passValues('wording', endpoint);
    const session = await startAgentSession(await loadAgentFile('claude-code'), values);
    const result = await session.runStep('What is the answer?', { timeLimitMs: 120_000 });
    await session.close();
    expect(result).toMatchObject({ answer: '', timedOut: false, failure: expect.stringMatching(/^claude exited with code 1/) });
    expect(endpoint.requests.length).toBeGreaterThan(1);
    expect(endpoint.requests.every((r) => r.status === 400 && (r.body as MessagesBody).messages.some((m) => m.role === 'system'))).toBe(true);
  });

  it('at the time limit its whole group is ended', async () => {
    // A model that never answers: Claude Code waits on the stream until Ladder ends it.
    await using endpoint = await MessagesEndpoint.start(() => new Promise<string>(() => {}));
    const values = passValues('hang', endpoint);
    const session = await startAgentSession(await loadAgentFile('claude-code'), values);
    const result = await session.runStep('What is the answer?', { timeLimitMs: 15_000 });
    await session.close();
    expect(result).toMatchObject({ answer: '', timedOut: true, failure: "claude did not answer within 15 s (the step's time limit); its process group was ended" });
    expect(await processesLeftIn(values.workspace)).toEqual([]);
  });
});
