// opencode at its pinned version through Ladder's exec driver (npm run test:agents puts it on
// PATH): it starts offline, answers a step against a local Chat Completions endpoint with an MCP
// server over Streamable HTTP that checks the pass's bearer token, and what it sends is read
// back: one model request a step (no title request), only the gateway's tools offered, nothing
// installed from npm. Its start-up (spawn to its first model request) is printed, for the
// time-limit arithmetic at --time-factor 0.01.
import { once } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAgentFile } from '../../src/agents/file.ts';
import { startAgentSession } from '../../src/agents/session.ts';
import { ChatEndpoint } from './chat.ts';
import { bench, offered, processesIn, type Bench, versionLine } from './helpers.ts';

const OPENCODE_VERSION = '1.18.33';
/** Generous: on the 2-core machine under a load of 10, one opencode step took up to 55 s. */
const STEP_MS = 180_000;

let b: Bench;
beforeAll(async () => {
  b = await bench('opencode');
});
afterAll(async () => {
  await b[Symbol.asyncDispose]();
});

describe('opencode', () => {
  it('starts offline and is the pinned version', async () => {
    expect(await versionLine('opencode')).toBe(OPENCODE_VERSION);
  });

  it('answers a step through the model gateway with one request, the gateway as its only tools, nothing fetched or installed', async () => {
    await using endpoint = await ChatEndpoint.start(() => 'The answer is 42.', 'pass-key-opencode');
    const values = b.values('opencode', endpoint.baseUrl);
    const session = await startAgentSession(await loadAgentFile('opencode'), values);
    const started = Date.now();
    const result = await session.runStep('What is the answer?', { timeLimitMs: STEP_MS });
    const ended = Date.now();
    await session.close();
    expect(result).toMatchObject({ answer: 'The answer is 42.', timedOut: false });
    expect(result.failure).toBeUndefined();

    // One request: --title kept the title request away; streamed, with the pass token.
    expect(endpoint.requests.map((r) => [r.method, r.path, r.authorization])).toEqual([['POST', '/v1/chat/completions', 'Bearer pass-key-opencode']]);
    const body = endpoint.chats[0]!.body as { model: string; stream: boolean };
    expect([body.model, body.stream]).toEqual(['tiny', true]);
    // Its own tools (skill and task included) are off: the gateway's tool is all it offers.
    expect(offered(body)).toEqual(['ladder_ping']);
    expect(b.mcpAuth).toContain('Bearer mcp-token-opencode');
    // Nothing from npm: no npm cache in its home, and no plugin installed in its config folder.
    expect(existsSync(join(values.home, '.npm'))).toBe(false);
    expect(readdirSync(join(values.home, '.config', 'opencode', 'node_modules'))).toEqual(['.ladder']);
    expect(processesIn(values.workspace)).toEqual([]);
    process.stderr.write(`opencode ${OPENCODE_VERSION}: first model request ${endpoint.chats[0]!.at - started} ms after spawn; step ${ended - started} ms\n`);
  }, STEP_MS + 30_000);

  it('calls a gateway tool the model asks for and sends its result back', async () => {
    await using endpoint = await ChatEndpoint.start((_, n) => (n === 1 ? { toolCalls: [{ name: 'ladder_ping', args: { text: 'hi' } }] } : 'pong came back'));
    const values = b.values('opencode-call', endpoint.baseUrl);
    const session = await startAgentSession(await loadAgentFile('opencode'), values);
    const result = await session.runStep('Ping once, then say what came back.', { timeLimitMs: STEP_MS });
    await session.close();
    expect(result).toMatchObject({ answer: 'pong came back', timedOut: false });
    expect(b.pings).toContainEqual({ text: 'hi' });
    const second = endpoint.chats[1]!.body as { messages: Array<{ role: string; content?: unknown; tool_call_id?: string }> };
    expect(second.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_1_0' });
    expect(endpoint.chats).toHaveLength(2);
  }, STEP_MS + 30_000);
});
