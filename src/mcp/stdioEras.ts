// A stdio server in the era its client opens with. The 2026-07-28 revision (basic/versioning,
// "Backward Compatibility") lets a dual-era server select its behaviour from how the client
// opens, scoped to the stdio process: a 2025 client's first message is `initialize`, a 2026-07-28
// client's is `server/discover` or a request carrying the per-request `_meta` envelope. So the
// first line on stdin is read here and decides: `initialize` goes to the 2025 server (connected
// to the SDK's stdio transport, session semantics), anything else to the 2026-07-28 one (the
// SDK's `serveStdio`, which answers a stray 2025 message with the revisions it supports). Both
// are the SDK's v2 servers; two factories because the two eras' servers are not the same (the
// gateway's 2025 one passes resources and prompts through). The line read is handed on first,
// so the chosen server reads stdin exactly as the client wrote it.
import { PassThrough } from 'node:stream';
import type { Readable, Writable } from 'node:stream';
import type { Server } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';

export type StdioEra = 'legacy' | 'modern';

export interface StdioEraServers {
  /** The 2025 server, for a client whose first message is `initialize`. */
  legacy: () => Server;
  /** The 2026-07-28 server, for any other opening. */
  modern: () => Server;
}

export interface StdioEraServing {
  /** Closes whichever server was chosen (nothing to close before the first line). */
  close(): Promise<void>;
}

/** The era a first line opens: `initialize` is 2025, anything else (parsed or not) is left to the 2026-07-28 server. */
export function eraOf(line: string): StdioEra {
  try {
    const message = JSON.parse(line) as { method?: unknown };
    return message.method === 'initialize' ? 'legacy' : 'modern';
  } catch {
    return 'modern';
  }
}

interface FirstRead {
  /** Everything read, up to the end of the chunk that held the first newline. */
  read: Buffer;
  /** stdin ended before a newline came. */
  ended: boolean;
}

/** Reads stdin up to its first newline, or to its end (undefined when it ended empty). */
function firstLine(stdin: Readable): Promise<FirstRead | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const done = (value: FirstRead | undefined) => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.pause();
      resolve(value);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      if (chunk.includes(0x0a)) done({ read: Buffer.concat(chunks), ended: false });
    };
    const onEnd = () => done(chunks.length === 0 ? undefined : { read: Buffer.concat(chunks), ended: true });
    stdin.on('data', onData);
    stdin.once('end', onEnd);
  });
}

export function serveStdioEitherEra(servers: StdioEraServers, stdin: Readable = process.stdin, stdout: Writable = process.stdout): StdioEraServing {
  let close: () => Promise<void> = async () => undefined;
  void firstLine(stdin).then(async (first): Promise<void> => {
    if (first === undefined) return;
    const { read, ended } = first;
    // What was read, then the rest of stdin as it comes; its end is the replay's end.
    const replay = new PassThrough();
    if (ended) replay.end(read);
    else {
      replay.write(read);
      stdin.pipe(replay);
    }
    const chosen = eraOf(read.toString('utf8').split('\n', 1)[0]!);
    if (chosen === 'legacy') {
      const server = servers.legacy();
      close = () => server.close();
      await server.connect(new StdioServerTransport(replay, stdout));
    } else {
      const handle = serveStdio(servers.modern, { legacy: 'reject', transport: new StdioServerTransport(replay, stdout) });
      close = () => handle.close();
    }
  }).catch((error: unknown) => {
    // stdout is the protocol's: a server that could not be connected says so on stderr.
    process.stderr.write(`stdio: could not serve the client: ${error instanceof Error ? error.message : String(error)}\n`);
  });
  return { close: async () => close() };
}
