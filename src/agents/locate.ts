// Which program `--agent NAME` starts, and at which version. The per-user agent cache first (the
// version the recipe pins, put there by `ladder agents install`), then PATH: a copy the user
// installed themselves is used, and a version other than the pinned one is said at run start.
// The version is asked of the agent itself (the file's `version.args`, the first x.y.z printed),
// else read from the cached package, else "unknown" (a user's agent file may say neither).
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';
import { agentCacheRoot, besideSuffix, cachedCommand, parsePin } from './cache.ts';
import { installName } from './faults.ts';
import type { AgentFile } from './file.ts';

/** `codex --version` took 0.1 s here; Qwen Code spends about 7 s of CPU starting, more on a loaded machine. */
export const VERSION_TIMEOUT_MS = 30_000;
export const UNKNOWN_VERSION = 'unknown';
const SEMVER = /\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?/;

export interface LocatedAgent {
  /** What to start: an absolute path when found, else the command as the file gives it. */
  command: string;
  /** cache: the agent cache at the pinned version; path: found on PATH; file: the file's own path (absolute or with a placeholder); missing: nowhere. */
  where: 'cache' | 'path' | 'file' | 'missing';
  /** The cached package's version (where: cache). */
  cachedVersion?: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The executable a bare command names on PATH, as a shell finds it. */
export function onPath(command: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; the next folder.
    }
  }
  return undefined;
}

export function locateAgent(file: AgentFile, env: Env = process.env): LocatedAgent {
  // A command with a placeholder ({agentDir}/x) or a path is the file's own choice: started as written.
  if (file.command.includes('{') || file.command.includes('/') || isAbsolute(file.command)) return { command: file.command, where: 'file' };
  const cached = cachedCommand(file, agentCacheRoot(env));
  if (cached !== undefined) return { command: cached.path, where: 'cache', cachedVersion: cached.version };
  // The agent's own PATH is Ladder's (src/agents/placeholders.ts), so it is looked up there.
  const found = onPath(file.command, env.PATH ?? process.env.PATH);
  return found === undefined ? { command: file.command, where: 'missing' } : { command: found, where: 'path' };
}

/** The first x.y.z the agent printed for its version flag; undefined when it printed none or did not run. */
export async function askVersion(command: string, args: readonly string[], env: Env = process.env, timeoutMs = VERSION_TIMEOUT_MS): Promise<string | undefined> {
  // A home of its own: an agent asked its version must not write into the user's.
  const home = await mkdtemp(join(tmpdir(), 'ladder-version-'));
  try {
    const out = await new Promise<string>((resolve) => {
      execFile(command, [...args], {
        timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1024 * 1024,
        env: { PATH: env.PATH ?? '/usr/local/bin:/usr/bin:/bin', LANG: env.LANG ?? 'C.UTF-8', NO_COLOR: '1', HOME: home },
      }, (_error, stdout, stderr) => resolve(`${stdout}\n${stderr}`));
    });
    return SEMVER.exec(out)?.[0];
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

export interface AgentVersion {
  version: string;
  /** How it was known: asked (version.args), the cached package, or not at all. */
  from: 'asked' | 'package' | 'unknown';
}

/** The version of the agent as located: asked when the file says how, else the cached package's. */
export async function agentVersion(file: AgentFile, located: LocatedAgent, env: Env = process.env): Promise<AgentVersion> {
  if (file.version !== undefined && located.where !== 'missing' && !located.command.includes('{')) {
    const asked = await askVersion(located.command, file.version.args, env);
    if (asked !== undefined) return { version: asked, from: 'asked' };
  }
  if (located.cachedVersion !== undefined) return { version: located.cachedVersion, from: 'package' };
  return { version: UNKNOWN_VERSION, from: 'unknown' };
}

/** The version the file pins (`package`), if any. */
export function pinnedVersion(file: Pick<AgentFile, 'package' | 'withPackages'>): string | undefined {
  return file.package === undefined ? undefined : parsePin(file.package).version + besideSuffix(file);
}

/**
 * One line for the run's start: which agent, which version, from where; and, for a copy on PATH
 * at a version other than the pinned one, that it is used anyway and how to get the pinned one.
 */
export function agentLine(file: AgentFile, located: LocatedAgent, version: AgentVersion): string {
  const pinned = pinnedVersion(file);
  const where = located.where === 'cache' ? 'from the agent cache'
    : located.where === 'path' ? `from PATH (${located.command})`
      : located.where === 'file' ? `as ${file.file} starts it` : 'not installed';
  const head = `agent: ${file.name} ${version.version} (${where})`;
  if (located.where === 'path' && pinned !== undefined && version.version !== pinned) {
    return `${head}; the recipe pins ${pinned}, so results may differ from CI's; npx ladder agents install ${installName(file)} puts ${pinned} in the agent cache, which is used first`;
  }
  return head;
}
