// The workbench over stdio: stdout carries protocol only, everything else goes to stderr.
// The server ends when its client closes stdin. By default it serves both eras, as the SDK's
// stdio entry does for one connection: a client that opens with `initialize` gets the 2025
// revisions, one that opens with `server/discover` (or a request with the 2026-07-28 `_meta`
// envelope) that revision. `legacy` connects one server to the transport, which is 2025 only: it
// answers `server/discover` "Method not found", as a server on the SDK's v1 line does.
// `2026-07-28` refuses `initialize` with the revisions it serves.
import type { Readable, Writable } from 'node:stream';
import type { Protocol } from '../mcp/protocols.ts';
import { serveStdio as serveEras, StdioServerTransport } from '../mcp/server.ts';
import type { Workbench } from './workbench.ts';

export interface StdioServing {
  /** Resolves once stdin has ended and the workbench is closed. */
  done: Promise<void>;
}

export async function serveStdio(
  workbench: Workbench,
  stdin: Readable = process.stdin,
  stdout: Writable = process.stdout,
  protocol: Protocol = 'auto',
): Promise<StdioServing> {
  const transport = new StdioServerTransport(stdin, stdout);
  const done = new Promise<void>((resolve) => {
    const finish = () => void workbench.close().then(resolve, resolve);
    stdin.once('end', finish);
    stdin.once('close', finish);
  });
  if (protocol === 'legacy') await workbench.server.connect(transport);
  else {
    // The SDK may build a server for a probe it then discards (a client that falls back to
    // initialize): each is another over the same workspace, all closed with the workbench.
    let first = true;
    const server = () => {
      if (!first) return workbench.newServer();
      first = false;
      return workbench.server;
    };
    serveEras(server, { legacy: protocol === 'auto' ? 'serve' : 'reject', transport });
  }
  return { done };
}
