import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UPSTREAM_CLOSED_ERROR } from '../../src/server/faults.ts';
import { checkBind } from '../../src/server/httpGuard.ts';
import { serveHttp } from '../../src/server/http.ts';
import { createWorkbench } from '../../src/server/workbench.ts';
import { callText, settle, tempDir } from './helpers.ts';
import { INITIALIZE, MCP_HEADERS, raw, served } from './httpHelpers.ts';

describe('the workbench over Streamable HTTP', () => {
  it('serves every tool family to a real client', async () => {
    await using server = await served({ setupSql: 'create table t (id integer primary key, name text)' });
    const { client } = await server.connect();
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual([
      'files_list', 'files_read', 'files_write', 'files_edit', 'catalog_search', 'catalog_lookup',
      'sql_describe', 'sql_query', 'sql_execute', 'logs_read', 'jobs_start', 'jobs_list', 'jobs_wait',
      'browser_navigate',
    ]);
    expect((await callText(client, 'files_write', { path: 'n.txt', content: 'hi' })).isError).toBe(false);
    expect(await callText(client, 'files_read', { path: 'n.txt' })).toEqual({ text: 'hi', isError: false });
    expect((await callText(client, 'files_read', { path: '../n.txt' })).isError).toBe(true);
    expect((await callText(client, 'catalog_lookup', { topic: 'config/cache' })).text).toContain('cache.ttlSeconds: 900');
    await callText(client, 'sql_execute', { sql: 'insert into t (name) values (:name)', params: { name: 'a' } });
    expect(JSON.parse((await callText(client, 'sql_query', { sql: 'select name from t' })).text).rows).toEqual([{ name: 'a' }]);
    expect((await callText(client, 'sql_query', { sql: 'select nope' })).text).toBe('SQLITE_ERROR: no such column: nope');
    expect((await callText(client, 'logs_read')).isError).toBe(false);
    expect((await callText(client, 'browser_navigate', { url: 'http://site.local/' })).text).toContain('404 Not Found');
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['ladder://workbench/guide']);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['workbench_overview']);
  });

  it('caps a jobs_wait and completes it on the second call', async () => {
    // A 600 ms cap and a 900 ms build: it outlasts the first wait and ends inside the second.
    await using server = await served({ timeFactor: 0.02 });
    const { client } = await server.connect();
    await callText(client, 'jobs_start', { kind: 'build' });
    const first = JSON.parse((await callText(client, 'jobs_wait', { timeoutMs: 120_000 })).text);
    expect(first.done).toBe(false);
    expect(first.remainingMs).toBeGreaterThanOrEqual(1_000);
    expect(first.remainingMs).toBeLessThanOrEqual(120_000 - first.waitedMs);
    const second = JSON.parse((await callText(client, 'jobs_wait', { timeoutMs: first.remainingMs })).text);
    expect(second.done).toBe(true);
  });

  it('answers a dead upstream with the same error on every call', async () => {
    await using server = await served({ faults: { deadUpstream: true } });
    const { client } = await server.connect();
    for (let i = 0; i < 2; i++) {
      expect(await callText(client, 'browser_navigate', { url: 'http://site.local/' })).toEqual({
        text: UPSTREAM_CLOSED_ERROR,
        isError: true,
      });
    }
  });

  it('announces the revealed tool to the client with tools/list_changed', async () => {
    await using server = await served();
    const { client, listChanged, nextListChanged } = await server.connect();
    // Waits for the notification itself, not for a few real milliseconds that a loaded machine may not give.
    const announced = nextListChanged();
    await callText(client, 'files_write', { path: 'release/READY', content: '' });
    await announced;
    expect(listChanged()).toBe(1);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('release_publish');
  });

  it('keeps each session apart while sharing the workspace', async () => {
    await using server = await served();
    const a = await server.connect();
    const b = await server.connect();
    await callText(a.client, 'files_write', { path: 'shared.txt', content: 'from a' });
    expect((await callText(b.client, 'files_read', { path: 'shared.txt' })).text).toBe('from a');
    expect(server.logs.filter((line) => line.includes('opened'))).toHaveLength(2);
  });
});

describe('faults over HTTP', () => {
  it('fail a listing with a JSON-RPC error the client sees, then list', async () => {
    await using server = await served({ faults: { listing: { failFirst: 1 } } });
    const { client } = await server.connect();
    await expect(client.listTools()).rejects.toThrow('tools/list failed: tool registry unavailable (503)');
    expect((await client.listTools()).tools).toHaveLength(14);
  });
});

describe('dropped replies', () => {
  it('cut the response mid-call; with the event store the client resumes and gets the reply', async () => {
    await using server = await served({ timeFactor: 0.01, faults: { dropReply: { files_write: 1 } } });
    const { client } = await server.connect();
    const reply = await callText(client, 'files_write', { path: 'kept.txt', content: 'done' });
    expect(reply).toEqual({ text: 'wrote 4 bytes to kept.txt', isError: false });
    expect(server.logs.some((line) => line.includes('cut the response'))).toBe(true);
  });

  it('lose the reply without the event store, although the work was done', async () => {
    await using server = await served({ faults: { dropReply: { files_write: 1 } } }, { resumable: false });
    const { client } = await server.connect();
    // Waits for the server to say it cut the reply (an event), not for a timeout a loaded
    // machine could reach before the request did; then gives up on the reply that never comes.
    const giveUp = new AbortController();
    const call = client.callTool({ name: 'files_write', arguments: { path: 'lost.txt', content: 'x' } }, undefined, { signal: giveUp.signal });
    call.catch(() => undefined);
    while (!server.logs.some((line) => line.includes('cut the response'))) await new Promise((r) => setTimeout(r, 10));
    expect(fs.readFileSync(path.join(server.dir, 'lost.txt'), 'utf8')).toBe('x');
    giveUp.abort();
    await expect(call).rejects.toThrow();
    expect((await callText(client, 'files_read', { path: 'lost.txt' })).text).toBe('x');
  });
});

describe('HTTP guard', () => {
  it('refuses a Host header that is not the bound address (DNS rebinding)', async () => {
    await using server = await served();
    const evil = await raw(server.url, { headers: { ...MCP_HEADERS, Host: 'evil.example.com' }, body: INITIALIZE });
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.body).error.message).toBe('Invalid Host header: evil.example.com');
    const wrongPort = await raw(server.url, { headers: { ...MCP_HEADERS, Host: `127.0.0.1:${server.port + 1}` }, body: INITIALIZE });
    expect(wrongPort.status).toBe(403);
    for (const host of [`localhost:${server.port}`, `127.0.0.1:${server.port}`]) {
      expect((await raw(server.url, { headers: { ...MCP_HEADERS, Host: host }, body: INITIALIZE })).status).toBe(200);
    }
  });

  it('refuses a foreign Origin', async () => {
    await using server = await served();
    const reply = await raw(server.url, { headers: { ...MCP_HEADERS, Origin: 'http://evil.example.com' }, body: INITIALIZE });
    expect(reply.status).toBe(403);
    const local = await raw(server.url, { headers: { ...MCP_HEADERS, Origin: `http://localhost:${server.port}` }, body: INITIALIZE });
    expect(local.status).toBe(200);
  });

  it('requires the bearer token when one is set', async () => {
    await using server = await served({}, { token: 's3cret' });
    const missing = await raw(server.url, { headers: MCP_HEADERS, body: INITIALIZE });
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="ladder"');
    expect(JSON.parse(missing.body).error.message).toBe('Missing bearer token');
    const wrong = await raw(server.url, { headers: { ...MCP_HEADERS, Authorization: 'Bearer nope' }, body: INITIALIZE });
    expect(wrong.status).toBe(401);
    await expect(server.connect()).rejects.toThrow();
    const { client } = await server.connect({ Authorization: 'Bearer s3cret' });
    expect((await callText(client, 'catalog_lookup', { topic: 'logs' })).isError).toBe(false);
  });

  it('answers requests outside the protocol with their HTTP errors', async () => {
    await using server = await served();
    const call = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect((await raw(server.url, { headers: MCP_HEADERS, body: call })).status).toBe(400);
    expect((await raw(server.url, { headers: { ...MCP_HEADERS, 'mcp-session-id': 'nope' }, body: call })).status).toBe(404);
    const badJson = await raw(server.url, { headers: MCP_HEADERS, body: '{' });
    expect(badJson.status).toBe(400);
    expect(JSON.parse(badJson.body).error.code).toBe(-32700);
    expect((await raw(server.url.replace('/mcp', '/other'), { headers: MCP_HEADERS, body: INITIALIZE })).status).toBe(404);
    expect((await raw(server.url, { method: 'PUT', headers: MCP_HEADERS, body: INITIALIZE })).status).toBe(405);
    expect((await raw(server.url, { method: 'GET', headers: { Accept: 'text/event-stream' } })).status).toBe(400);
  });
});

describe('binding', () => {
  it('refuses a non-loopback address without --allow-remote, and without a token', () => {
    expect(() => checkBind('0.0.0.0', false, 'x')).toThrow(/^--host 0\.0\.0\.0 is not a loopback address; add --allow-remote/);
    expect(() => checkBind('0.0.0.0', true, undefined)).toThrow(/needs a --token/);
    expect(() => checkBind('0.0.0.0', true, 'x')).not.toThrow();
    expect(() => checkBind('127.0.0.1', false, undefined)).not.toThrow();
    expect(() => checkBind('localhost', false, undefined)).not.toThrow();
  });

  it('does not start a server on a refused bind', async () => {
    await using dir = tempDir();
    const workbench = createWorkbench({ workspace: dir.dir, log: () => {} });
    await expect(serveHttp({ workbench, host: '0.0.0.0' })).rejects.toThrow(RangeError);
    await workbench.close();
    await settle();
  });
});
