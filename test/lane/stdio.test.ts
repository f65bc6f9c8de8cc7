// Real server processes over stdio: a fixture server, a server that does not start, and
// @modelcontextprotocol/server-everything started from its installed bin.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Lane, ServerStartError, nodePackage } from '../../src/lane/index.ts';
import type { StdioServerConfig } from '../../src/lane/index.ts';
import { MemoryTrace } from '../../src/trace/index.ts';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'stdio-server.ts');
// tsx's loader by URL, so the fixture also starts from a working folder outside the project.
const fixture = (mode = 'serve', extra: Partial<StdioServerConfig> = {}): StdioServerConfig => ({
  command: 'node', args: ['--import', import.meta.resolve('tsx'), FIXTURE, mode], ...extra,
});
const SECRET = 'sk-live-0123456789abcdef';

describe('a stdio server', () => {
  it('is listed and called as a child process, with its env and cwd, and no env value enters the trace', async () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'ladder-cwd-')));
    const trace = new MemoryTrace();
    await using lane = await Lane.connect({
      servers: { fx: fixture('serve', { env: { LADDER_TEST_TOKEN: SECRET }, cwd }) },
      emit: trace.emit,
    });
    const turn = await lane.openTurn();
    const echo = await lane.call('fx__echo', { text: 'over stdio' }, { round: 1 });
    const env = await lane.call('fx__has_env', { name: 'LADDER_TEST_TOKEN' }, { round: 2 });
    const where = await lane.call('fx__cwd', {}, { round: 3 });
    rmSync(cwd, { recursive: true, force: true });
    expect(turn.tools.map((t) => t.name)).toEqual(['fx__echo', 'fx__has_env', 'fx__cwd', 'harness__refresh_tools']);
    expect([echo.text, env.text, where.text]).toEqual(['over stdio', 'true', cwd]);
    expect(JSON.stringify(trace.events)).not.toContain(SECRET);
  });

  it('that does not start is one error naming the server, its command and its stderr; the others still work', async () => {
    const servers = {
      broken: fixture('crash', { env: { LADDER_TEST_TOKEN: SECRET } }),
      everything: nodePackage('@modelcontextprotocol/server-everything', ['stdio']),
    };
    const trace = new MemoryTrace();
    await using lane = await Lane.connect({ servers, emit: trace.emit });
    expect(lane.startErrors).toHaveLength(1);
    const error = lane.startErrors[0]!;
    expect(error).toBeInstanceOf(ServerStartError);
    expect(error.message).toMatch(/^server "broken" did not start \(.*node --import file:.*tsx.* .*stdio-server\.ts crash\): .*stderr ends: fixture: starting \| fixture: cannot open database \.\/missing\/workbench\.sqlite$/);
    expect(error.message).not.toContain(SECRET);
    expect(error.message.split('\n')).toHaveLength(1);

    const turn = await lane.openTurn();
    expect(turn.tools.map((t) => t.name)).toContain('everything__echo');
    expect(turn.counters).toMatchObject({ configured: 2, reached: 1, registered: 1, unavailable: 1 });
    expect((await lane.call('everything__echo', { message: 'still here' }, { round: 1 })).text).toBe('Echo: still here');
    const dead = await lane.call('broken__anything', {}, { round: 2 });
    expect([dead.outcome, dead.server]).toEqual(['unavailable', 'broken']);
    expect(dead.text).toMatch(/server broken is unavailable: it did not start/);
  });

  it('that starts but never initialises gives up after the connect timeout', async () => {
    const started = performance.now();
    const mute = { command: 'node', args: ['-e', 'process.stdin.resume()'] };
    await using lane = await Lane.connect({ servers: { mute }, connectTimeoutMs: 1500 });
    expect(performance.now() - started).toBeLessThan(8000);
    expect(lane.startErrors[0]!.message).toMatch(/^server "mute" did not start .*timed out/i);
  });

  it('whose command does not exist says so', async () => {
    await using lane = await Lane.connect({ servers: { ghost: { command: 'ladder-no-such-server-binary' } } });
    expect(lane.startErrors[0]!.message).toMatch(/^server "ghost" did not start \(ladder-no-such-server-binary\): .*ENOENT/);
  });
});

describe('progress sent with the answer', () => {
  it('reaches onProgress whole: notifications written back to back with the result are not dropped', async () => {
    const seen: string[] = [];
    await using lane = await Lane.connect({
      servers: { c: { command: 'node', args: [join(import.meta.dirname, '..', 'fixtures', 'crashy-server.mjs')] } },
      onProgress: (p) => seen.push(`${p.name} ${p.progress}/${p.total} ${p.message}`),
    });
    await lane.openTurn();
    for (let round = 1; round <= 5; round += 1) {
      const result = await lane.call('c__steps', {}, { round });
      expect(result.text).toBe('three steps done');
    }
    expect(seen).toEqual(Array.from({ length: 5 }, () => [1, 2, 3].map((i) => `c__steps ${i}/3 step ${i}`)).flat());
  });
});

describe('@modelcontextprotocol/server-everything', () => {
  it('lists its tools and answers echo, get-sum and a long-running operation with progress', async () => {
    const progress: number[] = [];
    const trace = new MemoryTrace();
    await using lane = await Lane.connect({
      servers: { everything: nodePackage('@modelcontextprotocol/server-everything', ['stdio']) },
      emit: trace.emit,
      // Shorter than the operation: only progress resetting the timeout lets it finish.
      callTimeoutMs: 1000,
      onProgress: (p) => progress.push(p.progress),
    });
    const turn = await lane.openTurn();
    const names = turn.tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['everything__echo', 'everything__get-sum', 'everything__trigger-long-running-operation']));
    const echo = await lane.call('everything__echo', { message: 'hi' }, { round: 1 });
    const sum = await lane.call('everything__get-sum', { a: 2, b: 40 }, { round: 2 });
    const long = await lane.call('everything__trigger-long-running-operation', { duration: 2, steps: 4 }, { round: 3 });
    expect(echo.text).toBe('Echo: hi');
    expect(sum.text).toContain('42');
    expect(long.outcome).toBe('ok');
    expect(long.text).toMatch(/Long running operation completed/);
    // Every one, the fourth too, though it arrives with the answer (deliverNotificationsFirst).
    expect(progress).toEqual([1, 2, 3, 4]);
    expect(trace.ofType('tool.call').map((e) => e.outcome)).toEqual(['ok', 'ok', 'ok']);
  });
});
