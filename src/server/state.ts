// What every session of one workbench shares: one workspace, one database, one log, one
// job board, one fault plan. HTTP serves each session with its own McpServer over this.
import type Database from 'better-sqlite3';
import type { WorkbenchConfig } from './options.ts';
import type { FaultPlan } from './faults.ts';
import type { WorkbenchTime } from './time.ts';
import type { LogStream } from './logs.ts';
import type { JobBoard } from './jobBoard.ts';
import type { Reveal } from './release.ts';
import type { ToolExtra } from './tool.ts';

export interface WorkbenchState {
  readonly config: WorkbenchConfig;
  /** The workspace's real path (symlinks resolved), the root of every file tool. */
  readonly root: string;
  readonly time: WorkbenchTime;
  readonly faults: FaultPlan;
  readonly db: Database.Database;
  readonly logs: LogStream;
  readonly jobs: JobBoard;
  readonly reveal: Reveal;
  /** Aborts when the workbench closes, releasing every timer it started. */
  readonly closing: AbortSignal;
  log(line: string): void;
}

/** What a transport lets the tools do to the connection carrying their reply. */
export interface SessionHooks {
  /** Cuts the response stream that would carry this request's reply; HTTP only. */
  dropReply?: (extra: ToolExtra) => Promise<void>;
}
