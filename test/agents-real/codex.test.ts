// The pinned real agents through Ladder's drivers (npm run test:agents puts them on PATH):
// each starts offline, Codex answers an exec step, and codex-acp an ACP step, against a local
// Responses endpoint and an MCP server over Streamable HTTP that checks the pass's bearer token.
// What they send is read back: the recipes' switches for Codex's own tools must hold.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadAgentFile } from '../../src/agents/file.ts';
import type { AgentPassValues } from '../../src/agents/placeholders.ts';
import { startAgentSession } from '../../src/agents/session.ts';
import { startStatelessMcp, type StatelessMcp } from '../helpers/statelessMcp.ts';
import { ResponsesEndpoint } from './responses.ts';
import { processesIn, processesLeftIn, versionLine } from './helpers.ts';

const CODEX_VERSION = '0.171.0';
const PASSES = fileURLToPath(new URL('../../.cache/agents-real/', import.meta.url));
const WARNING = 'Model metadata for `tiny` not found. Defaulting to fallback metadata; this can degrade performance and cause issues.';
/**
 * A step's result without Codex's note that it will not put helper binaries in a home under the
 * system temp folder: the homes sit in the checkout's .cache/, and a checkout under /tmp (a CI
 * machine's, a fresh clone's) makes Codex say so. Where the repository lives is not the agent's doing.
 */
const withoutTempNote = <T extends { notes: readonly string[] }>(result: T): T =>
  ({ ...result, notes: result.notes.filter((note) => !/Refusing to create helper binaries under temporary dir/.test(note)) });

let mcp: StatelessMcp;
const mcpAuth: (string | undefined)[] = [];
let root: string;

beforeAll(async () => {
  // Not under the temp folder: Codex 0.171.0 warns "Refusing to create helper binaries under
  // temporary dir" for a CODEX_HOME there (on stderr, and as an agent message over ACP).
  mkdirSync(PASSES, { recursive: true });
  root = mkdtempSync(join(PASSES, 'run-'));
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

function passValues(name: string, endpoint: ResponsesEndpoint): AgentPassValues {
  const dir = mkdtempSync(join(root, `${name}-`));
  return {
    workspace: join(dir, 'workspace'), home: join(dir, 'home'), model: 'tiny', mcpUrl: mcp.url, mcpToken: `mcp-token-${name}`,
    openaiBaseUrl: endpoint.baseUrl, anthropicBaseUrl: endpoint.baseUrl.replace(/\/v1$/, ''), geminiBaseUrl: endpoint.baseUrl.replace(/\/v1$/, ''), apiKey: `pass-key-${name}`,
  };
}

/** What Codex offered the model: tool names, a namespace as name[its tools]. */
function offered(body: unknown): string[] {
  const tools = (body as { tools?: Array<{ type: string; name?: string; tools?: Array<{ name: string }> }> }).tools ?? [];
  return tools.map((t) => (t.type === 'namespace' ? `${t.name}[${(t.tools ?? []).map((x) => x.name).join(',')}]` : (t.name ?? t.type)));
}

describe('the pinned real agents', () => {
  it('codex starts offline and is the pinned version', async () => {
    expect(await versionLine('codex')).toBe(`codex-cli ${CODEX_VERSION}`);
  });

  it('Codex answers an exec step through the model gateway, with the gateway as its MCP server and its own shell switched off', async () => {
    await using endpoint = await ResponsesEndpoint.start(() => 'The answer is 42.');
    const values = passValues('codex', endpoint);
    const session = await startAgentSession(await loadAgentFile('codex'), values);
    const result = await session.runStep('What is the answer?', { timeLimitMs: 90_000 });
    await session.close();
    expect(withoutTempNote(result)).toEqual({ answer: 'The answer is 42.', timedOut: false, startupMs: expect.any(Number), notes: [`warning: ${WARNING}`] });

    const turns = endpoint.requests.filter((r) => r.path.endsWith('/responses'));
    expect(turns.map((r) => [r.method, r.path, r.authorization])).toEqual([['POST', '/v1/responses', 'Bearer pass-key-codex']]);
    const tools = offered(turns[0]!.body);
    expect(tools).toContain('mcp__ladder[ping]');
    // What the recipe switched off, and what is left of Codex's own (docs/agent.md lists it).
    for (const own of ['exec_command', 'write_stdin', 'view_image', 'web_search', 'apply_patch']) expect(tools).not.toContain(own);
    expect(tools.sort()).toEqual(['list_mcp_resource_templates', 'list_mcp_resources', 'mcp__ladder[ping]', 'read_mcp_resource', 'request_user_input']);
    expect(mcpAuth).toContain('Bearer mcp-token-codex');
    expect(processesIn(values.workspace)).toEqual([]);
  });

  it('Codex at the time limit: its whole group is ended', async () => {
    // A model that never answers: Codex waits on the stream until Ladder ends it.
    await using endpoint = await ResponsesEndpoint.start(() => new Promise<string>(() => {}));
    const values = passValues('codex-hang', endpoint);
    const session = await startAgentSession(await loadAgentFile('codex'), values);
    const result = await session.runStep('What is the answer?', { timeLimitMs: 5_000 });
    await session.close();
    expect(result).toMatchObject({ answer: '', timedOut: true, failure: "codex did not answer within 5 s (the step's time limit); its process group was ended" });
    expect(await processesLeftIn(values.workspace)).toEqual([]);
  });

  it('codex-acp answers initialize and session/new through the acp driver, and says its modes', async () => {
    await using endpoint = await ResponsesEndpoint.start(() => 'unused');
    const values = passValues('acp-modes', endpoint);
    const file = { ...(await loadAgentFile('codex-acp')), mode: 'no-such-mode' };
    const session = await startAgentSession(file, values);
    const result = await session.runStep('hello', { timeLimitMs: 60_000 });
    await session.close();
    // The line names the modes its session/new answered: the handshake ran, offline.
    expect(withoutTempNote(result)).toEqual({
      answer: '', timedOut: false, startupMs: expect.any(Number), notes: [],
      failure: 'codex-acp has no session mode "no-such-mode" (the agent file\'s mode); its modes are read-only, auto, full-access',
    });
    expect(endpoint.requests).toEqual([]);
  });

  it('codex-acp answers two ACP steps in one session, the gateway as its HTTP MCP server', async () => {
    let n = 0;
    await using endpoint = await ResponsesEndpoint.start(() => `Answer ${++n}.`);
    const values = passValues('acp', endpoint);
    const session = await startAgentSession(await loadAgentFile('codex-acp'), values);
    const first = await session.runStep('First question?', { timeLimitMs: 90_000 });
    const second = await session.runStep('Second question?', { timeLimitMs: 90_000 });
    const pidsDuring = processesIn(values.workspace);
    await session.close();
    expect(withoutTempNote(first)).toEqual({ answer: 'Answer 1.', timedOut: false, startupMs: expect.any(Number), notes: expect.arrayContaining([WARNING]) });
    expect(second.answer).toBe('Answer 2.');
    // What it does over ACP only is noted too: its slash commands, announced once after session/new
    // (in whichever step's notes it arrives).
    expect([...first.notes, ...second.notes].filter((note) => /^announced \d+ slash commands \(available_commands_update\)$/.test(note))).toHaveLength(1);
    expect(pidsDuring.length).toBeGreaterThan(0);
    const turns = endpoint.requests.filter((r) => r.path.endsWith('/responses'));
    expect(turns.map((r) => r.authorization)).toEqual(['Bearer pass-key-acp', 'Bearer pass-key-acp']);
    expect(offered(turns[0]!.body)).toContain('mcp__ladder[ping]');
    expect(offered(turns[0]!.body)).not.toContain('exec_command');
    expect(mcpAuth).toContain('Bearer mcp-token-acp');
    expect(await processesLeftIn(values.workspace)).toEqual([]);
  });
});
