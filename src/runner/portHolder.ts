// Who listens on a port of this machine: nobody, a process Ladder started (the guard's
// descendants), or another one. A port chosen free can be taken before the server binds it, and
// then the server may exit (EADDRINUSE) or, like @cyanheads/git-mcp-server, quietly bind the next
// port up while the URL Ladder holds reaches whoever took it: an MCP server that answers
// `initialize` there is not the pass's. Read from /proc (Linux): the listening sockets in
// /proc/net/tcp{,6}, and the socket inodes among the descendants' open files. Elsewhere there is
// no such file and the answer is 'unknown'.
import { readdir, readFile, readlink } from 'node:fs/promises';

export type PortHolder = 'none' | 'ours' | 'other' | 'unknown';

/** TCP state 0A in /proc/net/tcp: LISTEN. */
const LISTEN = '0A';

/** The socket inodes listening on `port` (any address), or undefined without /proc/net/tcp. */
export async function listeningInodes(port: number): Promise<Set<string> | undefined> {
  const tables = await Promise.all(['/proc/net/tcp', '/proc/net/tcp6'].map((file) => readFile(file, 'utf8').catch(() => undefined)));
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

/** `root` and every process below it, by parent pid. */
async function descendants(root: number): Promise<number[]> {
  const children = new Map<number, number[]>();
  const names = await readdir('/proc').catch(() => [] as string[]);
  await Promise.all(names.filter((name) => /^\d+$/.test(name)).map(async (name) => {
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => undefined);
    // pid (comm) state ppid ...: the command name may hold spaces and parentheses.
    const ppid = Number(stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!Number.isInteger(ppid)) return;
    children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
  }));
  const found = [root];
  for (let i = 0; i < found.length; i += 1) found.push(...(children.get(found[i]!) ?? []));
  return found;
}

async function holdsAny(pid: number, inodes: ReadonlySet<string>): Promise<boolean> {
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
  const links = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')));
  return links.some((link) => inodes.has(/^socket:\[(\d+)\]$/.exec(link)?.[1] ?? ''));
}

/** Who listens on `port`: `root`'s process tree ('ours'), someone else, nobody, or 'unknown'. */
export async function portHolder(port: number, root: number): Promise<PortHolder> {
  const inodes = await listeningInodes(port);
  if (inodes === undefined) return 'unknown';
  if (inodes.size === 0) return 'none';
  const tree = await descendants(root);
  const held = await Promise.all(tree.map((pid) => holdsAny(pid, inodes)));
  return held.some(Boolean) ? 'ours' : 'other';
}
