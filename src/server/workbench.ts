// The workbench: one workspace folder served as an MCP server. `createWorkbench` opens the
// shared state (database, log, jobs, faults) once; `server` is its first McpServer, and
// `newServer()` makes another over the same state for each further connection (HTTP serves
// one per session). Closing the workbench closes every server and the database.
import fs from 'node:fs';
import path from 'node:path';
import { McpServer } from '../mcp/server.ts';
import type { Transport } from '../mcp/types.ts';
import { FaultPlan } from './faults.ts';
import { registerGuide } from './guide.ts';
import { JobBoard } from './jobBoard.ts';
import { ListingFaultTransport } from './listingFaults.ts';
import { LogStream } from './logs.ts';
import { parseConfig, type WorkbenchOptions } from './options.ts';
import { Reveal } from './release.ts';
import { openDatabase } from './sql.ts';
import type { SessionHooks, WorkbenchState } from './state.ts';
import { realClock, realSleep, workbenchTime } from './time.ts';
import { registerTools, TOOL_NAMES } from './tools.ts';

export const SERVER_NAME = 'ladder-workbench';
export const SERVER_VERSION = '0.1.0';

export interface Workbench extends AsyncDisposable {
  /** The first server; connect it to one transport (stdio, an in-memory pair). */
  readonly server: McpServer;
  /** The shared state, for transports and tests that look at the workspace. */
  readonly state: WorkbenchState;
  /** Another server over the same workspace, for one more connection. */
  newServer(hooks?: SessionHooks): McpServer;
  close(): Promise<void>;
}

/** An McpServer whose transports get the listing faults of its workbench. */
class WorkbenchServer extends McpServer {
  readonly #state: WorkbenchState;

  constructor(state: WorkbenchState) {
    super(
      { name: SERVER_NAME, version: SERVER_VERSION },
      {
        capabilities: { logging: {}, tools: { listChanged: true } },
        instructions:
          'A workspace with files, a documentation catalog, a SQLite database, a growing log, background jobs ' +
          'and a browser. Paths are relative to the workspace.',
      },
    );
    this.#state = state;
  }

  override connect(transport: Transport): Promise<void> {
    const { faults, time, closing } = this.#state;
    return super.connect(new ListingFaultTransport(transport, faults, time, closing));
  }
}

export function createWorkbench(options: WorkbenchOptions): Workbench {
  const { clock = realClock, sleep = realSleep, log = (line) => process.stderr.write(`${line}\n`) } = options;
  const { clock: _c, sleep: _s, log: _l, ...plain } = options;
  const config = parseConfig(plain);
  const root = realWorkspace(config.workspace);
  const faults = new FaultPlan(config.faults, config.seed, TOOL_NAMES);
  const time = workbenchTime(clock, sleep, config.timeFactor);
  const closer = new AbortController();
  const logs = new LogStream(time, config.seed, config.logIntervalMs);
  let reveal: Reveal | undefined;
  const jobs = new JobBoard({
    kinds: config.jobs,
    time,
    seed: config.seed,
    onFinish: () => reveal?.check(),
    closing: closer.signal,
  });
  logs.addSource(() => jobs.logLines());
  const { afterJob, afterFile } = config.reveal;
  reveal = new Reveal(
    () =>
      (afterJob !== null && jobs.finished(afterJob)) ||
      (afterFile !== null && fs.existsSync(path.resolve(root, afterFile))),
  );
  const dbFile = path.resolve(root, config.dbFile);
  if (path.relative(root, dbFile).startsWith('..')) {
    throw new RangeError(`workbench options.dbFile: ${config.dbFile} is outside the workspace; give a relative path`);
  }
  const db = openDatabase(dbFile, config.setupSql);
  const state: WorkbenchState = { config, root, time, faults, db, logs, jobs, reveal, closing: closer.signal, log };

  const servers = new Set<McpServer>();
  const newServer = (hooks: SessionHooks = {}): McpServer => {
    const server = new WorkbenchServer(state);
    const unsubscribe = registerTools({ server, state, hooks });
    registerGuide(server);
    servers.add(server);
    server.server.onclose = () => {
      unsubscribe();
      servers.delete(server);
    };
    return server;
  };

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= (async () => {
      closer.abort();
      await Promise.allSettled([...servers].map((server) => server.close()));
      db.close();
    })();
    return closed;
  };
  return { server: newServer(), state, newServer, close, [Symbol.asyncDispose]: close };
}

function realWorkspace(dir: string): string {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dir);
  } catch {
    throw new RangeError(`workspace ${dir} does not exist; create it or pass another folder`);
  }
  if (!stat.isDirectory()) throw new RangeError(`workspace ${dir} is not a folder`);
  return fs.realpathSync(dir);
}
