// The workbench over stdio: stdout carries protocol only, everything else goes to stderr.
// The server ends when its client closes stdin.
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '../mcp/server.ts';
import type { Workbench } from './workbench.ts';

export interface StdioServing {
  /** Resolves once stdin has ended and the workbench is closed. */
  done: Promise<void>;
}

export async function serveStdio(
  workbench: Workbench,
  stdin: Readable = process.stdin,
  stdout: Writable = process.stdout,
): Promise<StdioServing> {
  const transport = new StdioServerTransport(stdin, stdout);
  const done = new Promise<void>((resolve) => {
    const finish = () => void workbench.close().then(resolve, resolve);
    stdin.once('end', finish);
    stdin.once('close', finish);
  });
  await workbench.server.connect(transport);
  return { done };
}
