// --base-url, --thinking and --num-ctx on `ladder run`: checked before a folder exists, recorded
// in the manifest, kept on --resume, and the same requests `ladder doctor` sends.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import yargs from 'yargs';
import { runDoctor } from '../../src/cli/doctor.ts';
import { runCommand } from '../../src/cli/run.ts';
import { runLadder } from '../../src/cli/runLadder.ts';
import type { RunArgs } from '../../src/cli/runLadder.ts';
import { checkModel, DOCTOR_SEED, ECHO_TOOL } from '../../src/models/doctor.ts';
import { FUNCTION_NAME_RULE, wireName } from '../../src/models/names.ts';
import { writeManifest } from '../../src/results/manifest.ts';
import { prepareRun } from '../../src/runner/prepare.ts';
import type { RunRequest } from '../../src/runner/prepare.ts';
import { InputError } from '../../src/runner/rungFiles.ts';
import type { PassAgentInput } from '../../src/runner/agents.ts';
import { Scrubber } from '../../src/trace/index.ts';
import type { Rung } from '../../src/rungs/schema.ts';
import { anthropicReply, FakeProvider, ollamaReply, openaiReply } from '../models/fakeServer.ts';
import { thinkingBlock } from '../models/strict/anthropic.ts';

const RUNG = `name: flags
description: one step
origin: a test
servers:
  wb:
    workbench: {}
steps:
  - prompt: say hi
    ceiling: 3
    checks:
      - answer: { mentions: [hi] }
    reference:
      answer: hi
`;

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'ladder-flags-'));
  await mkdir(join(cwd, 'rungs'));
  await writeFile(join(cwd, 'rungs', 'flags.yaml'), RUNG);
});
afterAll(() => rm(cwd, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());

const prepare = (request: Partial<RunRequest>) => prepareRun({ rungs: [], ...request }, { cwd, env: {} });

async function linesOf(request: Partial<RunRequest>): Promise<string[]> {
  try {
    await prepare(request);
  } catch (error) {
    if (error instanceof InputError) return error.lines;
    throw error;
  }
  throw new Error('expected the input to be refused');
}

/** What a pass hands its agent factory; only the seed matters to a real model's agent. */
function passFor(seed: number, workspace: string): PassAgentInput {
  return { rung: {} as Rung, id: { rung: 'r', arm: 'on', armSlug: 'on', pass: 0, seed }, workspace, oneShot: false, scrubber: new Scrubber() };
}

describe('model flags on ladder run', () => {
  it('go to the adapter and into the manifest', async () => {
    const prepared = await prepare({ model: 'ollama:qwen3:8b', baseUrl: 'http://10.0.0.5:11434', thinking: 'on', numCtx: 16_384 });
    const settings = { provider: 'ollama', baseUrl: 'http://10.0.0.5:11434', thinking: 'on', numCtx: 16_384 };
    expect(prepared.manifest.model).toStrictEqual({
      spec: 'ollama:qwen3:8b', reason: '--model was given', synthetic: false, settings,
      price: { status: 'free', model: 'ollama:qwen3:8b', why: 'a local model (Ollama) has no per-token price' },
    });
    const agent = await prepared.agent(passFor(41, cwd));
    expect(agent.model.settings).toStrictEqual(settings);
    expect(agent.sampling).toStrictEqual({ seed: 41 });
  });

  it('record the defaults they resolve to when none is given', async () => {
    const ollama = await prepare({ model: 'ollama:m' });
    expect(ollama.manifest.model.settings).toStrictEqual({ provider: 'ollama', baseUrl: 'http://127.0.0.1:11434', thinking: 'off', numCtx: 8192 });
    const openai = await prepare({ model: 'openai:m', baseUrl: 'http://127.0.0.1:8000/v1' });
    expect(openai.manifest.model.settings).toStrictEqual({ provider: 'openai', baseUrl: 'http://127.0.0.1:8000/v1', hosted: false, seed: true });
    expect((await prepare({ model: 'synthetic:mix' })).manifest.model).not.toHaveProperty('settings');
  });

  it('give one line each when wrong, before any folder exists', async () => {
    expect(await linesOf({ model: 'openai:m', baseUrl: 'localhost:8000/v1' })).toStrictEqual([
      'openai:m: base URL "localhost:8000/v1" has no http:// or https://; give the whole URL, e.g. http://localhost:8000/v1',
    ]);
    expect(await linesOf({ model: 'openai:m', baseUrl: 'http://127.0.0.1:8000' })).toStrictEqual([
      'openai:m: base URL "http://127.0.0.1:8000" has no path; OpenAI-compatible servers answer under /v1: use http://127.0.0.1:8000/v1',
    ]);
    expect(await linesOf({ model: 'openai:m', baseUrl: 'http://127.0.0.1:8000/v1', numCtx: 4096, thinking: 'on' })).toStrictEqual([
      '--thinking applies to anthropic: and ollama: models, not to openai: models',
      '--num-ctx applies to ollama: models, not to openai: models',
    ]);
    expect(await linesOf({ model: 'synthetic:mix', baseUrl: 'http://x/v1' })).toStrictEqual([
      '--base-url applies to ollama:, openai: and anthropic: models, not to synthetic: models',
    ]);
    expect(await linesOf({ model: 'ollama:m', thinking: '2048' })).toStrictEqual(['--thinking 2048: Ollama takes --thinking on or off, not a token budget']);
    expect(await linesOf({ model: 'ollama:m', thinking: 'lots' })).toStrictEqual(['--thinking lots: use off, on, or a budget of thinking tokens (at least 1024)']);
    expect(await linesOf({ model: 'ollama:m', numCtx: 0 })).toStrictEqual(['--num-ctx 0: expected a positive integer']);
  });

  it('are kept on --resume, and a change refuses it', async () => {
    const out = join(cwd, 'results', 'resumable');
    const first = await prepare({ model: 'ollama:m', numCtx: 12_000, out });
    await mkdir(out, { recursive: true });
    await writeManifest(out, first.manifest);
    const resumed = await prepare({ out, resume: true });
    expect(resumed.manifest.model.settings).toStrictEqual(first.manifest.model.settings);
    expect((await resumed.agent(passFor(1, cwd))).model.settings).toMatchObject({ numCtx: 12_000 });
    expect(await linesOf({ out, resume: true, numCtx: 4096 })).toStrictEqual([
      expect.stringMatching(/^cannot resume .*: model settings \{.*"numCtx":12000\} vs \{.*"numCtx":4096\}; start a new run with another --out$/),
    ]);
  });
});

describe('the command line', () => {
  it('takes --base-url, --thinking and --num-ctx on ladder run, and a mistake in them is one line and exit 2', async () => {
    let parsed: RunArgs | undefined;
    await yargs()
      .command({ ...runCommand, handler: (argv) => void (parsed = argv) })
      .strict()
      .parseAsync(['run', '--model', 'openai:m', '--base-url', 'localhost:8000/v1', '--thinking', 'on', '--num-ctx', '4096']);
    expect(parsed).toMatchObject({ baseUrl: 'localhost:8000/v1', thinking: 'on', numCtx: 4096 });
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await runLadder({ ...parsed!, out: join(cwd, 'results', 'never') }, { cwd, env: {}, stdout: () => undefined })).toBe(2);
      expect(err.mock.calls.map(([text]) => String(text))).toStrictEqual([
        'ladder run: --thinking applies to anthropic: and ollama: models, not to openai: models\n',
        'ladder run: --num-ctx applies to ollama: models, not to openai: models\n',
      ]);
      err.mockClear();
      expect(await runLadder({ model: 'openai:m', baseUrl: 'localhost:8000/v1' }, { cwd, env: {}, stdout: () => undefined })).toBe(2);
      expect(err.mock.calls.map(([text]) => String(text))).toStrictEqual([
        'ladder run: openai:m: base URL "localhost:8000/v1" has no http:// or https://; give the whole URL, e.g. http://localhost:8000/v1\n',
      ]);
    } finally {
      err.mockRestore();
    }
  });
});

describe('ladder doctor and ladder run', () => {
  const cases = [
    {
      spec: 'ollama:m', flags: { thinking: 'on', numCtx: 16_384 }, baseUrl: (url: string) => url,
      replies: () => [ollamaReply('ready'), ollamaReply('', [{ name: ECHO_TOOL.name, args: { text: 'ping' } }]), ollamaReply('ping')],
    },
    {
      spec: 'openai:m', flags: {}, baseUrl: (url: string) => `${url}/v1`,
      replies: () => [openaiReply('ready'), openaiReply(null, [{ id: 'c1', name: wireName(ECHO_TOOL.name, FUNCTION_NAME_RULE), args: { text: 'ping' } }]), openaiReply('ping')],
    },
    {
      spec: 'anthropic:m', flags: { thinking: '2048' }, baseUrl: (url: string) => url,
      // with thinking on, the API returns the model's thinking first, and wants it back
      replies: () => [
        anthropicReply('ready', [], {}, [thinkingBlock('Say ready.')]),
        anthropicReply('', [{ id: 'toolu_1', name: wireName(ECHO_TOOL.name, FUNCTION_NAME_RULE), args: { text: 'ping' } }], {}, [thinkingBlock('Call it.')]),
        anthropicReply('ping', [], {}, [thinkingBlock('Done.')]),
      ],
    },
  ];

  it.each(cases)('send the same requests for $spec', async ({ spec, flags, baseUrl, replies }) => {
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-test');
    const server = await FakeProvider.start();
    try {
      const url = baseUrl(server.url);
      server.reply(...replies());
      expect(await runDoctor(spec, { ...flags, baseUrl: url }, { write: () => undefined, adapter: { retry: { maxAttempts: 1 } } })).toBe(0);
      const fromDoctor = server.seen.map((s) => s.raw);
      const prepared = await prepare({ model: spec, ...flags, baseUrl: url });
      const agent = await prepared.agent(passFor(DOCTOR_SEED, cwd));
      server.reply(...replies());
      expect((await checkModel(agent.model, undefined, agent.sampling)).ok).toBe(true);
      expect(server.seen.slice(3).map((s) => s.raw)).toStrictEqual(fromDoctor);
      expect(server.seen.map((s) => s.refused)).toStrictEqual(Array(6).fill(undefined));
    } finally {
      await server.close();
    }
  });
});
