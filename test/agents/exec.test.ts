// The exec driver against a real scripted agent (test/fixtures/agents/exec-agent.mjs): one
// process per step, the answer from stdout, each fault one exact line, and no process of the
// agent's left once a step has ended, however it ended.
import { readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startAgentSession, type AgentSession } from '../../src/agents/session.ts';
import { agentFile, allGoneWithin, EXEC_AGENT, pass, pidsIn, pidsWhenWritten } from './helpers.ts';

const NODE = basename(process.execPath);
const exec = (args: string[], more: Record<string, unknown> = {}) => agentFile({ kind: 'exec', command: process.execPath, args: [EXEC_AGENT, ...args], ...more });
const STEP = { timeLimitMs: 20_000 };

let session: AgentSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

describe('exec agents', () => {
  it('answers with its stdout, trimmed, the prompt in an argument', async () => {
    using p = pass();
    session = await startAgentSession(exec(['echo', '{prompt}']), p.values);
    const result = await session.runStep('hello world', STEP);
    expect(result).toMatchObject({ answer: 'answer: hello world', timedOut: false, notes: [] });
    expect(result.failure).toBeUndefined();
    expect(result.startupMs).toBeGreaterThan(0);
  });

  it("gives the steps after the first continue's arguments, with the step's index and the pass's one session id", async () => {
    using p = pass();
    const file = exec(['echo', 'new {step} {sessionId} {prompt}'], { continue: { args: [EXEC_AGENT, 'echo', 'resume {step} {sessionId} {prompt}'] } });
    session = await startAgentSession(file, p.values);
    const answers = [];
    for (const prompt of ['a', 'b', 'c']) answers.push((await session.runStep(prompt, STEP)).answer);
    const id = /^answer: new 0 (\S+) a$/.exec(answers[0]!)?.[1];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(answers).toEqual([`answer: new 0 ${id} a`, `answer: resume 1 ${id} b`, `answer: resume 2 ${id} c`]);
    await session.close();
    // A pass of its own, a session id of its own; and without continue, args at every step.
    session = await startAgentSession(exec(['echo', 'new {step} {sessionId}']), p.values);
    const again = [(await session.runStep('a', STEP)).answer, (await session.runStep('b', STEP)).answer];
    expect(again[0]).toMatch(/^answer: new 0 [0-9a-f-]{36}$/);
    expect(again[0]).not.toContain(id);
    expect(again[1]).toBe(again[0]!.replace('new 0', 'new 1'));
  });

  it('gives the prompt on stdin when no argument takes it', async () => {
    using p = pass();
    session = await startAgentSession(exec(['stdin']), p.values);
    expect((await session.runStep('the prompt', STEP)).answer).toBe('got: the prompt');
  });

  it('runs in the workspace with only the pass values in its environment, never Ladder\'s', async () => {
    using p = pass();
    process.env.LADDER_TEST_SECRET = 'sk-real-provider-key';
    try {
      session = await startAgentSession(exec(['env'], { env: { CODEX_HOME: '{home}/.codex', ASKED: '{prompt}' }, answer: { json: 'cwd' } }), p.values);
      expect((await session.runStep('x', STEP)).answer).toBe(p.values.workspace);
      await session.close();
      session = await startAgentSession(exec(['env'], { env: { CODEX_HOME: '{home}/.codex', ASKED: '{prompt}' }, answer: { json: 'env' } }), p.values);
      const env = JSON.parse((await session.runStep('the question', STEP)).answer) as Record<string, string>;
      expect(env).toEqual({
        PATH: process.env.PATH,
        LANG: process.env.LANG ?? 'C.UTF-8',
        NO_COLOR: '1',
        HOME: p.values.home,
        LADDER_MCP_URL: 'http://127.0.0.1:5000/mcp',
        LADDER_MCP_TOKEN: 'mcp-token-1',
        LADDER_MCP_CONFIG: join(p.values.home, 'ladder-mcp.json'),
        OPENAI_BASE_URL: 'http://127.0.0.1:5001/v1',
        OPENAI_API_KEY: 'pass-key-1',
        ANTHROPIC_BASE_URL: 'http://127.0.0.1:5001',
        ANTHROPIC_API_KEY: 'pass-key-1',
        GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:5001',
        GEMINI_API_KEY: 'pass-key-1',
        LADDER_SESSION_ID: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        LADDER_STEP: '0',
        CODEX_HOME: join(p.values.home, '.codex'),
        ASKED: 'the question',
      });
    } finally {
      delete process.env.LADDER_TEST_SECRET;
    }
  });

  it('writes the files and the mcpConfig file before the pass, placeholders filled', async () => {
    using p = pass();
    const files = { '{home}/.codex/config.toml': 'base_url = "{openaiBaseUrl}"\nliteral = "{{model}}"\ntable = { a = 1 }\n', 'notes/here.txt': '{workspace}' };
    session = await startAgentSession(exec(['echo', 'x'], { files }), p.values);
    expect(readFileSync(join(p.values.home, '.codex', 'config.toml'), 'utf8')).toBe('base_url = "http://127.0.0.1:5001/v1"\nliteral = "{model}"\ntable = { a = 1 }\n');
    expect(readFileSync(join(p.values.workspace, 'notes', 'here.txt'), 'utf8')).toBe(p.values.workspace);
    const config = join(p.values.home, 'ladder-mcp.json');
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({
      mcpServers: { ladder: { type: 'http', url: 'http://127.0.0.1:5000/mcp', headers: { Authorization: 'Bearer mcp-token-1' } } },
    });
    expect(statSync(config).mode & 0o777).toBe(0o600);
  });

  it('reads the last line or a JSON path when the file asks', async () => {
    using p = pass();
    const answers = async (answer: unknown) => {
      const s = await startAgentSession(exec(['lines'], { answer }), p.values);
      const result = await s.runStep('x', STEP);
      await s.close();
      return result.failure ?? result.answer;
    };
    expect(await answers('stdout')).toBe('starting up\n{"result":{"text":"from json","n":3}}\nnot json {\n\nlast words');
    expect(await answers('last-line')).toBe('last words');
    expect(await answers({ json: 'result.text' })).toBe('from json');
    expect(await answers({ json: 'result.n' })).toBe('3');
    expect(await answers({ json: 'result.gone' })).toBe(`${NODE}'s last JSON line has nothing at result.gone (the agent file's answer) (exit code 0)`);
  });

  it('fails a non-zero exit with its code and the end of its stderr, warnings as notes', async () => {
    using p = pass();
    session = await startAgentSession(exec(['fail']), p.values);
    expect(await session.runStep('x', STEP)).toEqual({
      answer: '',
      failure: `${NODE} exited with code 3; its stderr ended: some progress / fatal: boom`,
      timedOut: false,
      startupMs: expect.any(Number),
      notes: ['Model metadata for tiny not found; falling back'],
    });
  });

  it("says the agent stopped itself, with its message, when its loop guard's line matches the agent file's pattern", async () => {
    using p = pass();
    const message = 'Loop detection halted the run (consecutive_identical_tool_calls: the model repeated the same tool call with identical arguments). '
      + 'This is an always-on guard and cannot be disabled via `model.skipLoopDetection`.';
    session = await startAgentSession(exec(['loop-guard'], { loopGuard: { pattern: '^Loop detection halted the run' } }), p.values);
    expect(await session.runStep('x', STEP)).toEqual({ answer: '', stoppedItself: message, timedOut: false, startupMs: expect.any(Number), notes: [] });
    await session.close();
    // A pattern that matches no line of it: the same exit is the agent failing.
    session = await startAgentSession(exec(['loop-guard'], { loopGuard: { pattern: '^Loop detected' } }), p.values);
    expect(await session.runStep('x', STEP)).toEqual({
      answer: '', failure: `${NODE} exited with code 1; its stderr ended: Ripgrep not available: falling back to built-in grep. / ${message}`,
      timedOut: false, startupMs: expect.any(Number), notes: [],
    });
  });

  it('fails an agent that printed nothing', async () => {
    using p = pass();
    session = await startAgentSession(exec(['nothing']), p.values);
    expect((await session.runStep('x', STEP)).failure).toBe(`${NODE} printed nothing (exit code 0); its stderr ended: only on stderr`);
  });

  it('says an agent was killed by a signal', async () => {
    using p = pass();
    session = await startAgentSession(exec(['signal']), p.values);
    expect((await session.runStep('x', STEP)).failure).toBe(`${NODE} was killed by SIGKILL`);
  });

  it('says a command that is not installed, and how to install it', async () => {
    using p = pass();
    session = await startAgentSession(agentFile({ kind: 'exec', command: 'ladder-no-such-agent', install: 'npm i -g ladder-no-such-agent@1.0.0' }), p.values);
    expect(await session.runStep('x', STEP)).toMatchObject({
      answer: '',
      failure: 'ladder-no-such-agent is not installed (not found on PATH); install it with: npm i -g ladder-no-such-agent@1.0.0',
      timedOut: false,
      notes: [],
    });
    await session.close();
    session = await startAgentSession(agentFile({ kind: 'exec', command: 'ladder-no-such-agent' }), p.values);
    expect((await session.runStep('x', STEP)).failure).toBe("ladder-no-such-agent is not installed (not found on PATH); install it, or give its full path as the agent file's command");
  });

  it('ends the whole process group at the time limit', async () => {
    using p = pass();
    session = await startAgentSession(exec(['hang']), p.values);
    // The limit's timer runs on a fake clock, moved on once the agent has written its pids: on a
    // real one, a machine at a load average of 35 took longer than the 1.5 s limit to start
    // the agent, and the step ended before there were pids to check.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let ended = false;
      const step = session.runStep('x', { timeLimitMs: 1_500 }).finally(() => (ended = true));
      const pids = await pidsWhenWritten(join(p.values.workspace, 'pids.txt'));
      await vi.advanceTimersByTimeAsync(1_499);
      // A millisecond before the limit its timer is still set and the step still running.
      expect([vi.getTimerCount(), ended]).toEqual([1, false]);
      await vi.advanceTimersByTimeAsync(1);
      expect(await step).toMatchObject({ answer: '', timedOut: true, failure: `${NODE} did not answer within 1.5 s (the step's time limit); its process group was ended` });
      expect(await allGoneWithin(pids, 3_000)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('ends the whole process group when the step is cancelled', async () => {
    using p = pass();
    session = await startAgentSession(exec(['hang']), p.values);
    const controller = new AbortController();
    const step = session.runStep('x', { timeLimitMs: 60_000, signal: controller.signal });
    const pids = await pidsWhenWritten(join(p.values.workspace, 'pids.txt'));
    controller.abort();
    expect(await step).toMatchObject({ answer: '', timedOut: true, failure: `${NODE} was stopped: the step was cancelled; its process group was ended` });
    expect(await allGoneWithin(pids, 3_000)).toBe(true);
  });

  it('leaves no child of the agent running after it answered', async () => {
    using p = pass();
    session = await startAgentSession(exec(['leave-child']), p.values);
    expect((await session.runStep('x', STEP)).answer).toBe('done');
    expect(await allGoneWithin(pidsIn(join(p.values.workspace, 'pids.txt')), 3_000)).toBe(true);
  });

  it('ends a step in flight when the session closes', async () => {
    using p = pass();
    session = await startAgentSession(exec(['hang']), p.values);
    const step = session.runStep('x', { timeLimitMs: 60_000 });
    const pids = await pidsWhenWritten(join(p.values.workspace, 'pids.txt'));
    await session.close();
    expect((await step).answer).toBe('');
    expect(await allGoneWithin(pids, 3_000)).toBe(true);
    expect((await session.runStep('x', STEP)).failure).toBe(`${NODE}: the pass has ended`);
  });
});
