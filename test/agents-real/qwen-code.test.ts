// Qwen Code at its pinned version through Ladder's exec driver (npm run test:agents puts it on
// PATH): it starts offline, answers a step against a local Chat Completions endpoint with an MCP
// server over Streamable HTTP that checks the pass's bearer token, and what it sends is read
// back: one model request a step (its background memory agent off), the gateway's tools offered
// as they are and none of its own. Its loop guard, which cannot be switched off, ends a step as
// the agent stopping itself. Its start-up (spawn to its first model request) is printed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAgentFile } from '../../src/agents/file.ts';
import { startAgentSession } from '../../src/agents/session.ts';
import { ChatEndpoint } from './chat.ts';
import { bench, offered, processesIn, type Bench, versionLine } from './helpers.ts';

const QWEN_VERSION = '0.24.4';
/** Generous: on the 2-core machine under a load of 10, one Qwen Code step took up to 54 s. */
const STEP_MS = 180_000;

let b: Bench;
beforeAll(async () => {
  b = await bench('qwen');
});
afterAll(async () => {
  await b[Symbol.asyncDispose]();
});

describe('Qwen Code', () => {
  it('starts offline and is the pinned version', async () => {
    expect(await versionLine('qwen')).toBe(QWEN_VERSION);
  });

  it('answers a step through the model gateway with one request, the gateway\'s tools as they are and none of its own', async () => {
    await using endpoint = await ChatEndpoint.start(() => 'The answer is 42.', 'pass-key-qwen');
    const values = b.values('qwen', endpoint.baseUrl);
    const session = await startAgentSession(await loadAgentFile('qwen-code'), values);
    const started = Date.now();
    const result = await session.runStep('What is the answer?', { timeLimitMs: STEP_MS });
    const ended = Date.now();
    await session.close();
    expect(result).toMatchObject({ answer: 'The answer is 42.', timedOut: false });
    expect(result.failure).toBeUndefined();
    // One request: no second one from the background memory agent.
    expect(endpoint.requests.map((r) => [r.method, r.path, r.authorization])).toEqual([['POST', '/v1/chat/completions', 'Bearer pass-key-qwen']]);
    const body = endpoint.chats[0]!.body as { model: string; stream: boolean };
    expect([body.model, body.stream]).toEqual(['tiny', true]);
    // alwaysLoadTools: the gateway's tool itself, not behind tool_search; tools.disabled: none of its own.
    expect(offered(body)).toEqual(['mcp__ladder__ping']);
    expect(b.mcpAuth).toContain('Bearer mcp-token-qwen');
    expect(processesIn(values.workspace)).toEqual([]);
    process.stderr.write(`qwen-code ${QWEN_VERSION}: first model request ${endpoint.chats[0]!.at - started} ms after spawn; step ${ended - started} ms\n`);
  }, STEP_MS + 30_000);

  it('stops itself when the model repeats one call, and the step says so with its message', async () => {
    // A model that asks for the same call for ever: Qwen Code's guard, not the time limit, ends it.
    await using endpoint = await ChatEndpoint.start(() => ({ toolCalls: [{ name: 'mcp__ladder__ping', args: { text: 'again' } }] }));
    const values = b.values('qwen-loop', endpoint.baseUrl);
    const session = await startAgentSession(await loadAgentFile('qwen-code'), values);
    const result = await session.runStep('Ping until it changes.', { timeLimitMs: STEP_MS });
    await session.close();
    expect(result).toMatchObject({ answer: '', timedOut: false, stoppedItself: expect.stringMatching(/^Loop detection halted the run \(consecutive_identical_tool_calls/) });
    expect(result.failure).toBeUndefined();
    // It made fewer calls than the model asked for: the last one it refused to make.
    const made = b.pings.filter((p) => (p as { text: string }).text === 'again').length;
    expect(made).toBe(endpoint.chats.length - 1);
    process.stderr.write(`qwen-code ${QWEN_VERSION}: its loop guard stopped it after ${made} identical calls (${endpoint.chats.length} model requests)\n`);
  }, STEP_MS + 30_000);
});
