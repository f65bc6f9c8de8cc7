// `ladder serve` without the argument parsing: build the workbench, serve it on the chosen
// transport, and close it on SIGINT/SIGTERM or when a stdio client goes away.
import type { Protocol } from '../mcp/protocols.ts';
import { checkBind } from './httpGuard.ts';
import type { WorkbenchOptions } from './options.ts';
import { createWorkbench } from './workbench.ts';

export interface ServeOptions {
  workbench: WorkbenchOptions;
  transport: 'stdio' | 'http';
  host?: string;
  port?: number;
  token?: string | undefined;
  allowRemote?: boolean;
  resumable?: boolean;
  /** The MCP eras served (`auto`: both; http.ts and stdio.ts say how each refuses the other). */
  protocol?: Protocol;
  /** Where the HTTP URL is announced (one line); stdout by default, as stdio is not in use. */
  announce?: (url: string) => void;
  log?: (line: string) => void;
}

/** Serves until stopped; resolves when the server has shut down. */
export async function runServe(options: ServeOptions): Promise<void> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (options.transport === 'http') checkBind(options.host ?? '127.0.0.1', options.allowRemote ?? false, options.token);
  const workbench = createWorkbench({ ...options.workbench, log });
  try {
    if (options.transport === 'stdio') {
      const { serveStdio } = await import('./stdio.ts');
      const { done } = await serveStdio(workbench, process.stdin, process.stdout, options.protocol);
      log(`ladder serve: workbench on stdio, workspace ${workbench.state.root}`);
      await Promise.race([done, stopSignal()]);
      return;
    }
    const { serveHttp } = await import('./http.ts');
    const serving = await serveHttp({
      workbench,
      host: options.host ?? '127.0.0.1',
      port: options.port ?? 0,
      token: options.token,
      allowRemote: options.allowRemote ?? false,
      resumable: options.resumable ?? true,
      protocol: options.protocol ?? 'auto',
      log,
    });
    (options.announce ?? ((url) => process.stdout.write(`${url}\n`)))(serving.url);
    log(`ladder serve: workbench on ${serving.url}, workspace ${workbench.state.root}`);
    await stopSignal();
    await serving.close();
  } finally {
    await workbench.close();
  }
}

function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
