// An exec agent: one process per step, started behind the group guard in the pass's workspace,
// the prompt in an argument ({prompt}) or on stdin, the answer read from stdout. From the second
// step on it gets the agent file's `continue.args` when there are any (the agent's own flag to
// resume the pass's session), else `args` again: a new conversation each step. At the step's
// time limit, or when its signal aborts, the whole process group is ended: a step never waits
// on an agent, and nothing the agent started outlives the step.
import type { ChildProcess } from 'node:child_process';
import { hasExited, spawnGroup, stopGroup } from '../lane/processGroup.ts';
import type { AgentAnswer } from './file.ts';
import { commandName, exitLine, loopGuardLine, stderrNotes, stderrTail, Tail } from './faults.ts';
import { placeholdersIn } from './placeholders.ts';
import type { AgentSession, AgentStepResult, PreparedAgent, StepOptions } from './session.ts';
import { timeLimitWords } from './startup.ts';

/** An answer is a message, not a log: past this, the start of stdout is dropped (the end holds last-line and JSON answers). */
const STDOUT_KEEP_BYTES = 4 * 1024 * 1024;

/** Reads the answer the agent file asks for from stdout; a string is the answer, `{ failure }` says why there is none. */
export function readAnswer(stdout: string, answer: AgentAnswer, name: string): string | { failure: string } {
  const lines = stdout.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  if (lines.length === 0) return { failure: `${name} printed nothing` };
  if (answer === 'stdout') return stdout.trim();
  if (answer === 'last-line') return lines.at(-1)!;
  let value: unknown;
  let found = false;
  for (let i = lines.length - 1; i >= 0 && !found; i--) {
    try {
      value = JSON.parse(lines[i]!);
      found = value !== null && typeof value === 'object';
    } catch {
      // Not JSON: a log line between the JSON ones.
    }
  }
  if (!found) return { failure: `${name} printed no JSON line (the agent file's answer is {json: '${answer.json}'})` };
  for (const key of answer.json.split('.')) {
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  }
  if (value === undefined || value === null) return { failure: `${name}'s last JSON line has nothing at ${answer.json} (the agent file's answer)` };
  return typeof value === 'string' ? value.trim() : JSON.stringify(value);
}

export function execSession(agent: PreparedAgent): AgentSession {
  const { file } = agent;
  // The file's schema makes both lists agree on where the prompt goes (file.ts).
  const promptInArgs = [...file.args, ...Object.values(file.env)].some((text) => placeholdersIn(text).includes('prompt'));
  const running = new Set<ChildProcess>();
  let closed = false;
  let steps = 0;

  async function runStep(prompt: string, options: StepOptions): Promise<AgentStepResult> {
    const name = commandName(agent.command);
    if (closed) return { answer: '', failure: `${name}: the pass has ended`, timedOut: false, notes: [] };
    const step = { prompt, index: steps };
    steps += 1;
    const args = step.index > 0 && file.continue !== undefined ? file.continue.args : file.args;
    const started = Date.now();
    const spawnedAt = performance.now();
    const child = spawnGroup(agent.command, args.map((arg) => agent.fill(arg, step)), {
      cwd: agent.values.workspace,
      env: agent.env(step),
      // An agent given its prompt in an argument gets an empty stdin, not one left open to hang on.
      stdio: [promptInArgs ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    running.add(child);
    options.onSpawn?.(spawnedAt);
    const stdout = new Tail(STDOUT_KEEP_BYTES);
    const stderr = new Tail();
    let startupMs: number | undefined;
    const first = (): void => {
      startupMs ??= Date.now() - started;
    };
    child.stdout!.on('data', (chunk: Buffer) => (first(), stdout.push(chunk)));
    child.stderr!.on('data', (chunk: Buffer) => (first(), stderr.push(chunk)));
    if (!promptInArgs) {
      // An agent that exits without reading stdin closes the pipe under us: not a failure of its own.
      child.stdin!.on('error', () => {});
      child.stdin!.end(prompt);
    }

    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
      child.once('error', (error) => resolve({ code: null, signal: null, error }));
      child.once('close', (code, signal) => resolve({ code, signal }));
    });
    let stopped: string | undefined;
    const stop = (why: string): void => {
      if (stopped !== undefined || hasExited(child)) return;
      stopped = why;
      void stopGroup(child);
    };
    const timeUp = (): void => stop(`${name} did not answer ${timeLimitWords(options.timeLimitMs, options.timeUp !== undefined)}; its process group was ended`);
    // With the runner's clock (timeUp), the limit is the runner's: it leaves the start-up out.
    const timer = options.timeUp === undefined ? setTimeout(timeUp, options.timeLimitMs) : undefined;
    const onAbort = (): void => (options.timeUp?.aborted === true ? timeUp() : stop(`${name} was stopped: the step was cancelled; its process group was ended`));
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });

    const end = await ended;
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    running.delete(child);

    const errText = stderr.text();
    const notes = stderrNotes(errText);
    const base = { notes, ...(startupMs !== undefined ? { startupMs } : {}) };
    if (stopped !== undefined) return { answer: '', failure: stopped, timedOut: true, ...base };
    if (end.error !== undefined) return { answer: '', failure: `${name} could not be started (${end.error.message})`, timedOut: false, ...base };
    // Its own loop guard, whatever its exit code: the agent decided to stop, it did not crash.
    const guard = loopGuardLine(file, errText, stdout.text());
    if (guard !== undefined) return { answer: '', stoppedItself: guard, timedOut: false, ...base };
    const failed = exitLine(file, agent.command, end.code, end.signal, errText);
    if (failed !== undefined) return { answer: '', failure: failed, timedOut: false, ...base };
    const answer = readAnswer(stdout.text(), file.answer, name);
    if (typeof answer !== 'string') {
      const tail = stderrTail(errText) !== '' ? `; its stderr ended: ${stderrTail(errText)}` : '';
      return { answer: '', failure: `${answer.failure} (exit code 0)${tail}`, timedOut: false, ...base };
    }
    return { answer, timedOut: false, ...base };
  }

  return {
    runStep,
    async close() {
      closed = true;
      await Promise.all([...running].map((child) => stopGroup(child)));
    },
  };
}
