// The SDK v2 fixture servers answer as the SDK says a server in each posture does: the modern one
// serves a client pinned to 2026-07-28 and refuses a 2025 client with -32022 and its supported
// revisions; the dual one serves both. What the lane's own tests against them mean rests on this.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, describe, expect, it } from 'vitest';
import { Lane } from '../../src/lane/index.ts';
import { fixtureLog, startV2Http, v2Stdio } from '../helpers/v2Server.ts';
import type { V2Era } from '../helpers/v2Server.ts';

const dir = mkdtempSync(join(tmpdir(), 'ladder-v2-fixture-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Mode = 'legacy' | { pin: string };

/** Connects a v2 client in `mode`, calls add(2, 3); the text and the revision, or the error. */
async function addWith(mode: Mode, transport: Transport): Promise<{ text: string; version: string | undefined }> {
  const client = new Client({ name: 'fixture-test', version: '1.0.0' }, { versionNegotiation: { mode } });
  try {
    await client.connect(transport);
    const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    const first = (result.content as { type: string; text?: string }[])[0];
    return { text: first?.text ?? '', version: client.getNegotiatedProtocolVersion() };
  } finally {
    await client.close();
  }
}

const stdio = (era: V2Era, log?: string) => {
  const config = v2Stdio(era, log);
  return new StdioClientTransport({ command: config.command, args: config.args ?? [], ...(config.env === undefined ? {} : { env: config.env }) });
};

describe.each(['stdio', 'http'] as const)('the v2 fixtures over %s', (over) => {
  /** A transport to a fresh fixture of `era`, and its log; HTTP servers are closed after the test. */
  async function reach(era: V2Era, name: string): Promise<{ transport: () => Transport; log: string; close: () => Promise<void> }> {
    const log = join(dir, `${over}-${era}-${name}.log`);
    if (over === 'stdio') return { transport: () => stdio(era, log), log, close: async () => undefined };
    const server = await startV2Http(era, log);
    return { transport: () => new StreamableHTTPClientTransport(new URL(server.url)), log, close: server.close };
  }

  it('modern: serves a client pinned to 2026-07-28 and refuses a 2025 client, naming what it supports', async () => {
    const server = await reach('modern', 'both');
    try {
      expect(await addWith({ pin: '2026-07-28' }, server.transport())).toEqual({ text: 'sum 5', version: '2026-07-28' });
      const refused = await addWith('legacy', server.transport()).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(Error);
      const said = JSON.stringify({ message: (refused as Error).message, data: (refused as { data?: unknown }).data });
      expect(said).toContain('Unsupported protocol version: 2025-11-25');
      expect(said).toMatch(/\\?"supported\\?":\[\\?"2026-07-28\\?"\]/);
      if (over === 'http') expect(fixtureLog(server.log)).toContain('POST initialize');
    } finally {
      await server.close();
    }
  });

  it('dual: serves a 2025 client over 2025-11-25 and a pinned one over 2026-07-28', async () => {
    const server = await reach('dual', 'both');
    try {
      expect(await addWith('legacy', server.transport())).toEqual({ text: 'sum 5', version: '2025-11-25' });
      expect(await addWith({ pin: '2026-07-28' }, server.transport())).toEqual({ text: 'sum 5', version: '2026-07-28' });
    } finally {
      await server.close();
    }
  });
});

describe('the legacy v2 fixture over stdio', () => {
  it('serves a 2025 client, is unknown to a pinned one, and an auto lane falls back to the 2025 handshake', async () => {
    expect(await addWith('legacy', stdio('legacy'))).toEqual({ text: 'sum 5', version: '2025-11-25' });
    await expect(addWith({ pin: '2026-07-28' }, stdio('legacy'))).rejects.toThrow();
    const lane = await Lane.connect({ servers: { v2: { ...v2Stdio('legacy'), protocol: 'auto' } }, arm: 'on' });
    try {
      expect(lane.startErrors).toEqual([]);
      expect(lane.protocols()).toEqual({ v2: '2025-11-25' });
      await lane.openTurn();
      expect((await lane.call('v2__add', { a: 2, b: 3 }, { round: 1 })).text).toBe('sum 5');
    } finally {
      await lane.close();
    }
  });
});
