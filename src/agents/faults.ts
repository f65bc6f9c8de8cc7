// An agent's own failures in one line each, the way the trace and the terminal show them: not
// installed (and how to install it), exit code with the end of its stderr, killed by a signal.
// The guard (src/lane/groupGuard.js) in front of every agent process reports a command it could
// not start as exit 127 (not found) or 126, with one `groupGuard: ...` line on stderr.
import { basename } from 'node:path';
import { constants } from 'node:os';
import type { AgentFile } from './file.ts';

/** What is kept of an agent's stderr: enough for its last lines, not a runaway log. */
const STDERR_KEEP_BYTES = 64 * 1024;
/** A failure line quotes this much of the stderr's end. */
const TAIL_CHARS = 300;
/** Notes are for a glance: a few lines, each short. */
const MAX_NOTES = 3;
const NOTE_CHARS = 200;
/** Lines worth a note: what agents print when something is off (Codex: "Model metadata for X not found"). */
const NOTE_WORTHY = /\b(warn(ing)?|error|not found|deprecated|failed|unsupported)\b/i;
const GUARD_LINE = /^groupGuard: /;

/** The tail of a stream: whole when small, its last bytes when not. */
export class Tail {
  #chunks: Buffer[] = [];
  #bytes = 0;
  constructor(readonly keep: number = STDERR_KEEP_BYTES) {}

  push(chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
    while (this.#bytes - this.#chunks[0]!.length >= this.keep) this.#bytes -= this.#chunks.shift()!.length;
  }

  text(): string {
    return Buffer.concat(this.#chunks).toString('utf8');
  }
}

function lines(text: string): string[] {
  return text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
}

/** The agent's name in failure lines: its command as a user would type it. */
export function commandName(command: string): string {
  return basename(command);
}

/** The last lines of stderr as one line, the guard's own line left out. */
export function stderrTail(stderr: string): string {
  const own = lines(stderr).filter((l) => !GUARD_LINE.test(l));
  const tail = own.slice(-2).join(' / ');
  return tail.length > TAIL_CHARS ? `…${tail.slice(-TAIL_CHARS)}` : tail;
}

/** stderr lines that read as warnings or errors, at most a few, each once. */
export function stderrNotes(stderr: string): string[] {
  const notes: string[] = [];
  for (const line of lines(stderr)) {
    if (GUARD_LINE.test(line) || !NOTE_WORTHY.test(line)) continue;
    const note = line.length > NOTE_CHARS ? `${line.slice(0, NOTE_CHARS)}…` : line;
    if (!notes.includes(note)) notes.push(note);
    if (notes.length === MAX_NOTES) break;
  }
  return notes;
}

/** What `ladder agents install` takes for this file: a shipped recipe's name, else the file's path. */
export function installName(file: Pick<AgentFile, 'name' | 'file'>): string {
  return file.file === `agents/${file.name}.yaml` ? file.name : file.file;
}

export function notInstalledLine(file: AgentFile, command: string): string {
  // A pinned package is looked for in the agent cache before PATH (src/agents/locate.ts).
  const install = file.install ?? (file.package === undefined ? undefined : `npx ladder agents install ${installName(file)}`);
  const how = install !== undefined ? `install it with: ${install}` : "install it, or give its full path as the agent file's command";
  const where = file.package === undefined ? 'not found on PATH' : 'not in the agent cache and not found on PATH';
  return `${commandName(command)} is not installed (${where}); ${how}`;
}

const SIGNALS = Object.fromEntries(Object.entries(constants.signals).map(([name, n]) => [n, name])) as Record<number, string>;

/**
 * Why an agent process ended, when that is a failure; undefined for exit code 0. `code` and
 * `signal` are the guard's: it exits with the command's code, or 128 + the signal that ended it.
 */
export function exitLine(file: AgentFile, command: string, code: number | null, signal: NodeJS.Signals | null, stderr: string): string | undefined {
  const name = commandName(command);
  const tail = stderrTail(stderr);
  const said = tail !== '' ? `; its stderr ended: ${tail}` : '';
  if (signal !== null) return `${name} was killed by ${signal}${said}`;
  if (code === 0 || code === null) return undefined;
  if (code === 127 && /cannot start .*: ENOENT$/m.test(stderr)) return notInstalledLine(file, command);
  if (code === 126) {
    const why = /cannot start .*: (\S+)$/m.exec(stderr)?.[1];
    if (why !== undefined) return `${name} could not be started (${why}); check that the agent file's command is a program you can run`;
  }
  if (code > 128 && SIGNALS[code - 128] !== undefined) return `${name} was killed by ${SIGNALS[code - 128]}${said}`;
  return `${name} exited with code ${code}${said}`;
}

/** The loop-guard message is one line of the agent's; past this it is cut, like a note. */
const GUARD_CHARS = 300;

/**
 * The agent's own loop-guard message, when the agent file declares one (`loopGuard.pattern`) and
 * a line of its stderr or stdout matches it: the first such line, trimmed. Undefined otherwise.
 */
export function loopGuardLine(file: AgentFile, stderr: string, stdout: string): string | undefined {
  if (file.loopGuard === undefined) return undefined;
  const pattern = new RegExp(file.loopGuard.pattern);
  const line = [...lines(stderr), ...lines(stdout)].find((l) => !GUARD_LINE.test(l) && pattern.test(l));
  if (line === undefined) return undefined;
  return line.length > GUARD_CHARS ? `${line.slice(0, GUARD_CHARS)}…` : line;
}

/** "30 s", "1.5 s": a time limit as the failure line says it. */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
