// The contract between the runner and an external agent: start a pass, run a step, end the
// pass. Whichever kind runs the step (exec: a process per step; acp: one Agent Client Protocol
// session per pass), a step resolves with the agent's answer or its own failure in one line;
// it never rejects for something the agent did. Every process started here runs behind the
// group guard (spawnGroup), so nothing outlives its step or pass, even when Ladder is killed.
import { randomUUID } from 'node:crypto';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { onPath } from './locate.ts';
import type { AgentFile } from './file.ts';
import { agentEnv, fill, mcpConfigPath, mcpConfigText, passPlaceholders, type AgentPassValues, type PlaceholderValues } from './placeholders.ts';

export type { AgentPassValues } from './placeholders.ts';

export interface AgentStepResult {
  /** The answer, trimmed; empty when `failure` is set. */
  answer: string;
  /** the agent's own failure, one line (not installed + how to install, exit code + stderr tail, killed by signal, printed nothing); absent when it answered */
  failure?: string;
  /**
   * The agent's own loop guard ended its run (the agent file's `loopGuard` matched): its message,
   * one line. The agent stopped itself; `failure` is then absent.
   */
  stoppedItself?: string;
  /** The step's time limit passed, or its signal aborted, before the agent answered (`failure` says which). */
  timedOut: boolean;
  /**
   * ms from spawn to the first byte of output, or to the ACP initialize answer, when known: a
   * driver's own figure. The step's start-up as recorded and reported runs to the agent's first
   * model request (src/agents/startup.ts), which only the runner sees.
   */
  startupMs?: number;
  /** stderr lines and ACP notices worth showing (e.g. Codex's 'Model metadata for X not found'), at most a few */
  notes: string[];
}

export interface StepOptions {
  timeLimitMs: number;
  signal?: AbortSignal;
  /**
   * Aborted when the step's time limit passes, on the runner's clock (which leaves the agent's
   * start-up out, src/agents/startup.ts). Given, the driver keeps no timer of its own and ends
   * the agent when it aborts; `signal` aborts with it.
   */
  timeUp?: AbortSignal;
  /** Told when the agent's process was started for this step (performance.now()): once per exec step, in an acp agent's first step. */
  onSpawn?: (at: number) => void;
}

export interface AgentSession {
  runStep(prompt: string, options: StepOptions): Promise<AgentStepResult>;
  /** Ends whatever still runs (the ACP process; an exec step in flight). Safe to call twice. */
  close(): Promise<void>;
}

/** What exec.ts and acp.ts start from: the file, the pass's values, and the filled-in pieces. */
export interface PreparedAgent {
  file: AgentFile;
  values: AgentPassValues;
  /** The command with its placeholders filled ({prompt} is never allowed there). */
  command: string;
  /** Fills a text with the pass's values and, for an exec step, its prompt and index. */
  fill(text: string, step?: StepValues): string;
  /** The agent's whole environment: the pass's, and for an exec step its prompt and index (`LADDER_STEP`). */
  env(step?: StepValues): Record<string, string>;
}

/** What an exec step fills in: `{prompt}`, and `{step}`, the step's 0-based index in the pass (as the trace's `step`). */
export interface StepValues {
  prompt: string;
  index: number;
}

/**
 * Makes the pass's home, writes the `{mcpConfig}` file and the agent file's `files`, and for an
 * acp agent starts its process and the ACP handshake (which its first step waits for, inside
 * that step's time limit). Rejects only for Ladder's own faults (a file it cannot write).
 */
export async function startAgentSession(file: AgentFile, given: AgentPassValues): Promise<AgentSession> {
  const values = { ...given, sessionId: given.sessionId ?? randomUUID() };
  // {agentBin}: the folder of the command as located (the agent cache's node_modules/.bin, or
  // where PATH has it), where the commands of the file's withPackages are too.
  const command = fill(file.command, { ...passPlaceholders(values), agentDir: file.dir, agentBin: '' });
  const located = isAbsolute(command) ? command : onPath(command, process.env.PATH);
  const placeholders = { ...passPlaceholders(values), agentDir: file.dir, agentBin: located === undefined ? '.' : dirname(located) };
  const forStep = (step?: StepValues): PlaceholderValues => (step === undefined ? placeholders : { ...placeholders, prompt: step.prompt, step: String(step.index) });
  const prepared: PreparedAgent = {
    file,
    values,
    command,
    fill: (text, step) => fill(text, forStep(step)),
    env: (step) => agentEnv(values, file.env, forStep(step)),
  };
  await mkdir(values.home, { recursive: true });
  await mkdir(values.workspace, { recursive: true });
  // The token is in it: readable by this user only, like an agent's own credentials file.
  await writeFile(mcpConfigPath(values.home), mcpConfigText(values), { mode: 0o600 });
  for (const [path, content] of Object.entries(file.files)) {
    const target = resolve(values.workspace, fill(path, placeholders));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, fill(content, placeholders), { mode: 0o600 });
    await chmod(target, 0o600);
  }
  if (file.kind === 'exec') {
    const { execSession } = await import('./exec.ts');
    return execSession(prepared);
  }
  const { acpSession } = await import('./acp.ts');
  return acpSession(prepared);
}
