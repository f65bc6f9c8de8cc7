// `ladder rungs new`: a skeleton written from a real listing, which the rung loader accepts as
// it is, with the server's tools and their arguments in it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runNew } from '../../src/cli/rungs.ts';
import { parseRung } from '../../src/rungs/load.ts';
import { serverNameFor, skeletonServer } from '../../src/rungs/skeleton.ts';
import { removeTempDirs, ROOT, tempDir } from '../runner/helpers.ts';

afterAll(removeTempDirs);

describe('ladder rungs new', () => {
  it('writes a skeleton with the server\'s real tools and arguments, which loads as a rung', async () => {
    const out = join(await tempDir('ladder-new-'), 'sum.yaml');
    const said: string[] = [];
    const code = await runNew({ name: 'sum-try', server: ['@modelcontextprotocol/server-everything', 'stdio'], out }, (l) => said.push(l), ROOT);
    expect(code).toBe(0);
    expect(said[0]).toMatch(/^wrote .*sum\.yaml: \d+ tools of everything; fill in the TODOs/);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('#   everything__get-sum  Returns the sum of two numbers');
    expect(text).toContain('#       a: number (required): First number');
    expect(text).toMatch(/package: "?@modelcontextprotocol\/server-everything"?\n\s+args:\n\s+- stdio/);
    const rung = parseRung(out, text);
    expect(rung.name).toBe('sum-try');
    expect(rung.effect).toMatchObject({ arms: ['off', 'on'], better: 'on', metric: 'step_pass_rate' });
    const first = rung.steps[0]!.reference.calls[0]!;
    expect(first.tool.startsWith('everything__')).toBe(true);
    expect(rung.steps[0]!.checks[0]).toEqual({ called: first.tool });
  }, 60_000);

  it('refuses a bad name, and a file in the way unless --force', async () => {
    const dir = await tempDir('ladder-new-');
    const said: string[] = [];
    const err: string[] = [];
    expect(await runNew({ name: 'Bad Name', server: ['x'] }, (l) => said.push(l), dir, (l) => err.push(l))).toBe(2);
    expect(err.at(-1)).toBe('ladder rungs new: name "Bad Name": expected lower-case letters, digits and dashes');
    writeFileSync(join(dir, 'taken.yaml'), 'x');
    expect(await runNew({ name: 'taken', server: ['x'], out: join(dir, 'taken.yaml') }, (l) => said.push(l), dir, (l) => err.push(l))).toBe(2);
    expect(err.at(-1)).toBe('ladder rungs new: taken.yaml exists; choose another name or --out, or --force to replace it');
    // Mistakes go to stderr: stdout stays for what was made.
    expect(said).toEqual([]);
  });

  it('says in one line that a package is not installed', async () => {
    const dir = await tempDir('ladder-new-');
    const said: string[] = [];
    const err: string[] = [];
    expect(await runNew({ name: 'ghost', server: ['@nobody/no-such-server'], out: join(dir, 'g.yaml') }, (l) => said.push(l), ROOT, (l) => err.push(l))).toBe(2);
    expect(err).toEqual([expect.stringMatching(/^ladder rungs new: package @nobody\/no-such-server is not installed/)]);
    expect(said).toEqual([]);
    expect(existsSync(join(dir, 'g.yaml'))).toBe(false);
  });
});

describe('the server as the rung names it', () => {
  it('keeps a URL, turns an installed package or npx into package:, and names the server after it', () => {
    expect(skeletonServer(['http://127.0.0.1:3000/mcp']).spec).toEqual({ url: 'http://127.0.0.1:3000/mcp' });
    expect(skeletonServer(['npx -y @modelcontextprotocol/server-memory']).spec).toEqual({ package: '@modelcontextprotocol/server-memory' });
    expect(skeletonServer(['mcp-server-sqlite']).spec).toEqual({ package: 'mcp-server-sqlite' });
    expect(skeletonServer(['python3', 'server.py']).spec).toEqual({ command: 'python3', args: ['server.py'] });
    expect(serverNameFor({ package: '@cyanheads/git-mcp-server' })).toBe('git');
    expect(serverNameFor({ package: 'mcp-server-sqlite' })).toBe('sqlite');
    expect(serverNameFor({ package: '@coo-quack/calc-mcp' })).toBe('calc');
    expect(serverNameFor({ url: 'http://127.0.0.1:3000/mcp' })).toBe('remote');
  });
});
