import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { UPSTREAM_CLOSED_ERROR } from '../../src/server/faults.ts';
import { callText, tempDir } from './helpers.ts';

const ENTRY = path.resolve('test/server/fixtures/serve.ts');
const BIN = path.resolve('bin/ladder.js');

/** `ladder serve` in a child process, through the command module alone. */
function serveArgs(...args: string[]): string[] {
  return ['--import', 'tsx', ENTRY, 'serve', ...args];
}

async function stdioClient(args: string[]): Promise<{ client: Client; stderr: string[] }> {
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'pipe' });
  const stderr: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const client = new Client({ name: 'ladder-stdio-test', version: '0.0.0' });
  await client.connect(transport);
  return { client, stderr };
}

function run(args: string[], input = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe('ladder serve --transport stdio', () => {
  it('serves the tool families to a client in another process', async () => {
    await using ws = tempDir();
    const faults = JSON.stringify({ failFirst: { sql_describe: 1 } });
    // A 600 ms cap and a 900 ms job: it outlasts the first wait and ends inside the second.
    const config = JSON.stringify({ jobs: { slow: { durationMs: 45_000 } } });
    const { client } = await stdioClient(
      serveArgs('--workspace', ws.dir, '--time-factor', '0.02', '--dead-upstream', '--faults', faults, '--config', config),
    );
    try {
      expect((await client.listTools()).tools).toHaveLength(14);
      expect((await callText(client, 'files_write', { path: 'a/b.md', content: '# b' })).isError).toBe(false);
      expect(fs.readFileSync(path.join(ws.dir, 'a/b.md'), 'utf8')).toBe('# b');
      expect((await callText(client, 'files_read', { path: '/etc/hostname' })).text).toContain('is absolute');
      expect((await callText(client, 'catalog_lookup', { topic: 'config/logging' })).text).toContain('logging.level: "warn"');
      expect((await callText(client, 'sql_describe')).isError).toBe(true);
      expect(JSON.parse((await callText(client, 'sql_describe')).text).engine).toBe('SQLite');
      expect(await callText(client, 'browser_navigate', { url: 'http://site.local/' })).toEqual({
        text: UPSTREAM_CLOSED_ERROR,
        isError: true,
      });
      await callText(client, 'jobs_start', { kind: 'slow' });
      const first = JSON.parse((await callText(client, 'jobs_wait', { timeoutMs: 100_000 })).text);
      expect(first.done).toBe(false);
      expect(first.remainingMs).toBeGreaterThanOrEqual(1_000);
      const second = JSON.parse((await callText(client, 'jobs_wait', { timeoutMs: first.remainingMs })).text);
      expect(second.done).toBe(true);
      expect((await callText(client, 'logs_read', { contains: 'jobs:' })).text).toContain('job-1 (slow) finished');
    } finally {
      await client.close();
    }
  });

  it('writes nothing but protocol to stdout, logs to stderr, and exits when stdin closes', async () => {
    await using ws = tempDir();
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'files_list', arguments: {} } },
    ];
    const { code, stdout, stderr } = await run(serveArgs('--workspace', ws.dir), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    expect(code).toBe(0);
    const out = stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(out.map((message) => message.id)).toEqual([1, 2]);
    expect(out.every((message) => message.jsonrpc === '2.0')).toBe(true);
    expect(stderr).toContain('ladder serve: workbench on stdio');
  });

  it('starts through bin/ladder.js', async () => {
    await using ws = tempDir();
    const { client } = await stdioClient([BIN, 'serve', '--transport', 'stdio', '--workspace', ws.dir]);
    expect((await callText(client, 'catalog_lookup', { topic: 'jobs' })).isError).toBe(false);
    await client.close();
  });
});

describe('ladder serve --transport http', () => {
  it('prints its URL, serves a client, and stops on SIGTERM', async () => {
    await using ws = tempDir();
    const child = spawn(process.execPath, serveArgs('--workspace', ws.dir, '--transport', 'http', '--token', 't0k'), {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const url = await new Promise<string>((resolve) => child.stdout.once('data', (c: Buffer) => resolve(c.toString().trim())));
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: 'ladder-http-cli-test', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: 'Bearer t0k' } } }));
    expect((await callText(client, 'files_write', { path: 'h.txt', content: 'http' })).isError).toBe(false);
    await client.close();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(fs.readFileSync(path.join(ws.dir, 'h.txt'), 'utf8')).toBe('http');
  });
});
