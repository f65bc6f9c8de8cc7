// The workbench in both MCP eras (src/server/http.ts, src/server/stdio.ts): the SDK's v2 client
// pinned to 2026-07-28 and one on the 2025 revisions, against one HTTP endpoint at once and
// against `ladder serve` over stdio; a listing fault and a revealed tool in the 2026-07-28 era;
// and what a client of the other era is told under `--protocol`.
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { LISTING_FAILED_MESSAGE } from '../../src/server/listingFaults.ts';
import { tempDir } from './helpers.ts';
import { served } from './httpHelpers.ts';

const LADDER = fileURLToPath(new URL('../../bin/ladder.js', import.meta.url));
type Mode = 'legacy' | 'auto' | { pin: string };
const MODERN: Mode = { pin: '2026-07-28' };

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.allSettled(open.splice(0).reverse().map((o) => o.close()));
});

function client(mode: Mode, onToolsChanged?: () => void): Client {
  const c = new Client({ name: 'eras-test', version: '1.0.0' }, {
    versionNegotiation: { mode },
    ...(onToolsChanged === undefined ? {} : { listChanged: { tools: { autoRefresh: false, onChanged: onToolsChanged } } }),
  });
  open.push(c);
  return c;
}

const textOf = (result: unknown): string => ((result as { content: { text?: string }[] }).content[0]?.text ?? '');

describe('the workbench over HTTP in both eras', () => {
  it('serves a client pinned to 2026-07-28 and a 2025 one on one endpoint, over the same workspace', async () => {
    await using wb = await served();
    const modern = client(MODERN);
    await modern.connect(new StreamableHTTPClientTransport(new URL(wb.url)));
    const legacy = client('legacy');
    await legacy.connect(new StreamableHTTPClientTransport(new URL(wb.url)));
    expect([modern.getNegotiatedProtocolVersion(), legacy.getNegotiatedProtocolVersion()]).toEqual(['2026-07-28', '2025-11-25']);
    expect((await modern.listTools()).tools.map((t) => t.name)).toContain('files_write');
    await modern.callTool({ name: 'files_write', arguments: { path: 'a.txt', content: 'from 2026' } });
    // One workspace: the 2025 client reads what the 2026-07-28 one wrote.
    expect(textOf(await legacy.callTool({ name: 'files_read', arguments: { path: 'a.txt' } }))).toContain('from 2026');
  });

  it('fails a 2026-07-28 listing as the fault plan says, and lists again after it', async () => {
    await using wb = await served({ faults: { listing: { failFirst: 1 } } });
    const modern = client(MODERN);
    await modern.connect(new StreamableHTTPClientTransport(new URL(wb.url)));
    await expect(modern.listTools()).rejects.toThrow(LISTING_FAILED_MESSAGE);
    expect((await modern.listTools()).tools.map((t) => t.name)).toContain('files_read');
  });

  it("tells a 2026-07-28 client's listen stream when a tool is revealed", async () => {
    await using wb = await served({ reveal: { afterJob: null, afterFile: 'release/READY', announce: true } });
    let told!: () => void;
    const changed = new Promise<void>((resolve) => (told = resolve));
    const modern = client(MODERN, () => told());
    await modern.connect(new StreamableHTTPClientTransport(new URL(wb.url)));
    expect((await modern.listTools()).tools.map((t) => t.name)).not.toContain('release_publish');
    mkdirSync(join(wb.dir, 'release'), { recursive: true });
    writeFileSync(join(wb.dir, 'release', 'READY'), '');
    // The trigger is checked after each call.
    await modern.callTool({ name: 'files_list', arguments: {} });
    await changed;
    expect((await modern.listTools()).tools.map((t) => t.name)).toContain('release_publish');
  });

  it('serves one era under protocol, and tells a client of the other what it can use', async () => {
    await using old = await served({}, { protocol: 'legacy' });
    await expect(client(MODERN).connect(new StreamableHTTPClientTransport(new URL(old.url)))).rejects.toThrow();
    const legacy = client('legacy');
    await legacy.connect(new StreamableHTTPClientTransport(new URL(old.url)));
    expect(legacy.getNegotiatedProtocolVersion()).toBe('2025-11-25');

    await using only = await served({}, { protocol: '2026-07-28' });
    await expect(client('legacy').connect(new StreamableHTTPClientTransport(new URL(only.url)))).rejects.toThrow(/Unsupported protocol version: 2025-11-25/);
    const modern = client(MODERN);
    await modern.connect(new StreamableHTTPClientTransport(new URL(only.url)));
    expect(modern.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    // A client in auto mode falls back to 2025 against the legacy-only server, and stays in 2026-07-28 against the other.
    const fallsBack = client('auto');
    await fallsBack.connect(new StreamableHTTPClientTransport(new URL(old.url)));
    const stays = client('auto');
    await stays.connect(new StreamableHTTPClientTransport(new URL(only.url)));
    expect([fallsBack.getNegotiatedProtocolVersion(), stays.getNegotiatedProtocolVersion()]).toEqual(['2025-11-25', '2026-07-28']);
  });
});

describe('ladder serve over stdio in both eras', () => {
  const serve = (dir: string, mode: Mode, ...flags: string[]): Promise<Client> => {
    const c = client(mode);
    return c.connect(new StdioClientTransport({ command: process.execPath, args: [LADDER, 'serve', '--workspace', dir, ...flags], stderr: 'ignore' })).then(() => c);
  };

  it('serves a client pinned to 2026-07-28 and a 2025 one, each from its own process', async () => {
    await using temp = tempDir();
    const modern = await serve(temp.dir, MODERN);
    const legacy = await serve(temp.dir, 'legacy');
    expect([modern.getNegotiatedProtocolVersion(), legacy.getNegotiatedProtocolVersion()]).toEqual(['2026-07-28', '2025-11-25']);
    for (const c of [modern, legacy]) expect((await c.listTools()).tools.map((t) => t.name)).toContain('catalog_lookup');
    expect(textOf(await modern.callTool({ name: 'catalog_lookup', arguments: { topic: 'config/cache' } }))).toContain('cache.ttlSeconds: 900');
  });

  it('refuses the other era under --protocol, each with the answer a server of one era gives', async () => {
    await using temp = tempDir();
    // 2025 only: server/discover is a method it does not have.
    await expect(serve(temp.dir, MODERN, '--protocol', 'legacy')).rejects.toThrow(/Method not found|did not offer/);
    // 2026-07-28 only: initialize is refused with the revisions it serves.
    await expect(serve(temp.dir, 'legacy', '--protocol', '2026-07-28')).rejects.toThrow(/Unsupported protocol version: 2025-11-25/);
    expect((await serve(temp.dir, MODERN, '--protocol', '2026-07-28')).getNegotiatedProtocolVersion()).toBe('2026-07-28');
  });
});
