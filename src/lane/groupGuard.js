// @ts-check
// Started by Ladder as `node groupGuard.js <parent pid> <command> [args...]` in front of every
// process that is not a Node server Ladder can preload a watch into: an external agent, a
// rung's started HTTP server. It starts the command as the leader of a process group of its
// own, so everything the command starts (Codex's MCP servers, a shell's children) can be ended
// together, and it ends that group when:
// - the command exits (its children are not left behind: codex-acp's MCP server was seen to
//   outlive codex-acp when only codex-acp was killed);
// - Ladder asks (SIGTERM or SIGINT to this process: Ctrl-C reaches it through Ladder's group);
// - Ladder is gone (SIGKILL leaves no handler to run: the guard, re-parented, sees its ppid
//   change within CHECK_MS).
// A group leaves SIGTERM time to exit (GRACE_MS), then gets SIGKILL. The guard exits with the
// command's code, or 128 + its signal's number. Plain JavaScript that imports only node:
// built-ins, so it starts in about 40 ms and needs no loader.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/** Four getppid() a second: a group is gone within about a quarter second of Ladder. */
const CHECK_MS = 250;
/** What a group gets to exit on SIGTERM before SIGKILL. */
const GRACE_MS = 2_000;

const [parentText, command, ...args] = process.argv.slice(2);
const parent = Number(parentText);
if (!Number.isInteger(parent) || command === undefined) {
  process.stderr.write('groupGuard: usage: node groupGuard.js <parent pid> <command> [args...]\n');
  process.exit(2);
}

// Handlers first: a SIGTERM that came between the spawn and their setting would end the guard
// alone and leave the command running in its own group, and a started server is stopped within
// milliseconds of its start when its port turns out taken. They run on a later tick, once
// `child` is set.
for (const signal of /** @type {const} */ (['SIGTERM', 'SIGINT', 'SIGHUP'])) process.on(signal, () => endGroup());
const child = spawn(command, args, { stdio: 'inherit', detached: true });
/** @param {NodeJS.Signals} signal */
const signalGroup = (signal) => {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    // The group is gone already.
  }
};

let ending = false;
const endGroup = () => {
  if (ending) return;
  ending = true;
  signalGroup('SIGTERM');
  setTimeout(() => {
    signalGroup('SIGKILL');
    process.exit(1);
  }, GRACE_MS).unref();
};

child.once('error', (error) => {
  // Not installed, not executable: the one line Ladder turns into the step's reason.
  const code = /** @type {NodeJS.ErrnoException} */ (error).code;
  process.stderr.write(`groupGuard: cannot start ${command}: ${code ?? error.message}\n`);
  process.exit(code === 'ENOENT' ? 127 : 126);
});
child.once('exit', (code, signal) => {
  // Whatever the command left running in its group goes with it.
  signalGroup('SIGKILL');
  process.exit(code ?? 128 + (signal === null ? 0 : (constants.signals[signal] ?? 0)));
});
setInterval(() => {
  if (process.ppid !== parent) endGroup();
}, CHECK_MS).unref();
