// The per-user agent cache: CLI agents installed at the version their recipe pins, outside any
// checkout, so every clone and CI on the same machine share one copy (each is a few hundred MB).
// One folder per recipe and version, `<cache>/<recipe>/<version>/`, with a package.json of its
// own so npm installs there and nowhere else; the command is `node_modules/.bin/<command>` in it.
// Not `npm -g`: a global install is one version for the whole machine, and needs root on many.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AgentFile } from './file.ts';
import { stderrTail, Tail } from './faults.ts';

/** `$LADDER_AGENTS_CACHE`, else `$XDG_CACHE_HOME/ladder/agents`, else `~/.cache/ladder/agents`. */
export function agentCacheRoot(env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (env.LADDER_AGENTS_CACHE) return env.LADDER_AGENTS_CACHE;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'ladder', 'agents');
  return join(env.HOME || homedir(), '.cache', 'ladder', 'agents');
}

/** `@openai/codex@0.171.0` -> its name and version (the schema has checked the form). */
export function parsePin(pin: string): { name: string; version: string } {
  const at = pin.lastIndexOf('@');
  return { name: pin.slice(0, at), version: pin.slice(at + 1) };
}

/** Where an agent file's pinned package goes: `<cache>/<name>/<version>`; undefined without `package`. */
export function cacheFolder(file: Pick<AgentFile, 'name' | 'package'>, root: string): string | undefined {
  if (file.package === undefined) return undefined;
  return join(root, file.name, parsePin(file.package).version);
}

/** The package's own version as installed in a cache folder, when it is there. */
export function installedVersion(folder: string, pin: string): string | undefined {
  try {
    const json = JSON.parse(readFileSync(join(folder, 'node_modules', parsePin(pin).name, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof json.version === 'string' ? json.version : undefined;
  } catch {
    return undefined;
  }
}

/** The command in the cache at the pinned version, when it is installed there (a bare command name only). */
export function cachedCommand(file: Pick<AgentFile, 'name' | 'package' | 'command' | 'withPackages'>, root: string): { path: string; version: string; folder: string } | undefined {
  const folder = cacheFolder(file, root);
  if (folder === undefined || !/^[\w.-]+$/.test(file.command)) return undefined;
  const path = join(folder, 'node_modules', '.bin', file.command);
  const version = installedVersion(folder, file.package!);
  // A package installed beside it at another version (or not at all) is not the recipe's agent.
  const beside = (file.withPackages ?? []).every((pin) => installedVersion(folder, pin) === parsePin(pin).version);
  return version !== undefined && beside && existsSync(path) ? { path, version: version + besideSuffix(file), folder } : undefined;
}

/**
 * What `withPackages` adds to a version, as semver build metadata: `+claude-code-2.1.328` for
 * `@anthropic-ai/claude-code@2.1.328` (the package's name without its scope); empty without any.
 */
export function besideSuffix(file: Pick<AgentFile, 'withPackages'>): string {
  const parts = (file.withPackages ?? []).map((pin) => {
    const { name, version } = parsePin(pin);
    return `${name.replace(/^@[^/]+\//, '')}-${version}`;
  });
  return parts.length === 0 ? '' : `+${parts.join('.')}`;
}

/** A failed install, said in one line with what to do. */
export class AgentInstallError extends Error {
  override readonly name = 'AgentInstallError';
}

export interface InstallOptions {
  root: string;
  /** The npm to run; `npm` on PATH by default (a test gives a stand-in). */
  npm?: string;
  /** Progress lines (what is installed where, how long it took). */
  say: (line: string) => void;
  /** npm's own output, as it comes: its progress and warnings. */
  output?: NodeJS.WritableStream;
  env?: NodeJS.ProcessEnv;
}

/**
 * Installs the file's pinned package into its cache folder, or leaves it when it is already there
 * at that version. npm installs into a folder beside the final one, renamed into place only when
 * the command is there, so an interrupted install never reads as installed.
 */
export async function installAgent(file: AgentFile, options: InstallOptions): Promise<{ path: string; version: string; folder: string; reused: boolean }> {
  if (file.package === undefined) {
    throw new AgentInstallError(`${file.file}: no package field, so there is nothing to install; install the agent yourself and put it on PATH`);
  }
  const found = cachedCommand(file, options.root);
  if (found !== undefined) {
    options.say(`${file.name} ${found.version} is already in the agent cache: ${found.folder}`);
    return { ...found, reused: true };
  }
  const folder = cacheFolder(file, options.root)!;
  const temp = `${folder}.installing-${process.pid}`;
  await rm(temp, { recursive: true, force: true });
  await mkdir(temp, { recursive: true });
  // A package.json of its own, so npm installs here and not into a project above it.
  await writeFile(join(temp, 'package.json'), `${JSON.stringify({ name: `ladder-agent-${file.name}`, private: true })}\n`);
  options.say(`installing ${[file.package, ...(file.withPackages ?? [])].join(' and ')} into ${folder} (npm's output follows)`);
  const started = Date.now();
  const npm = options.npm ?? 'npm';
  const args = ['install', '--prefix', temp, '--save-exact', '--no-audit', '--no-fund', file.package, ...(file.withPackages ?? [])];
  const tail = new Tail();
  const code = await new Promise<number | string>((resolve) => {
    const child = spawn(npm, args, { stdio: ['ignore', 'pipe', 'pipe'], env: options.env ?? process.env });
    const pass = (chunk: Buffer): void => {
      tail.push(chunk);
      options.output?.write(chunk);
    };
    child.stdout.on('data', pass);
    child.stderr.on('data', pass);
    child.once('error', (error) => resolve((error as NodeJS.ErrnoException).code ?? error.message));
    child.once('close', (exit, signal) => resolve(exit ?? signal ?? 1));
  });
  if (code !== 0) {
    await rm(temp, { recursive: true, force: true });
    if (code === 'ENOENT') throw new AgentInstallError(`${npm} not found on PATH; install Node.js with npm, or put npm on PATH`);
    const said = stderrTail(tail.text());
    throw new AgentInstallError(`npm install ${file.package} failed (exit ${code})${said === '' ? '' : `: ${said}`}; check that the npm registry can be reached (npm ping) and run again`);
  }
  if (!existsSync(join(temp, 'node_modules', '.bin', file.command))) {
    await rm(temp, { recursive: true, force: true });
    throw new AgentInstallError(`${file.package} installed, but it has no command ${file.command} (node_modules/.bin); check the agent file's command and package`);
  }
  await rm(folder, { recursive: true, force: true });
  await rename(temp, folder);
  const done = cachedCommand(file, options.root);
  if (done === undefined) throw new AgentInstallError(`${file.package}: npm installed it, but ${folder} holds no version of it; remove that folder and run again`);
  options.say(`installed ${file.name} ${done.version} in ${Math.round((Date.now() - started) / 1000)} s: ${done.path}`);
  return { ...done, reused: false };
}
