// Bad input: one line per problem with file, line and field path, and no results folder.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { prepareRun } from '../../src/runner/prepare.ts';
import { InputError } from '../../src/runner/rungFiles.ts';
import { runLadder } from '../../src/cli/runLadder.ts';

const GOOD = `name: good
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

afterAll(() => rm(cwd, { recursive: true, force: true }));

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'ladder-input-'));
  await mkdir(join(cwd, 'rungs'));
  await writeFile(join(cwd, 'rungs', 'good.yaml'), GOOD);
  await writeFile(join(cwd, 'bad.yaml'), GOOD.replace('name: good', 'name: Bad Name').replace('ceiling: 3', 'ceiling: 0'));
  await writeFile(join(cwd, 'nocmd.yaml'), GOOD.replace('name: good', 'name: nocmd').replace('    workbench: {}', '    command: ladder-no-such-server\n    args: [x]'));
  await writeFile(join(cwd, 'nopkg.yaml'), GOOD.replace('name: good', 'name: nopkg').replace('    workbench: {}', "    package: '@example/not-installed'"));
  await writeFile(join(cwd, 'nostart.yaml'), GOOD.replace('name: good', 'name: nostart').replace('    workbench: {}',
    "    url: http://127.0.0.1:{port}/mcp\n    start: { package: '@example/not-installed' }"));
  await writeFile(join(cwd, 'nostartcmd.yaml'), GOOD.replace('name: good', 'name: nostartcmd').replace('    workbench: {}',
    '    url: http://127.0.0.1:{port}/mcp\n    start: { command: ladder-no-such-server }'));
  await writeFile(join(cwd, 'badfault.yaml'), GOOD.replace('name: good', 'name: badfault').replace('    workbench: {}', '    workbench:\n      faults: { failFirst: { no_such_tool: 2 } }'));
});

async function linesOf(request: Parameters<typeof prepareRun>[0]): Promise<string[]> {
  try {
    await prepareRun(request, { cwd, env: {}, fetch: (async () => { throw new TypeError('no network in tests'); }) as typeof fetch });
  } catch (error) {
    if (error instanceof InputError) return error.lines;
    throw error;
  }
  throw new Error('expected the input to be refused');
}

describe('bad input', () => {
  it('gives one line per rung problem with file, line and field path', async () => {
    expect(await linesOf({ rungs: ['bad.yaml'], model: 'synthetic:mix' })).toEqual([
      'bad.yaml:1 name: expected lower-case letters, digits and dashes',
      'bad.yaml:9 steps[0].ceiling: expected a positive integer',
    ]);
  });

  it('names a server command that is not installed, and a package that is not', async () => {
    expect(await linesOf({ rungs: ['nocmd.yaml', 'nopkg.yaml'], model: 'synthetic:mix' })).toEqual([
      'nocmd.yaml:6 servers.wb.command: command "ladder-no-such-server" not found on PATH; install it or fix the rung',
      expect.stringMatching(/^nopkg\.yaml:6 servers\.wb\.package: package @example\/not-installed is not installed under /),
    ]);
  });

  it('names a server to start for each pass whose package or command is not installed', async () => {
    expect(await linesOf({ rungs: ['nostart.yaml', 'nostartcmd.yaml'], model: 'synthetic:mix' })).toEqual([
      expect.stringMatching(/^nostart\.yaml:7 servers\.wb\.start: package @example\/not-installed is not installed under /),
      'nostartcmd.yaml:7 servers.wb.start: command "ladder-no-such-server" not found on PATH; install it or fix the rung',
    ]);
  });

  it('names a workbench fault that names no tool', async () => {
    const [line] = await linesOf({ rungs: ['badfault.yaml'], model: 'synthetic:mix' });
    expect(line).toMatch(/^badfault\.yaml:7 servers\.wb\.workbench\.faults\.failFirst: unknown tool "no_such_tool"; use one of files_list, /);
  });

  it('lists the supported model specs for an unknown one', async () => {
    const [line] = await linesOf({ rungs: [], model: 'gpt-4o' });
    expect(line).toContain('model spec "gpt-4o": no provider; use ollama:<model>, openai:<model>, anthropic:<model> or synthetic:<');
    expect(line).toContain('or synthetic:mix');
  });

  it('collects every flag mistake at once', async () => {
    expect(await linesOf({ rungs: [], passes: 0, arms: ['on', 'bogus'], shard: '3/2', timeFactor: -1 })).toEqual([
      '--passes 0: expected a positive integer',
      '--time-factor -1: expected a number above 0 and at most 1000',
      expect.stringContaining('arm "bogus": unknown mechanism "bogus"'),
      '--shard 3/2: expected i/n with 0 <= i < n, e.g. --shard 0/4',
    ]);
  });

  it('says when a rung argument matches no file', async () => {
    expect(await linesOf({ rungs: ['nothing-*'], model: 'synthetic:mix' })).toEqual([
      'nothing-*: no rung file matches (give a file, a folder, a glob or a rung name in rungs/)',
    ]);
  });

  it('refuses to write over an existing results folder', async () => {
    await mkdir(join(cwd, 'results', 'taken'), { recursive: true });
    expect(await linesOf({ rungs: [], model: 'synthetic:mix', out: 'results/taken' })).toEqual([
      'results/taken already exists; continue it with --resume, or choose another --out',
    ]);
  });

  it('names the --out it cannot resume as typed, and what to give instead', async () => {
    await mkdir(join(cwd, 'results', 'not-a-run'), { recursive: true });
    expect(await linesOf({ rungs: [], resume: true, out: 'results/nowhere' })).toEqual([
      '--resume --out results/nowhere: no such results folder; name the folder of the run to continue (results/<run-id>), or drop --resume to start a new run there',
    ]);
    expect(await linesOf({ rungs: [], resume: true, out: 'results/not-a-run' })).toEqual([
      '--resume --out results/not-a-run: no manifest.json, so no run to continue; name the folder ladder run wrote (results/<run-id>)',
    ]);
  });

  it('resumes a run with the agent file it recorded, and says so when --agent names another', async () => {
    const out = join(cwd, 'results', 'acp-run');
    expect(await runLadder({ model: 'synthetic:mix', rungs: ['rungs/good.yaml'], passes: 1, arms: 'on', out }, { cwd, stdout: () => undefined })).toBe(0);
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(join(out, 'manifest.json'), JSON.stringify({ ...manifest, agent: { name: 'gemini-acp', kind: 'acp', file: 'gemini-acp', sha256: 'x', version: '0.61.0' } }));
    await writeFile(join(cwd, 'plain.yaml'), `name: gemini\nkind: exec\ncommand: ${process.execPath}\n`);
    const [line] = await linesOf({ rungs: ['rungs/good.yaml'], resume: true, out: 'results/acp-run', agent: join(cwd, 'plain.yaml') });
    expect(line).toMatch(/^cannot resume results\/acp-run: agent "gemini-acp" vs "gemini"; .*; drop --agent to resume it with the agent file it recorded \(gemini-acp\), or start a new run with another --out$/);
  });

  it('creates no results folder for any of them', async () => {
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      for (const args of [{ rungs: ['bad.yaml'] }, { rungs: ['nocmd.yaml'] }, { model: 'nope' }, { passes: -2 }]) {
        const out = join(cwd, 'results', 'never');
        expect(await runLadder({ model: 'synthetic:mix', ...args, out }, { cwd, stdout: () => undefined })).toBe(2);
        expect(existsSync(out)).toBe(false);
      }
      expect(err.mock.calls.map(([text]) => String(text))).toContainEqual(expect.stringMatching(/^ladder run: bad\.yaml:9 steps\[0\]\.ceiling/));
    } finally {
      err.mockRestore();
    }
  });
});
