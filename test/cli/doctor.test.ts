import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import yargs from 'yargs';
import { doctorCommand, runDoctor } from '../../src/cli/doctor.ts';
import { ECHO_TOOL } from '../../src/models/doctor.ts';
import { FUNCTION_NAME_RULE, wireName } from '../../src/models/names.ts';
import { closedPort, FakeProvider, ollamaReply, openaiReply } from '../models/fakeServer.ts';

const NO_WAIT = { retry: { sleep: async () => {} } };

describe('ladder doctor', () => {
  let server: FakeProvider;
  let lines: string[];
  let errors: string[];
  const world = (env: Record<string, string | undefined> = {}) => ({ env, write: (l: string) => void lines.push(l), err: (l: string) => void errors.push(l), adapter: NO_WAIT });

  beforeEach(async () => {
    server = await FakeProvider.start();
    lines = [];
    errors = [];
  });
  afterEach(async () => server.close());

  it('prints one OK line and exits 0 for a working model', async () => {
    server.reply(ollamaReply('ready'), ollamaReply('', [{ name: ECHO_TOOL.name, args: { text: 'ping' } }]), ollamaReply('ping'));
    expect(await runDoctor('ollama:qwen3:8b', { baseUrl: server.url }, world())).toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^OK ollama:qwen3:8b: answers, calls a tool \(its union schema flattened\) and accepts its result \(3 requests, /);
    expect(server.seen.map((s) => s.path)).toStrictEqual(['/api/chat', '/api/chat', '/api/chat']);
  });

  it('exits 1 with a FAIL line when the model makes no tool call', async () => {
    server.reply(openaiReply('ready'), openaiReply('No.'));
    expect(await runDoctor('openai:m', { baseUrl: `${server.url}/v1` }, world())).toBe(1);
    expect(lines).toStrictEqual(['FAIL openai:m: answers, but made no tool call when offered one (replied "No.")']);
  });

  it('exits 1 and says what to start when nothing listens, trying twice', async () => {
    const url = await closedPort();
    expect(await runDoctor('ollama:m', { baseUrl: url }, world())).toBe(1);
    expect(lines).toStrictEqual([
      `FAIL ollama:m: connection failed after 2 attempts: connection refused; is Ollama running at ${url}? start it with "ollama serve" or set OLLAMA_HOST (request 1 of 3)`,
    ]);
  });

  it('exits 2 on a spec it cannot read, listing the forms', async () => {
    expect(await runDoctor('gpt-4o', {}, world())).toBe(2);
    expect(lines).toEqual([]);
    expect(errors[0]).toMatch(/^ladder doctor: FAIL model spec "gpt-4o": no provider; use ollama:<model>, /);
  });

  it('exits 2 on a missing key, before any request', async () => {
    expect(await runDoctor('anthropic:claude-x', { baseUrl: server.url }, world())).toBe(2);
    expect(errors).toStrictEqual(['ladder doctor: FAIL anthropic:claude-x: ANTHROPIC_API_KEY is not set; export it and run again']);
    expect(server.seen).toHaveLength(0);
  });

  it('exits 2 on a --thinking it cannot read, or a flag the provider does not take, before any request', async () => {
    expect(await runDoctor('anthropic:m', { thinking: 'lots' }, world({ ANTHROPIC_API_KEY: 'k' }))).toBe(2);
    expect(await runDoctor('openai:m', { baseUrl: `${server.url}/v1`, numCtx: 4096 }, world())).toBe(2);
    expect(errors).toStrictEqual([
      'ladder doctor: FAIL --thinking lots: use off, on, or a budget of thinking tokens (at least 1024)',
      'ladder doctor: FAIL --num-ctx applies to ollama: models, not to openai: models',
    ]);
    expect(server.seen).toHaveLength(0);
  });

  it('takes the key from the environment it is given', async () => {
    server.reply(openaiReply('ready'), openaiReply(null, [{ id: 'c', name: wireName(ECHO_TOOL.name, FUNCTION_NAME_RULE), args: { text: 'ping' } }]), openaiReply('ping'));
    expect(await runDoctor('openai:m', { baseUrl: `${server.url}/v1` }, world({ OPENAI_API_KEY: 'sk-doc' }))).toBe(0);
    expect(server.seen[0]!.headers.authorization).toBe('Bearer sk-doc');
  });

  describe('as a yargs command', () => {
    afterEach(() => {
      process.exitCode = undefined;
      vi.restoreAllMocks();
    });

    it('reads --model, --base-url, --thinking and --num-ctx and sets the exit code', async () => {
      const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
      server.reply(ollamaReply('ready'), ollamaReply('', [{ name: ECHO_TOOL.name, args: { text: 'ping' } }]), ollamaReply('ping'));
      await yargs().command(doctorCommand).strict().parseAsync(['doctor', '--model', 'ollama:m', '--base-url', server.url, '--thinking', 'on', '--num-ctx', '4096']);
      expect(process.exitCode).toBe(0);
      expect(String(out.mock.calls[0]?.[0])).toMatch(/^OK ollama:m: /);
      expect(server.seen.map((s) => [s.body.think, s.body.options.num_ctx])).toStrictEqual([[true, 4096], [true, 4096], [true, 4096]]);
    });

    it('requires --model or --agent, and not both', async () => {
      const parse = yargs().command(doctorCommand).exitProcess(false).fail((msg) => {
        throw new Error(msg);
      });
      await expect(async () => parse.parseAsync(['doctor'])).rejects.toThrow('name what to check: --model <spec> (a model) or --agent <name> (an external agent)');
      await expect(async () => parse.parseAsync(['doctor', '--agent', 'codex', '--model', 'openai:m'])).rejects.toThrow('--agent runs the agent with its own scripted model');
    });
  });
});
