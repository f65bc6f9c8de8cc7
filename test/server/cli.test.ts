import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bindMistake, serveCommand, type ServeArgs } from '../../src/cli/serve.ts';
import { serveOptions, ServeUsageError } from '../../src/cli/serveOptions.ts';
import { tempDir } from './helpers.ts';

const base: ServeArgs = { workspace: 'ws', transport: 'stdio', host: '127.0.0.1', port: 0, allowRemote: false, resume: true, protocol: 'auto' };

describe('serve flags', () => {
  it('map to workbench options with the defaults a user expects', () => {
    const options = serveOptions(base, {});
    expect(options).toMatchObject({ transport: 'stdio', host: '127.0.0.1', port: 0, allowRemote: false, resumable: true, protocol: 'auto' });
    expect(options.token).toBeUndefined();
    expect(options.workbench.workspace).toBe('ws');
    expect(options.workbench.faults).toMatchObject({ deadUpstream: false, errorRate: {}, listing: { failFirst: 0, stallMs: 0 } });
  });

  it('take the token from LADDER_SERVE_TOKEN unless --token is given', () => {
    expect(serveOptions(base, { LADDER_SERVE_TOKEN: 'from-env' }).token).toBe('from-env');
    expect(serveOptions({ ...base, token: 'flag' }, { LADDER_SERVE_TOKEN: 'from-env' }).token).toBe('flag');
    expect(serveOptions(base, { LADDER_SERVE_TOKEN: '' }).token).toBeUndefined();
  });

  it('merge the fault shorthands over --faults', () => {
    const options = serveOptions(
      {
        ...base,
        faults: JSON.stringify({ errorRate: { files_read: 0.1 }, listing: { stallMs: 50 } }),
        errorRate: ['browser_navigate=0.5'],
        failFirst: ['sql_query=2'],
        latencyMs: ['*=100'],
        dropReply: ['files_write=1'],
        deadUpstream: true,
        listingFailFirst: 3,
        seed: 9,
        timeFactor: 0.01,
      },
      {},
    );
    expect(options.workbench.faults).toMatchObject({
      deadUpstream: true,
      errorRate: { files_read: 0.1, browser_navigate: 0.5 },
      failFirst: { sql_query: 2 },
      latencyMs: { '*': 100 },
      dropReply: { files_write: 1 },
      listing: { failFirst: 3, stallMs: 50 },
    });
    expect(options.workbench).toMatchObject({ seed: 9, timeFactor: 0.01 });
  });

  it('read --config, --faults and --setup-sql from files', async () => {
    await using dir = tempDir();
    const config = path.join(dir.dir, 'config.json');
    fs.writeFileSync(config, JSON.stringify({ seed: 4, jobs: { deploy: { durationMs: 10 } }, faults: { deadUpstream: true } }));
    const sql = path.join(dir.dir, 'setup.sql');
    fs.writeFileSync(sql, 'create table t (x);');
    const options = serveOptions({ ...base, config: `@${config}`, setupSql: sql }, {});
    expect(options.workbench).toMatchObject({ seed: 4, jobs: { deploy: { durationMs: 10 } }, setupSql: 'create table t (x);' });
    expect(options.workbench.faults).toMatchObject({ deadUpstream: true });
  });

  it('name the flag that is wrong', () => {
    expect(() => serveOptions({ ...base, errorRate: ['files_read'] }, {})).toThrow(
      new ServeUsageError('--error-rate files_read: expected tool=number, e.g. --error-rate browser_navigate=0.5'),
    );
    expect(() => serveOptions({ ...base, faults: '{nope' }, {})).toThrow(/^--faults: not valid JSON/);
    expect(() => serveOptions({ ...base, faults: '{"errorRate":{"files_read":3}}' }, {})).toThrow(/^--faults\.errorRate\.files_read: /);
    expect(() => serveOptions({ ...base, config: '[1]' }, {})).toThrow('--config must be a JSON object');
    expect(() => serveOptions({ ...base, setupSql: '/nonexistent/setup.sql' }, {})).toThrow(
      '--setup-sql /nonexistent/setup.sql: cannot read this file',
    );
    expect(() => serveOptions({ ...base, port: 70_000 }, {})).toThrow('--port 70000 is not a port number (0..65535)');
  });
});

describe('serve command', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    process.exitCode = undefined;
  });

  it('prints a mistake as one line and sets exit code 2', async () => {
    await using dir = tempDir();
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await serveCommand.handler({ ...base, workspace: dir.dir, transport: 'http', host: '0.0.0.0', _: [], $0: 'ladder' });
    expect(process.exitCode).toBe(2);
    const written = stderr.mock.calls.map((call) => String(call[0])).filter((line) => line.startsWith('ladder serve:'));
    expect(written).toEqual([
      'ladder serve: --host 0.0.0.0 is not a loopback address; add --allow-remote and a --token (or LADDER_SERVE_TOKEN) to serve beyond this machine\n',
    ]);
  });

  it('prints a port already in use as one line, with exit code 2', async () => {
    await using dir = tempDir();
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as net.AddressInfo).port;
    try {
      const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      await serveCommand.handler({ ...base, workspace: dir.dir, transport: 'http', port, _: [], $0: 'ladder' });
      expect(process.exitCode).toBe(2);
      expect(stderr.mock.calls.map((call) => String(call[0])).filter((line) => line.startsWith('ladder serve:'))).toEqual([
        `ladder serve: --port ${port}: 127.0.0.1:${port} is already in use; choose another --port, or --port 0 for a free one\n`,
      ]);
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });

  it('names the host it cannot bind, and leaves other errors alone', () => {
    const error = (code: string) => Object.assign(new Error(code), { code });
    expect(bindMistake(error('EADDRNOTAVAIL'), { host: '10.9.9.9', port: 80 })).toBe(
      '--host 10.9.9.9: no such address on this machine; use 127.0.0.1, or an address of this machine',
    );
    expect(bindMistake(error('EACCES'), { host: '127.0.0.1', port: 80 })).toMatch(/^--port 80: not allowed to listen on 127\.0\.0\.1:80 /);
    expect(bindMistake(new Error('bug'), { host: '127.0.0.1', port: 80 })).toBeUndefined();
  });

  it('prints a workspace that does not exist as one line, with exit code 2', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await serveCommand.handler({ ...base, workspace: '/nonexistent/ladder-ws', _: [], $0: 'ladder' });
    expect(process.exitCode).toBe(2);
    expect(stderr.mock.calls.map((call) => String(call[0]))).toEqual([
      'ladder serve: workspace /nonexistent/ladder-ws does not exist; create it or pass another folder\n',
    ]);
  });
});
