// The acp driver against a real scripted ACP agent (test/fixtures/agents/acp-agent.mjs, built
// on the SDK's agent side): one process per pass, one session/prompt per step, permissions
// answered per the agent file, and every process of the agent gone once the pass has ended,
// whether it closed, timed out, ignored a cancel or died.
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decidePermission } from '../../src/agents/acp.ts';
import { startAgentSession, type AgentSession, type AgentStepResult } from '../../src/agents/session.ts';
import { ACP_AGENT, agentFile, allGoneWithin, pass, pidsWhenWritten } from './helpers.ts';

const NODE = basename(process.execPath);
const acpFile = (flags: string[], more: Record<string, unknown> = {}) => agentFile({ kind: 'acp', command: process.execPath, args: [ACP_AGENT, ...flags], ...more });
const STEP = { timeLimitMs: 20_000 };

let session: AgentSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

const pidsOf = (workspace: string) => pidsWhenWritten(join(workspace, 'acp-pids.txt'));

/** A first step that finishes the handshake, so a short time limit after it lands in a turn however slow the machine starts Node. */
async function warm(s: AgentSession): Promise<void> {
  expect((await s.runStep('chunks', STEP)).answer).toBe('Hello there');
}

describe('acp agents', () => {
  it('answers each step with the text of its agent messages, and ends its processes on close', async () => {
    using p = pass();
    session = await startAgentSession(acpFile(['--http']), p.values);
    const first = await session.runStep('chunks', STEP);
    expect(first).toEqual({ answer: 'Hello there', timedOut: false, notes: [], startupMs: expect.any(Number) });
    const second = await session.runStep('chunks', STEP);
    // Start-up is the first step's, once.
    expect(second).toEqual({ answer: 'Hello there', timedOut: false, notes: [] });
    const pids = await pidsOf(p.values.workspace);
    await session.close();
    expect(await allGoneWithin(pids, 3_000)).toBe(true);
  });

  it('opens the session in the workspace with the gateway as an HTTP MCP server, sets the mode, and passes only the pass env', async () => {
    using p = pass();
    process.env.LADDER_TEST_SECRET = 'sk-real-provider-key';
    try {
      session = await startAgentSession(acpFile(['--http', '--modes'], { mode: 'auto' }), p.values);
      const setup = JSON.parse((await session.runStep('setup', STEP)).answer) as Record<string, unknown>;
      expect(setup).toEqual({
        cwd: p.values.workspace,
        mcpServers: [{ type: 'http', name: 'ladder', url: 'http://127.0.0.1:5000/mcp', headers: [{ name: 'Authorization', value: 'Bearer mcp-token-1' }] }],
        meta: null,
        mode: 'auto',
        model: 'hosted/big',
        home: p.values.home,
        token: 'mcp-token-1',
        key: 'pass-key-1',
        secret: null,
      });
    } finally {
      delete process.env.LADDER_TEST_SECRET;
    }
  });

  it('gives the stdio bridge, with the pass token in its env, to an agent that takes no HTTP MCP servers', async () => {
    using p = pass({ mcpStdio: { command: '/bin/bridge', args: ['--pass', '7'] } });
    session = await startAgentSession(acpFile([]), p.values);
    const setup = JSON.parse((await session.runStep('setup', STEP)).answer) as { mcpServers: unknown };
    expect(setup.mcpServers).toEqual([{ name: 'ladder', command: '/bin/bridge', args: ['--pass', '7'], env: [{ name: 'LADDER_MCP_TOKEN', value: 'mcp-token-1' }] }]);
  });

  it('fails every step with one line when the agent takes no HTTP MCP and no bridge is given', async () => {
    using p = pass();
    session = await startAgentSession(acpFile([]), p.values);
    const line = `${NODE} takes no HTTP MCP servers (its initialize says so) and this pass has no stdio bridge to give it`;
    expect((await session.runStep('chunks', STEP)).failure).toBe(line);
    expect((await session.runStep('chunks', STEP)).failure).toBe(line);
  });

  it('says which modes there are when the file names one the agent has not', async () => {
    using p = pass();
    session = await startAgentSession(acpFile(['--http', '--modes'], { mode: 'yolo' }), p.values);
    expect((await session.runStep('chunks', STEP)).failure).toBe(`${NODE} has no session mode "yolo" (the agent file's mode); its modes are read-only, auto`);
  });

  it("chooses the file's sessionModel through a model config option, by id or by name", async () => {
    using p = pass();
    session = await startAgentSession(acpFile(['--http', '--config-models'], { sessionModel: 'ladder/{model}' }), p.values);
    expect(JSON.parse((await session.runStep('setup', STEP)).answer)).toMatchObject({ model: 'ladder/tiny (set_config_option model-choice)' });
    await session.close();
    session = await startAgentSession(acpFile(['--http', '--config-models'], { sessionModel: 'Ladder/{model}' }), p.values);
    expect(JSON.parse((await session.runStep('setup', STEP)).answer)).toMatchObject({ model: 'ladder/tiny (set_config_option model-choice)' });
  });

  it('chooses it with session/set_model from the models list, and sends nothing when it is current', async () => {
    using p = pass();
    session = await startAgentSession(acpFile(['--http', '--models'], { sessionModel: 'ladder/{model}' }), p.values);
    expect(JSON.parse((await session.runStep('setup', STEP)).answer)).toMatchObject({ model: 'ladder/tiny (set_model)' });
    await session.close();
    session = await startAgentSession(acpFile(['--http', '--models'], { sessionModel: 'hosted/big' }), p.values);
    expect(JSON.parse((await session.runStep('setup', STEP)).answer)).toMatchObject({ model: 'hosted/big' });
  });

  it('fails with one line naming the models when the session offers no such model, or no choice', async () => {
    using p = pass();
    session = await startAgentSession(acpFile(['--http', '--config-models'], { sessionModel: 'opencode/{model}' }), p.values);
    expect((await session.runStep('chunks', STEP)).failure).toBe(`${NODE}: its session offers no model "opencode/tiny" (the agent file's sessionModel); it offers hosted/big, ladder/tiny`);
    await session.close();
    session = await startAgentSession(acpFile(['--http'], { sessionModel: '{model}' }), p.values);
    expect((await session.runStep('chunks', STEP)).failure).toBe(`${NODE}: its session/new offers no choice of model (no config option of category model, no models); remove the agent file's sessionModel`);
  });

  it("gives session/new the file's sessionMeta as its _meta", async () => {
    using p = pass();
    session = await startAgentSession(acpFile(['--http'], { sessionMeta: { claudeCode: { options: { tools: [] } } } }), p.values);
    expect(JSON.parse((await session.runStep('setup', STEP)).answer)).toMatchObject({ meta: { claudeCode: { options: { tools: [] } } } });
  });

  it('notes what it does over ACP only: slash commands after session/new, a plan, a session title, a permission it was given', async () => {
    using p = pass();
    session = await startAgentSession(acpFile(['--http', '--commands']), p.values);
    // The commands arrive with session/new, inside the first step (the handshake is its): its notes.
    const first = await session.runStep(`ask ${join(p.values.workspace, 'out.txt')}`, STEP);
    expect(first.notes).toEqual(['announced 2 slash commands (available_commands_update)', `asked permission (write ${join(p.values.workspace, 'out.txt')}): allowed`]);
    expect(await session.runStep('plan', STEP)).toEqual({ answer: 'planned', timedOut: false, notes: ['updated its plan (ACP plan, 2 entries)', 'named the session "Unit lookups"'] });
  });

  it("ends a step as the agent stopping itself when its message matches the file's loopGuard", async () => {
    using p = pass();
    session = await startAgentSession(acpFile(['--http'], { loopGuard: { pattern: '^Loop detection halted the run' } }), p.values);
    expect(await session.runStep('loop', STEP)).toEqual({
      answer: '', timedOut: false, notes: [], startupMs: expect.any(Number), stoppedItself: 'Loop detection halted the run (consecutive_identical_tool_calls)',
    });
    expect((await session.runStep('chunks', STEP)).answer).toBe('Hello there');
  });

  it('allows a permission request within the workspace and refuses one outside it', async () => {
    using p = pass();
    session = await startAgentSession(acpFile(['--http']), p.values);
    expect(await session.runStep(`ask ${join(p.values.workspace, 'out.txt')}`, STEP)).toEqual({
      answer: 'chose yes', timedOut: false, notes: [`asked permission (write ${join(p.values.workspace, 'out.txt')}): allowed`], startupMs: expect.any(Number),
    });
    expect(await session.runStep('ask /etc/passwd', STEP)).toEqual({
      answer: 'chose no',
      timedOut: false,
      notes: ['refused a permission request (write /etc/passwd): it names a path outside the workspace: /etc/passwd'],
    });
  });

  it('refuses every permission request when the file says deny', async () => {
    using p = pass();
    session = await startAgentSession(acpFile(['--http'], { permissions: 'deny' }), p.values);
    const result = await session.runStep(`ask ${join(p.values.workspace, 'out.txt')}`, STEP);
    expect(result.answer).toBe('chose no');
    expect(result.notes).toEqual([`refused a permission request (write ${join(p.values.workspace, 'out.txt')}): the agent file's permissions is deny`]);
  });

  it('keeps the agent\'s notices and Codex\'s warning messages as notes, out of the answer', async () => {
    using p = pass();
    session = await startAgentSession(acpFile(['--http']), p.values);
    expect(await session.runStep('notice', STEP)).toMatchObject({ answer: 'noted', notes: ['Model metadata for tiny not found'] });
    expect(await session.runStep('codex-warning', STEP)).toEqual({
      answer: 'the answer',
      timedOut: false,
      notes: ['Model metadata for `tiny` not found. Defaulting to fallback metadata; this can degrade performance and cause issues.'],
    });
  });

  it('fails a turn that ends with no agent message', async () => {
    using p = pass();
    session = await startAgentSession(acpFile(['--http']), p.values);
    expect((await session.runStep('silent', STEP)).failure).toBe(`${NODE} ended its turn (end_turn) with no agent message`);
  });

  it('cancels a turn at the time limit and goes on with the next step', async () => {
    using p = pass();
    session = await startAgentSession(acpFile(['--http']), p.values);
    await warm(session);
    const result = await session.runStep('hang', { timeLimitMs: 1_000 });
    expect(result).toMatchObject({ answer: '', timedOut: true, failure: `${NODE} did not answer within 1 s (the step's time limit); its turn was cancelled (session/cancel)` });
    expect((await session.runStep('chunks', STEP)).answer).toBe('Hello there');
  });

  it('ends the process group of an agent that ignores the cancel, and fails later steps at once', async () => {
    using p = pass();
    session = await startAgentSession(acpFile(['--http']), p.values);
    await warm(session);
    const pids = await pidsOf(p.values.workspace);
    const started = Date.now();
    const result = await session.runStep('hang-hard', { timeLimitMs: 1_000 });
    expect(Date.now() - started).toBeLessThan(1_000 + 2_000 + 4_000);
    expect(result).toMatchObject({
      answer: '',
      timedOut: true,
      failure: `${NODE} did not answer within 1 s (the step's time limit); it did not end its turn within 2 s of session/cancel, so its process group was ended`,
    });
    expect(await allGoneWithin(pids, 3_000)).toBe(true);
    expect(await session.runStep('chunks', STEP)).toEqual({ answer: '', timedOut: false, notes: [], failure: `${NODE} was ended at an earlier step: it did not end a cancelled turn within 2 s` });
  });

  it('fails the step an agent dies in with its exit line, and every later step at once with the same line', async () => {
    using p = pass();
    session = await startAgentSession(acpFile(['--http']), p.values);
    const pids = await pidsOf(p.values.workspace);
    const line = `${NODE} exited with code 1; its stderr ended: fatal: lost my mind`;
    expect((await session.runStep('die', STEP)).failure).toBe(line);
    expect(await allGoneWithin(pids, 3_000)).toBe(true);
    // At once: settled before the event loop turns once, so with no timer, no I/O and no wait
    // for the dead agent (a fixed bound in ms would read a loaded machine's pauses instead).
    let later: AgentStepResult | undefined;
    const step = session.runStep('chunks', STEP).then((r) => (later = r));
    await new Promise((resolve) => setImmediate(resolve));
    expect(later?.failure).toBe(line);
    await step;
  });

  it('counts a handshake that never finishes against the first step\'s time limit', async () => {
    using p = pass();
    session = await startAgentSession(acpFile(['--hang-init']), p.values);
    const pids = await pidsOf(p.values.workspace);
    expect(await session.runStep('chunks', { timeLimitMs: 1_000 })).toMatchObject({
      answer: '',
      timedOut: true,
      failure: `${NODE} did not answer within 1 s (the step's time limit) while it was starting; its process group was ended`,
    });
    expect(await allGoneWithin(pids, 3_000)).toBe(true);
    expect((await session.runStep('chunks', STEP)).failure).toBe(`${NODE} did not finish starting (ACP initialize, session/new) within the first step's time limit; its process group was ended`);
  });

  it('says an acp command that is not installed, and how to install it', async () => {
    using p = pass();
    session = await startAgentSession(agentFile({ kind: 'acp', command: 'ladder-no-such-acp', install: 'npm i -g ladder-no-such-acp@2' }), p.values);
    const line = 'ladder-no-such-acp is not installed (not found on PATH); install it with: npm i -g ladder-no-such-acp@2';
    expect(await session.runStep('chunks', STEP)).toMatchObject({ answer: '', timedOut: false, failure: line });
    expect((await session.runStep('chunks', STEP)).failure).toBe(line);
  });

  it('stops a step when its signal aborts', async () => {
    using p = pass();
    session = await startAgentSession(acpFile(['--http']), p.values);
    await warm(session);
    const controller = new AbortController();
    const step = session.runStep('hang', { timeLimitMs: 60_000, signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    expect(await step).toMatchObject({ timedOut: true, failure: `${NODE} was stopped: the step was cancelled; its turn was cancelled (session/cancel)` });
  });
});

describe('permission decisions', () => {
  const request = (paths: string[], rawInput?: unknown, kinds: string[] = ['allow_always', 'allow_once', 'reject_once']) => ({
    sessionId: 's',
    toolCall: { toolCallId: 't1', locations: paths.map((path) => ({ path })), ...(rawInput !== undefined ? { rawInput } : {}) },
    options: kinds.map((kind) => ({ optionId: kind, name: kind, kind: kind as 'allow_once' })),
  });

  it('picks allow once over allow always, for paths relative to or inside the workspace', () => {
    expect(decidePermission(request(['/ws/a', 'b/c']), '/ws', 'allow')).toEqual({ decision: { outcome: { outcome: 'selected', optionId: 'allow_once' } } });
  });

  it('allows a request that names no path (an MCP call through the gateway)', () => {
    expect(decidePermission(request([]), '/ws', 'allow').decision).toEqual({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
  });

  it('reads the cwd and path a tool gives in its raw input', () => {
    expect(decidePermission(request([], { command: ['ls'], cwd: '/elsewhere' }), '/ws', 'allow').note).toBe('refused a permission request (t1): it names a path outside the workspace: /elsewhere');
    expect(decidePermission(request([], { path: '../up' }), '/ws', 'allow').note).toBe('refused a permission request (t1): it names a path outside the workspace: ../up');
    expect(decidePermission(request(['/ws2/x']), '/ws', 'allow').decision).toEqual({ outcome: { outcome: 'selected', optionId: 'reject_once' } });
  });

  it('cancels when there is no reject option to pick', () => {
    expect(decidePermission(request(['/etc'], undefined, ['allow_once']), '/ws', 'allow').decision).toEqual({ outcome: { outcome: 'cancelled' } });
    expect(decidePermission(request([], undefined, ['reject_always']), '/ws', 'allow')).toEqual({
      decision: { outcome: { outcome: 'selected', optionId: 'reject_always' } },
      note: 'refused a permission request (t1): it offered no allow option',
    });
  });
});
