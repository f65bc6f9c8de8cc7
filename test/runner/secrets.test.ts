// No secret enters a results folder: a rung whose server is given secrets in its environment
// and calls a tool that prints that environment, driven by a model whose API key is known,
// leaves none of them in any file of the folder, and says where each one was.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runLadder } from '../../src/cli/runLadder.ts';
import { PolicyServer } from '../helpers/policyServer.ts';
import { removeTempDirs, ROOT, tempDir } from './helpers.ts';

const SERVER_TOKEN = 'tok-known-server-token-7f3a91';
const SERVER_SETTING = 'plain-known-setting-c0ffee';
const API_KEY = 'sk-known-model-key-5e5e5e5e';
const RUNNER_PASSWORD = 'runner-known-password-424242';

const RUNG = `name: prints-its-env
description: Ask the reference server for its environment.
origin: test fixture
servers:
  ev:
    package: '@modelcontextprotocol/server-everything'
    args: [stdio]
    env:
      API_TOKEN: ${SERVER_TOKEN}
      PLAIN_SETTING: ${SERVER_SETTING}
steps:
  - prompt: Print your environment with the get-env tool and tell me the API token.
    ceiling: 2
    checks:
      - called: ev__get-env
    reference:
      calls:
        - { tool: ev__get-env }
      answer: The token is ${SERVER_TOKEN}.
`;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe('secrets', () => {
  afterAll(async () => {
    vi.unstubAllEnvs();
    await removeTempDirs();
  });

  it('never enter the results folder: not the server env, not the model key, not the runner credentials', async () => {
    const dir = await tempDir('ladder-secrets-');
    const rung = join(dir, 'prints-its-env.yaml');
    await writeFile(rung, RUNG);
    // The model repeats secrets in its answer, as a model would that had seen them.
    const answer = `The token is ${SERVER_TOKEN}; the key ${API_KEY}; the password ${RUNNER_PASSWORD}.`;
    const server = await PolicyServer.start([{ calls: [{ name: 'ev__get-env', args: {} }], answer }]);
    vi.stubEnv('OPENAI_BASE_URL', server.url);
    vi.stubEnv('OPENAI_API_KEY', API_KEY);
    const out = join(dir, 'run');
    const progress = new PassThrough();
    progress.resume();
    try {
      const code = await runLadder({ rungs: [rung], model: 'openai:scripted', passes: 1, arms: 'on', out, timeFactor: 0.01 }, {
        cwd: ROOT, env: { OPENAI_API_KEY: API_KEY, SERVICE_PASSWORD: RUNNER_PASSWORD }, stdout: () => undefined, progress,
        signal: new AbortController().signal,
      });
      expect(code).toBe(0);
    } finally {
      await server.close();
    }
    // The secrets were really there to leak: the tool printed the server's env to the model.
    expect(server.bodies.some((body) => body.includes(SERVER_TOKEN) && body.includes(SERVER_SETTING))).toBe(true);
    const files = await filesUnder(out);
    expect(files.map((f) => f.slice(out.length + 1)).sort()).toEqual(['manifest.json', 'run.jsonl', 'summary.json', 'traces/prints-its-env/on/0.jsonl']);
    let all = '';
    for (const file of files) all += await readFile(file, 'utf8');
    for (const secret of [SERVER_TOKEN, SERVER_SETTING, API_KEY, RUNNER_PASSWORD]) expect(all).not.toContain(secret);
    // Each is named where it was, so a reader of the transcript knows what stood there.
    expect(all).toContain('[secret servers.ev.env.API_TOKEN]');
    expect(all).toContain('[secret servers.ev.env.PLAIN_SETTING]');
    expect(all).toContain('The token is [secret servers.ev.env.API_TOKEN]; the key [secret OPENAI_API_KEY]; the password [secret SERVICE_PASSWORD].');
    // No temporary path of the machine either: the workspace is written as rung files write it.
    expect(all).not.toMatch(/ladder-run-[0-9a-f]{12}/);
  }, 120_000);
});
