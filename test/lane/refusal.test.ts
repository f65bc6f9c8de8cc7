// A server that refuses Ladder's protocol version is a definite answer: said once, in one line
// that names what each side offered, and not asked again. Against the SDK v2 fixture servers as
// real processes (test/fixtures/v2-server.mjs), over stdio and Streamable HTTP: the modern one
// speaks only 2026-07-28, the dual one both eras.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { Lane } from '../../src/lane/index.ts';
import type { ServerConfig } from '../../src/lane/index.ts';
import { runProbe } from '../../src/lane/probe.ts';
import { LADDER_PROTOCOL_VERSIONS, protocolRefusal, refusalLine } from '../../src/lane/refusal.ts';
import { parseRung } from '../../src/rungs/load.ts';
import { startServers } from '../../src/runner/started.ts';
import { fixtureLog, startV2Http, V2_SERVER, v2Stdio } from '../helpers/v2Server.ts';
import type { V2Era } from '../helpers/v2Server.ts';

const dir = mkdtempSync(join(tmpdir(), 'ladder-refusal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OURS = '2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07';
/** What follows the server's words in every version refusal: why it is not asked again, and what to do. */
const TODO = "; the server speaks only revisions this Ladder does not, so it was not tried again: serve a revision Ladder speaks as well " +
  "(a server on the MCP SDK v2 serves both eras unless told legacy: 'reject')";

/** The fixture as a lane reaches it over `over`; `close` stops an HTTP one. */
async function fixture(over: 'stdio' | 'http', era: V2Era, log: string): Promise<{ config: ServerConfig; where: string; close: () => Promise<void> }> {
  if (over === 'stdio') {
    return { config: v2Stdio(era, log), where: `${process.execPath} ${V2_SERVER} ${era} stdio`, close: async () => undefined };
  }
  const server = await startV2Http(era, log);
  return { config: { url: server.url }, where: server.url, close: server.close };
}

/** What the fixture was asked: one start over stdio, the requests over HTTP. */
const asked = (over: 'stdio' | 'http', log: string) => fixtureLog(log).filter((line) => (over === 'stdio' ? line.startsWith('start ') : line.startsWith('POST ')));

describe.each(['stdio', 'http'] as const)('a lane over %s', (over) => {
  it('reports a modern-only server\'s refusal in one line, with both sides\' revisions, and asks once', async () => {
    const log = join(dir, `${over}-lane.log`);
    const server = await fixture(over, 'modern', log);
    try {
      const started = performance.now();
      await using lane = await Lane.connect({ servers: { v2: server.config } });
      const [error] = lane.startErrors;
      expect(error?.refusal).toEqual({ kind: 'version', offered: ['2026-07-28'], said: expect.stringContaining('-32022') });
      const http = over === 'http' ? ', HTTP 400' : '';
      expect(error?.message).toBe(`server "v2" refused Ladder's protocol version (${server.where}): it speaks 2026-07-28, Ladder speaks ${OURS} ` +
        `(MCP error -32022: Unsupported protocol version: 2025-11-25${http})${TODO}`);
      expect(asked(over, log)).toEqual(over === 'stdio' ? [expect.stringMatching(/^start \d+$/)] : ['POST initialize']);
      // A refusal is an answer: well inside the 20 s connect timeout a retry would run into.
      expect(performance.now() - started).toBeLessThan(15_000);
    } finally {
      await server.close();
    }
  });

  it('connects to the dual-era server with the 2025 handshake and calls its tools', async () => {
    const server = await fixture(over, 'dual', join(dir, `${over}-dual.log`));
    try {
      await using lane = await Lane.connect({ servers: { v2: server.config } });
      expect(lane.startErrors).toEqual([]);
      await lane.openTurn();
      expect((await lane.call('v2__add', { a: 2, b: 3 }, { round: 1 })).text).toBe('sum 5');
    } finally {
      await server.close();
    }
  });

  it('makes `ladder probe` say the refusal on err and exit 2', async () => {
    const server = await fixture(over, 'modern', join(dir, `${over}-probe.log`));
    try {
      const lines: string[] = [];
      const errors: string[] = [];
      const target = 'url' in server.config ? [server.config.url] : [V2_SERVER, 'modern', 'stdio'];
      expect(await runProbe(target, { write: (line) => lines.push(line), err: (line) => errors.push(line) })).toBe(2);
      expect(lines).toEqual([]);
      expect(errors).toEqual([expect.stringMatching(/^ladder probe: FAIL server "probe" refused Ladder's protocol version \(.*\): it speaks 2026-07-28, /)]);
      expect(errors[0]!.endsWith(TODO)).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('a server a pass starts itself', () => {
  it('is not asked again once it refused the protocol: one initialize, and the refusal as its line', async () => {
    const log = join(dir, 'started.log');
    const rung = parseRung('r.yaml', `name: r
description: d
servers:
  v2: { url: "http://127.0.0.1:{port}/mcp", start: { command: node, args: ${JSON.stringify([V2_SERVER, 'modern', 'http', '{port}'])}, env: { V2_FIXTURE_LOG: ${JSON.stringify(log)} } } }
steps:
  - prompt: add
    ceiling: 2
    checks: [{ answer: { mentions: ['5'] } }]
    reference: { calls: [], answer: '5' }
`);
    const started = performance.now();
    // With retries the servers would be asked until this timeout and end with its "did not answer".
    await using servers = await startServers(rung, dir, 20_000);
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(servers.refused).toBe(true);
    expect(servers.errors).toEqual([expect.stringMatching(/^server "v2" refused Ladder's protocol version \(\S*node \S*v2-server\.mjs modern http \d+\): it speaks 2026-07-28, /)]);
    expect(servers.errors[0]).toContain('(MCP error -32022: Unsupported protocol version: 2025-11-25, HTTP 400)');
    expect(fixtureLog(log).filter((line) => line.startsWith('POST '))).toEqual(['POST initialize']);
  });
});

describe('protocolRefusal', () => {
  it('reads the offered revisions from the error\'s data, and none when the server sends none', () => {
    expect(protocolRefusal(new McpError(-32022, 'Unsupported protocol version: 2025-11-25', { supported: ['2026-07-28', 7], requested: '2025-11-25' })))
      .toEqual({ kind: 'version', offered: ['2026-07-28'], said: 'MCP error -32022: Unsupported protocol version: 2025-11-25' });
    expect(protocolRefusal(new McpError(-32022, 'Unsupported protocol version'))?.offered).toEqual([]);
  });

  it('takes an invalid request, invalid params or a parse error in answer to initialize as a refused envelope', () => {
    for (const code of [ErrorCode.InvalidRequest, ErrorCode.InvalidParams, ErrorCode.ParseError]) {
      expect(protocolRefusal(new McpError(code, 'missing io.modelcontextprotocol/protocolVersion'))?.kind).toBe('envelope');
    }
  });

  it('reads the JSON-RPC error in the body of an HTTP error', () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 0, error: { code: -32022, message: 'Unsupported protocol version: 2025-11-25', data: { supported: ['2026-07-28'] } } });
    expect(protocolRefusal(new StreamableHTTPError(400, `Error POSTing to endpoint: ${body}`)))
      .toEqual({ kind: 'version', offered: ['2026-07-28'], said: 'MCP error -32022: Unsupported protocol version: 2025-11-25, HTTP 400' });
  });

  it('takes a version the server answered with that Ladder does not speak as a refusal', () => {
    expect(protocolRefusal(new Error("Server's protocol version is not supported: 2026-07-28")))
      .toEqual({ kind: 'answered', offered: ['2026-07-28'], said: 'it answered initialize with protocol version 2026-07-28' });
  });

  it('leaves everything else alone: a timeout, a closed connection, an internal error, an HTTP error without JSON-RPC in it', () => {
    expect(protocolRefusal(new McpError(ErrorCode.RequestTimeout, 'Request timed out'))).toBeUndefined();
    expect(protocolRefusal(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'))).toBeUndefined();
    expect(protocolRefusal(new McpError(ErrorCode.InternalError, 'boom'))).toBeUndefined();
    expect(protocolRefusal(new McpError(ErrorCode.MethodNotFound, 'Method not found'))).toBeUndefined();
    expect(protocolRefusal(new StreamableHTTPError(503, 'Error POSTing to endpoint: Service Unavailable'))).toBeUndefined();
    expect(protocolRefusal(new StreamableHTTPError(500, 'Error POSTing to endpoint: {"error":{"code":-32603,"message":"x"}}'))).toBeUndefined();
    expect(protocolRefusal(new TypeError('fetch failed'))).toBeUndefined();
  });
});

describe('refusalLine', () => {
  it('says the server did not name its revisions when it did not, and that it answers every connect so when it speaks one of Ladder\'s', () => {
    expect(refusalLine('s', 'cmd', { kind: 'version', offered: [], said: 'MCP error -32022: x' }))
      .toBe(`server "s" refused Ladder's protocol version (cmd): it did not say which revisions it speaks, Ladder speaks ${OURS} (MCP error -32022: x); ` +
        "the server answers every connect this way, so it was not tried again: serve a revision Ladder speaks as well (a server on the MCP SDK v2 serves both eras unless told legacy: 'reject')");
    expect(refusalLine('s', 'cmd', { kind: 'version', offered: ['2026-07-28', LADDER_PROTOCOL_VERSIONS[0]!], said: 'x' })).toContain('; the server answers every connect this way');
  });

  it('names a refused envelope as a malformed request', () => {
    expect(refusalLine('s', 'cmd', { kind: 'envelope', offered: [], said: 'MCP error -32602: missing _meta' }))
      .toMatch(/^server "s" refused Ladder's initialize request as malformed \(cmd\): MCP error -32602: missing _meta; it did not say which revisions it speaks, Ladder speaks /);
  });
});
