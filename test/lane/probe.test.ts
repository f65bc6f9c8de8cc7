// `ladder probe` and the Streamable HTTP path, against a real HTTP server on 127.0.0.1.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Lane } from '../../src/lane/index.ts';
import type { StdioServerConfig } from '../../src/lane/index.ts';
import { probeTarget, runProbe, sampleArgs, splitCommand } from '../../src/lane/probe.ts';
import { MemoryTrace } from '../../src/trace/index.ts';
import { startStatelessMcp } from '../helpers/statelessMcp.ts';
import type { StatelessMcp } from '../helpers/statelessMcp.ts';

const TOKEN = 'Bearer sk-http-secret-9876';
let server: StatelessMcp;
let url: string;
const seenHeaders: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  server = await startStatelessMcp('adder', (mcp) => {
    mcp.registerTool('add_numbers', { description: 'Adds two numbers\nsecond line', inputSchema: { a: z.number(), b: z.number() } },
      ({ a, b }) => ({ content: [{ type: 'text', text: `sum ${a + b}` }] }));
  }, (req) => seenHeaders.push(req.headers));
  ({ url } = server);
});
afterAll(() => server.close());

describe('a Streamable HTTP server', () => {
  it('gets the configured headers on every request, and no header value enters the trace', async () => {
    const trace = new MemoryTrace();
    seenHeaders.length = 0;
    await using lane = await Lane.connect({ servers: { adder: { url, headers: { Authorization: TOKEN } } }, emit: trace.emit });
    await lane.openTurn();
    const result = await lane.call('adder__add_numbers', { a: 2, b: 3 }, { round: 1 });
    expect(result.text).toBe('sum 5');
    expect(seenHeaders.length).toBeGreaterThanOrEqual(3);
    expect(seenHeaders.every((h) => h.authorization === TOKEN)).toBe(true);
    expect(JSON.stringify(trace.events)).not.toContain('sk-http-secret');
  });

  it('that does not answer is one error naming the server and the URL, with no credentials or query in it', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await using lane = await Lane.connect({
      servers: { gone: { url: `http://127.0.0.1:${port}/mcp` }, creds: { url: `http://me:pw-123@127.0.0.1:${port}/mcp?key=k-456` } },
    });
    const [gone, creds] = lane.startErrors.map((e) => e.message);
    expect(gone).toBe(`server "gone" did not answer (http://127.0.0.1:${port}/mcp): Version negotiation probe failed: fetch failed (ECONNREFUSED)`);
    expect(creds).toMatch(new RegExp(`^server "creds" did not answer \\(http://127.0.0.1:${port}/mcp\\): `));
    expect(creds).not.toMatch(/pw-123|k-456/);
  });
});

describe('runProbe', () => {
  it('lists the roster and calls the first tool with arguments built from its schema', async () => {
    const lines: string[] = [];
    const code = await runProbe([url], { write: (line) => lines.push(line) });
    expect(code).toBe(0);
    expect(lines).toEqual([
      `connected: ${url} (MCP 2025-11-25)`,
      'roster: 2 tools (configured 1, reached 1, listed 1, registered 1, unavailable 0, cached 0)',
      '  probe__add_numbers  Adds two numbers',
      expect.stringMatching(/^ {2}harness__refresh_tools {2}Asks for every MCP server/),
      'call: probe__add_numbers {"a":1,"b":1}',
      'outcome: ok',
      'sum 2',
    ]);
  });

  it('calls the tool and arguments it is given', async () => {
    const lines: string[] = [];
    expect(await runProbe([url], { write: (l) => lines.push(l), tool: 'add_numbers', args: '{"a":40,"b":2}' })).toBe(0);
    expect(lines.at(-1)).toBe('sum 42');
  });

  it('exits 1 when the call fails and 2, said on err, when the tool or the server is not there', async () => {
    const lines: string[] = [];
    const errors: string[] = [];
    const world = { write: (l: string) => void lines.push(l), err: (l: string) => void errors.push(l) };
    expect(await runProbe([url], { ...world, args: '{"a":"x"}' })).toBe(1);
    expect(lines.at(-2)).toBe('outcome: failed');
    expect(await runProbe([url], { ...world, tool: 'nope' })).toBe(2);
    expect(errors).toEqual(['ladder probe: FAIL no tool named nope; the roster is above']);
    const crash = [process.execPath, '-e', 'console.error("cannot open database"); process.exit(3)'];
    expect(await runProbe(crash, world)).toBe(2);
    expect(errors.at(-1)).toMatch(/^ladder probe: FAIL server "probe" did not start .*stderr ends: cannot open database$/);
  });

  it('prints each input schema with --schema and calls nothing', async () => {
    const lines: string[] = [];
    expect(await runProbe([url], { write: (l) => lines.push(l), schema: true })).toBe(0);
    expect(lines[2]).toBe('  probe__add_numbers  Adds two numbers');
    expect(JSON.parse(lines[3]!.replace(/^ {4}input: /, ''))).toMatchObject({ type: 'object', required: ['a', 'b'] });
    expect(lines.some((l) => l.startsWith('call:'))).toBe(false);
  });
});

describe('probe targets', () => {
  it('split a command line the way a shell does for words and quotes', () => {
    expect(splitCommand(`npx -y "@scope/pkg" 'two words' a\\ b`)).toEqual(['npx', '-y', '@scope/pkg', 'two words', 'a b']);
  });

  it('turn a URL, a package, a script and a command into server configs', () => {
    expect(probeTarget(['http://127.0.0.1:1/mcp'])).toEqual({ url: 'http://127.0.0.1:1/mcp' });
    expect((probeTarget(['@modelcontextprotocol/server-memory']) as StdioServerConfig).args![0]).toMatch(/server-memory\/dist\/index\.js$/);
    expect((probeTarget(['server.ts', '--x']) as StdioServerConfig).args).toEqual(['--import', expect.stringMatching(/^file:.*tsx/), 'server.ts', '--x']);
    expect(probeTarget(['server.mjs'])).toEqual({ command: process.execPath, args: ['server.mjs'] });
    expect(probeTarget(['uvx mcp-server-git --repo .'])).toEqual({ command: 'uvx', args: ['mcp-server-git', '--repo', '.'] });
  });
});

describe('sampleArgs', () => {
  it('fills required properties only, from default, const, enum or type', () => {
    expect(sampleArgs({
      type: 'object',
      properties: {
        n: { type: 'integer' }, s: { type: 'string' }, u: { type: 'string', format: 'uri' }, b: { type: 'boolean' },
        d: { type: 'number', default: 7 }, e: { enum: ['x', 'y'] }, c: { const: 'k' }, l: { type: 'array' }, o: { type: 'object' },
        optional: { type: 'string' },
      },
      required: ['n', 's', 'u', 'b', 'd', 'e', 'c', 'l', 'o'],
    })).toEqual({ n: 1, s: 'ladder', u: 'https://example.com/', b: true, d: 7, e: 'x', c: 'k', l: [], o: {} });
  });
});
