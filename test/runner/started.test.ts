// Servers a pass starts itself: ready when they answer `initialize`, a port taken before the
// server binds it tried again with a new one, and nothing left running once disposed. Each test
// starts a real server (test/fixtures/started-server.mjs) and holds real ports of its own to
// make a collision happen on purpose rather than wait for one.
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRung } from '../../src/rungs/load.ts';
import { answersInitialize, freePort, PORT_TRIES, startServers } from '../../src/runner/started.ts';
import { startStatelessMcp } from '../helpers/statelessMcp.ts';
import { removeTempDirs, tempDir } from './helpers.ts';

const FIXTURE = fileURLToPath(new URL('../fixtures/started-server.mjs', import.meta.url));
afterAll(removeTempDirs);

/** A rung whose one server `s` runs the given start block. */
function startedRung(start: string): ReturnType<typeof parseRung> {
  return parseRung('r.yaml', `name: r
description: d
servers:
  s: { url: "http://127.0.0.1:{port}/mcp", start: ${start} }
steps:
  - prompt: say it
    ceiling: 2
    checks: [{ answer: { mentions: [alpha] } }]
    reference: { calls: [], answer: alpha }
`);
}

/** A rung whose one server `s` is the fixture, started with `flags` after its port. */
function rungOf(flags: readonly string[], tag = ''): ReturnType<typeof parseRung> {
  const args = [FIXTURE, '{port}', ...flags, ...(tag === '' ? [] : ['--tag', tag])];
  return startedRung(`{ command: node, args: ${JSON.stringify(args)} }`);
}

/** A TCP listener the test owns, on a port the OS picked. */
async function holdPort(): Promise<Server & { port: number }> {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(server, { port: (server.address() as AddressInfo).port });
}

/** Hands out `first` for the first `times` tries, then free ports; counts the tries. */
function chooser(first: number, times = 1): { choosePort: () => Promise<number>; tries: number[] } {
  const tries: number[] = [];
  return {
    tries,
    choosePort: async () => {
      const port = tries.length < times ? first : await freePort();
      tries.push(port);
      return port;
    },
  };
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** Lines of `ps` that mention `text`, besides ps itself. */
function processesMentioning(text: string): string[] {
  return execFileSync('ps', ['-eo', 'pid,ppid,args'], { encoding: 'utf8' }).split('\n').filter((line) => line.includes(text) && !/\bps -eo\b/.test(line));
}

describe('a server the pass starts', () => {
  it('is ready when it answers initialize, not when its port first accepts a connection', async () => {
    // Its port resets the first three connections: a pass taking the first accept for ready
    // would connect into the second reset.
    const workspace = await tempDir('ladder-started-');
    await using started = await startServers(rungOf(['--reset-first', '3']), workspace, 20_000);
    expect(started.errors).toEqual([]);
    expect(await answersInitialize(`http://127.0.0.1:${started.ports.get('s')}/mcp`, {}, 5_000)).toBeUndefined();
  });

  it('says in one line why a server that listens but never answers did not start: its name, command, the wait and its stderr', async () => {
    const workspace = await tempDir('ladder-started-');
    await using started = await startServers(rungOf(['--mute']), workspace, 5_000);
    expect(started.ports.has('s')).toBe(false);
    expect(started.errors).toEqual([expect.stringMatching(
      /^server "s" did not start \(\S*node \S*started-server\.mjs \d+ --mute\): did not answer initialize on port \d+ within 5 s \(.+\); stderr ends: listening, never answering$/,
    )]);
  });

  it('stops it, with everything it started, when disposed', async () => {
    const workspace = await tempDir('ladder-started-');
    const tag = `stop-${process.hrtime.bigint()}`;
    {
      await using started = await startServers(rungOf([], tag), workspace, 20_000);
      expect(started.errors).toEqual([]);
      // The guard and the server itself, both named by the tag in their arguments.
      expect(processesMentioning(tag)).toHaveLength(2);
    }
    expect(processesMentioning(tag)).toEqual([]);
  });
});

describe('a port taken between its choice and the server\'s bind', () => {
  it('is tried again with a new port when another process holds the chosen one', async () => {
    const held = await holdPort();
    try {
      const ports = chooser(held.port);
      const workspace = await tempDir('ladder-started-');
      const tag = `held-${process.hrtime.bigint()}`;
      {
        await using started = await startServers(rungOf(['--on-taken', 'exit'], tag), workspace, 20_000, ports);
        expect(started.errors).toEqual([]);
        expect(ports.tries).toHaveLength(2);
        expect(ports.tries[0]).toBe(held.port);
        expect(started.ports.get('s')).toBe(ports.tries[1]);
        expect(await answersInitialize(`http://127.0.0.1:${ports.tries[1]}/mcp`, {}, 5_000)).toBeUndefined();
      }
      // The first server, stopped the moment its port was seen taken, is gone with the second.
      expect(processesMentioning(tag)).toEqual([]);
    } finally {
      await close(held);
    }
  });

  it('is tried again with a new port when the server exits saying its port is in use', async () => {
    // The first start says EADDRINUSE and exits, as a server that lost the race for its port
    // does after Ladder last saw the port free; the second serves.
    const workspace = await tempDir('ladder-started-');
    const ports = chooser(await freePort());
    await using started = await startServers(rungOf(['--say-taken', join(workspace, 'said')]), workspace, 20_000, ports);
    expect(started.errors).toEqual([]);
    expect(ports.tries).toHaveLength(2);
    expect(started.ports.get('s')).toBe(ports.tries[1]);
  });

  it('does not take a server that exits for another reason for a collision', async () => {
    const workspace = await tempDir('ladder-started-');
    const ports = chooser(await freePort());
    const exits = startedRung(`{ command: node, args: ["-e", "console.error('no config here'); process.exit(3)"] }`);
    await using started = await startServers(exits, workspace, 20_000, ports);
    expect(ports.tries).toHaveLength(1);
    expect(started.errors).toEqual([expect.stringMatching(/: exited \(code 3\); stderr ends: no config here$/)]);
  });

  it.runIf(process.platform === 'linux')('is tried again when the server moved to another port and the URL reaches someone else\'s MCP server', async () => {
    // The port answers initialize, but not from the pass's server, which serves elsewhere.
    let requests = 0;
    const other = await startStatelessMcp('someone-else', () => undefined, () => void (requests += 1));
    try {
      const otherPort = Number(new URL(other.url).port);
      const ports = chooser(otherPort);
      const workspace = await tempDir('ladder-started-');
      const tag = `hop-${process.hrtime.bigint()}`;
      {
        await using started = await startServers(rungOf(['--on-taken', 'hop'], tag), workspace, 20_000, ports);
        expect(started.errors).toEqual([]);
        expect(ports.tries).toHaveLength(2);
        expect(started.ports.get('s')).toBe(ports.tries[1]);
        expect(started.ports.get('s')).not.toBe(otherPort);
        // Told apart by who holds the port, so the other server was never even asked.
        expect(requests).toBe(0);
      }
      // The first server served on a port of its own choosing and must not live on there.
      expect(processesMentioning(tag)).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it(`makes the pass a harness error, in one line naming every port tried, after ${PORT_TRIES} tries`, async () => {
    const workspace = await tempDir('ladder-started-');
    const ports = chooser(0, 0);
    await using started = await startServers(rungOf(['--say-taken', 'always']), workspace, 20_000, ports);
    expect(ports.tries).toHaveLength(PORT_TRIES);
    const [first, last] = [ports.tries[0], ports.tries.at(-1)];
    expect(started.errors).toEqual([
      `server "s" did not start (${process.execPath} ${FIXTURE} ${last} --say-taken always): port ${last} was taken before it bound it (exited (code 1)); `
      + `${PORT_TRIES} ports tried (${ports.tries.join(', ')}); stderr ends: Error: listen EADDRINUSE: address already in use 127.0.0.1:${last}`,
    ]);
    expect(first).not.toBe(last);
  });
});
