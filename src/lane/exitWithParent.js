// @ts-check
// Preloaded (`node --import <this>?parent=PID`) into every Node server the lane starts: the
// server exits once the process that started it is gone, even while it is still starting.
// A stdio server ends when its stdin closes, but only once it reads stdin; one that hangs
// before that (workbench processes stalled in a TypeScript loader on a loaded machine were once
// found this way, half an hour after their test run ended) would otherwise live on. Linux's
// parent-death signal is out of reach from Node, so the parent is watched: a process whose
// parent died is re-parented, and its ppid changes. Plain JavaScript, so it runs before any
// loader, and it imports nothing.

/** One getppid() a second: the server is gone within about a second of its parent. */
const CHECK_MS = 1_000;
/** Time for the server's own SIGTERM handler (the workbench closes its database) before a hard exit. */
const GRACE_MS = 2_000;

const parent = Number(new URL(import.meta.url).searchParams.get('parent'));
// A server that forks (child_process.fork passes process.execArgv on) must not hand its
// children a watch on a parent that is not theirs.
const at = process.execArgv.findIndex((arg, i) => arg === '--import' && process.execArgv[i + 1] === import.meta.url);
if (at >= 0) process.execArgv.splice(at, 2);
if (Number.isInteger(parent) && parent > 0) {
  const check = () => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    setTimeout(() => process.exit(1), GRACE_MS).unref();
    process.kill(process.pid, 'SIGTERM');
  };
  // unref: the watch never keeps a server alive that would otherwise have exited.
  const timer = setInterval(check, CHECK_MS).unref();
  check();
}
