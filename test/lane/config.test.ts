import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LaneConfigError, describeServer, nodeCommand, nodePackage, parseServers, resolveNodeBin } from '../../src/lane/index.ts';

function problem(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(LaneConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a LaneConfigError');
}

describe('parseServers', () => {
  it('reads stdio and Streamable HTTP servers, inside an mcpServers wrapper or not', () => {
    const servers = {
      files: { command: 'node', args: ['server.js'], env: { TOKEN: 'x' }, cwd: '/srv' },
      remote: { type: 'http', url: 'https://mcp.example/mcp', headers: { Authorization: 'Bearer x' } },
    };
    const expected = { files: servers.files, remote: { url: 'https://mcp.example/mcp', headers: { Authorization: 'Bearer x' } } };
    expect(parseServers(servers)).toEqual(expected);
    expect(parseServers({ mcpServers: servers })).toEqual(expected);
  });

  it('names every bad or reserved server name in one line', () => {
    const message = problem(() => parseServers({ Files: { command: 'a' }, harness: { command: 'b' }, ok: { command: 'c' }, 'my_db': { command: 'd' } }));
    expect(message).toMatch(/"Files".*"harness" is reserved.*"my_db"/);
    expect(message).not.toContain('"ok"');
    expect(message.split('\n')).toHaveLength(1);
  });

  it('lists every shape problem with the path to it', () => {
    const message = problem(() => parseServers({
      a: { command: 'x', args: ['ok', 3] },
      b: { url: 'ftp://host/mcp' },
      c: { command: 'x', envs: {} },
      d: { type: 'sse', url: 'http://host/sse' },
      e: { name: 'neither' },
      f: 'node server.js',
    }));
    expect(message).toContain('mcpServers.a.args.1:');
    expect(message).toContain('mcpServers.b.url: expected an http(s) URL');
    expect(message).toMatch(/mcpServers\.c: Unrecognized key.*"envs"/);
    expect(message).toContain('mcpServers.d: the SSE transport is not supported');
    expect(message).toContain('mcpServers.e: expected {command, args, env, cwd} or {url, headers}');
    expect(message).toContain('mcpServers.f: expected {command, args, env, cwd} or {url, headers}');
  });

  it('refuses something that is not an object of servers', () => {
    expect(problem(() => parseServers([]))).toBe('mcpServers: expected an object of servers by name');
  });
});

describe('describeServer', () => {
  it('shows a command line, and a URL without credentials or query', () => {
    expect(describeServer({ command: 'node', args: ['s.js', '--port', '0'], env: { TOKEN: 'secret' } })).toBe('node s.js --port 0');
    expect(describeServer({ url: 'https://user:pw@mcp.example/mcp?token=secret' })).toBe('https://mcp.example/mcp');
  });
});

describe('Node servers', () => {
  const everything = '@modelcontextprotocol/server-everything';

  it('run an npx command as this Node and the installed bin script, keeping its arguments', () => {
    const config = nodeCommand({ command: 'npx', args: ['-y', `${everything}@2026.8.31`, 'stdio'], env: { A: '1' } });
    expect(config.command).toBe(process.execPath);
    expect(config.args![0]).toMatch(/node_modules\/@modelcontextprotocol\/server-everything\/dist\/index\.js$/);
    expect(config.args!.slice(1)).toEqual(['stdio']);
    expect(config.env).toEqual({ A: '1' });
    expect(nodePackage(everything, ['stdio'])).toEqual({ command: process.execPath, args: config.args });
  });

  it('run `node` as this Node and leave other commands alone', () => {
    expect(nodeCommand({ command: 'node', args: ['s.js'] })).toEqual({ command: process.execPath, args: ['s.js'] });
    expect(nodeCommand({ command: 'uvx', args: ['mcp-server-git'] })).toEqual({ command: 'uvx', args: ['mcp-server-git'] });
  });

  it('say which package is missing, rather than letting npx fetch it', () => {
    expect(problem(() => nodeCommand({ command: 'npx', args: ['-y', '@example/not-installed-server'] })))
      .toMatch(/^package @example\/not-installed-server is not installed under .*: add it to the project's dependencies$/);
    expect(problem(() => nodeCommand({ command: 'npx', args: ['-y'] }))).toMatch(/name the package right after npx/);
  });

  it('pick the bin named like the package, the one asked for, or refuse to guess', () => {
    expect(basename(resolveNodeBin('tsx'))).toBe('cli.mjs');
    expect(resolveNodeBin('typescript', { bin: 'tsc' })).toMatch(/typescript\/bin\/tsc$/);
    expect(problem(() => resolveNodeBin('typescript'))).toBe('package typescript has no single bin to run (bins: tsc, tsserver); name one');
  });
});
