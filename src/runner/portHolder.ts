// Who listens on a port of this machine: nobody, a process Ladder started (the guard's
// descendants), or another one. A port chosen free can be taken before the server binds it, and
// then the server may exit (EADDRINUSE) or, like @cyanheads/git-mcp-server, quietly bind the next
// port up while the URL Ladder holds reaches whoever took it: an MCP server that answers
// `initialize` there is not the pass's. Read from /proc (Linux): the listening sockets in
// /proc/net/tcp{,6}, and the socket inodes among the descendants' open files. Elsewhere there is
// no such file and the answer is 'unknown'. The reads are synchronous on purpose: /proc is
// made in memory and each read takes microseconds, while the async ones queue behind libuv's
// four threads; on a loaded 2-core machine one check took 600 to 700 ms async (a full /proc scan).
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export type PortHolder = 'none' | 'ours' | 'other' | 'unknown';

/** TCP state 0A in /proc/net/tcp: LISTEN. */
const LISTEN = '0A';

/** The text of a /proc file, or undefined when it is not there (not Linux, a process gone). */
function read(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The socket inodes listening on `port` (any address), or undefined without /proc/net/tcp. */
export function listeningInodes(port: number): Set<string> | undefined {
  const tables = ['/proc/net/tcp', '/proc/net/tcp6'].map(read);
  if (tables.every((table) => table === undefined)) return undefined;
  const inodes = new Set<string>();
  for (const line of tables.flatMap((table) => (table ?? '').split('\n').slice(1))) {
    // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
    const fields = line.trim().split(/\s+/);
    const local = fields[1];
    if (local === undefined || fields[3] !== LISTEN || fields[9] === undefined) continue;
    if (Number.parseInt(local.slice(local.lastIndexOf(':') + 1), 16) === port) inodes.add(fields[9]);
  }
  return inodes;
}

/** A process's children: its threads' children files where the kernel keeps them, else a scan of every process's parent. */
function childrenOf(pid: number, scan: () => Map<number, number[]>): number[] {
  const tasks = list(`/proc/${pid}/task`);
  const texts = tasks.map((tid) => read(`/proc/${pid}/task/${tid}/children`));
  if (tasks.length > 0 && texts.every((text) => text !== undefined)) {
    return texts.flatMap((text) => text!.trim().split(/\s+/).filter(Boolean).map(Number));
  }
  return scan().get(pid) ?? [];
}

/** Every process's children by parent pid, from each one's stat. */
function scanParents(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const name of list('/proc').filter((n) => /^\d+$/.test(n))) {
    const stat = read(`/proc/${name}/stat`);
    // pid (comm) state ppid ...: the command name may hold spaces and parentheses.
    const ppid = Number(stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (Number.isInteger(ppid)) children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
  }
  return children;
}

/** `root` and every process below it. */
function descendants(root: number): number[] {
  let scanned: Map<number, number[]> | undefined;
  const scan = () => (scanned ??= scanParents());
  const found = [root];
  for (let i = 0; i < found.length; i += 1) found.push(...childrenOf(found[i]!, scan));
  return found;
}

function holdsAny(pid: number, inodes: ReadonlySet<string>): boolean {
  return list(`/proc/${pid}/fd`).some((fd) => {
    try {
      return inodes.has(/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? '');
    } catch {
      return false;
    }
  });
}

/** Who listens on `port`: `root`'s process tree ('ours'), someone else, nobody, or 'unknown'. */
export function portHolder(port: number, root: number): PortHolder {
  const inodes = listeningInodes(port);
  if (inodes === undefined) return 'unknown';
  if (inodes.size === 0) return 'none';
  const tree = descendants(root);
  if (tree.some((pid) => holdsAny(pid, inodes))) return 'ours';
  // A listener gone by now was a passing one, not someone else's server: the git server opens and
  // closes a test listener on its port before it binds it for good, and read between the two it
  // looked foreign (3 needless new ports in 200 starts, npm run bench -- startedServers).
  const still = listeningInodes(port) ?? new Set<string>();
  if (![...inodes].some((inode) => still.has(inode))) return 'none';
  return tree.some((pid) => holdsAny(pid, still)) ? 'ours' : 'other';
}
