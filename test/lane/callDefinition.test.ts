// The definition the lane hands the SDK with each call (made once per listed tool): the SDK still
// validates structured output against the tool's output schema, and still mirrors a declared
// parameter into a header over HTTP in the 2026-07-28 era; a tool that declares none gets an
// input schema with nothing for the SDK to walk on every call.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Lane } from '../../src/lane/index.ts';
import { callDefinition } from '../../src/mcp/client.ts';
import type { Tool } from '../../src/mcp/types.ts';

const REGION: Tool = {
  name: 'deploy', description: 'Deploys to a region',
  inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } }, required: ['region'] },
};
const STATS: Tool = {
  name: 'stats', description: 'Counts things',
  inputSchema: { type: 'object', properties: { what: { type: 'string' } } },
  outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
};

describe('callDefinition', () => {
  it('keeps a definition that declares a header to mirror, however deep', () => {
    expect(callDefinition(REGION)).toBe(REGION);
    const nested: Tool = { name: 'n', inputSchema: { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'string', 'x-mcp-header': 'B' } } } } } };
    expect(callDefinition(nested)).toBe(nested);
  });

  it('gives one that declares none an input schema with nothing to walk, the same output schema object, once', () => {
    const made = callDefinition(STATS);
    expect(made.inputSchema).toEqual({ type: 'object' });
    expect(made.outputSchema).toBe(STATS.outputSchema);
    expect(made.name).toBe('stats');
    expect(callDefinition(STATS)).toBe(made);
  });
});

/** A 2026-07-28 server over HTTP with the two tools; records the headers of every tools/call. */
const calls: Record<string, string | string[] | undefined>[] = [];
function server(): Server {
  const s = new Server({ name: 'defs', version: '1.0.0' }, { capabilities: { tools: {} } });
  s.setRequestHandler('tools/list', () => ({ tools: [REGION, STATS] }));
  s.setRequestHandler('tools/call', (request) => (request.params.name === 'stats'
    ? { content: [{ type: 'text', text: 'n is x' }], structuredContent: { n: 'x' } }
    : { content: [{ type: 'text', text: `deployed to ${String(request.params.arguments?.region)}` }] }));
  return s;
}
const handler = createMcpHandler(server, { legacy: 'reject' });
const http = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const body = text === '' ? undefined : (JSON.parse(text) as { method?: string });
  if (body?.method === 'tools/call') calls.push(req.headers);
  const headers = Object.entries(req.headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v] as [string, string]] : []));
  const response = await handler.fetch(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, ...(text === '' ? {} : { body: text }) }), body === undefined ? {} : { parsedBody: body });
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  await handler.close();
  http.closeAllConnections();
  http.close();
});

describe('a lane call over HTTP in 2026-07-28', () => {
  it('mirrors a declared parameter into its header, and fails a result that breaks the output schema', async () => {
    const lane = await Lane.connect({ servers: { s: { url, protocol: '2026-07-28' } }, arm: 'on' });
    try {
      expect(lane.startErrors).toEqual([]);
      await lane.openTurn();
      for (let turn = 0; turn < 2; turn += 1) {
        const deployed = await lane.call('s__deploy', { region: 'eu-west' }, { round: 1 });
        expect(deployed).toMatchObject({ outcome: 'ok', text: 'deployed to eu-west' });
        expect(calls.at(-1)?.['mcp-param-region']).toBe('eu-west');
        const stats = await lane.call('s__stats', { what: 'things' }, { round: 1 });
        expect(stats.outcome).toBe('failed');
        expect(stats.text).toContain('output schema');
        expect(Object.keys(calls.at(-1) ?? {}).filter((name) => name.startsWith('mcp-param-'))).toEqual([]);
        await lane.openTurn();
      }
    } finally {
      await lane.close();
    }
  });
});
