// Which rung files a command means: every rung in rungs/ by default, else each argument as a
// file, a folder, a glob over file names (`rungs/sql-*.yaml`), or a rung name (`sql-insert`,
// `jobs-*`) looked up in rungs/. Loading collects every problem of every file, so one run of
// the fix is enough.
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { loadRung, RungError } from '../rungs/load.ts';
import type { LoadedRung } from '../rungs/load.ts';
import { lineOfPath } from '../rungs/load.ts';
import { checkServers } from './servers.ts';
import { badSetupPath } from './workspace.ts';

export const RUNGS_DIR = 'rungs';

/** Bad input a user can fix; `lines` are printed one per problem. */
export class InputError extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join('\n'));
    this.name = 'InputError';
  }
}

const isGlob = (text: string): boolean => /[*?[]/.test(text);
const isFile = (path: string): boolean => statSync(path, { throwIfNoEntry: false })?.isFile() === true;
const isDir = (path: string): boolean => statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;

function globRegex(pattern: string): RegExp {
  const body = pattern.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]');
  return new RegExp(`^${body}$`);
}

function yamlIn(dir: string, pattern = '*.yaml'): string[] {
  const regex = globRegex(pattern);
  return readdirSync(dir).filter((name) => regex.test(name) && /\.ya?ml$/.test(name)).sort().map((name) => join(dir, name));
}

/** Rung file paths relative to `cwd`, in a stable order; InputError when an argument matches nothing. */
export function findRungFiles(args: readonly string[], cwd: string): string[] {
  const rungsDir = join(cwd, RUNGS_DIR);
  const wanted = args.length === 0 ? [RUNGS_DIR] : args;
  const files: string[] = [];
  const problems: string[] = [];
  for (const arg of wanted) {
    const full = resolve(cwd, arg);
    let found: string[] = [];
    if (isFile(full)) found = [full];
    else if (isDir(full)) found = yamlIn(full);
    else if (isGlob(arg) && isDir(dirname(full)) && !isGlob(dirname(arg))) found = yamlIn(dirname(full), basename(arg));
    if (found.length === 0 && !arg.includes('/') && isDir(rungsDir)) {
      found = isGlob(arg) ? yamlIn(rungsDir, `${arg}.yaml`) : [join(rungsDir, `${arg}.yaml`)].filter(isFile);
    }
    if (found.length === 0) problems.push(`${arg}: no rung file matches (give a file, a folder, a glob or a rung name in ${RUNGS_DIR}/)`);
    for (const file of found) {
      const rel = relative(cwd, file) || file;
      if (!files.includes(rel)) files.push(rel);
    }
  }
  if (problems.length > 0) throw new InputError(problems);
  return files;
}

/** Loads and checks every file; InputError with one line per problem across all of them. */
export async function loadRungFiles(files: readonly string[], cwd: string): Promise<LoadedRung[]> {
  const problems: string[] = [];
  const loaded: LoadedRung[] = [];
  for (const file of files) {
    try {
      const rung = await loadRung(resolve(cwd, file));
      loaded.push({ ...rung, file });
    } catch (error) {
      if (!(error instanceof RungError)) throw error;
      problems.push(...error.problems.map((line) => line.replace(resolve(cwd, file), file)));
    }
  }
  for (const { file, text, rung } of loaded) {
    const lineOf = (path: (string | number)[]) => lineOfPath(text, path);
    problems.push(...checkServers(file, rung, lineOf));
    for (const path of Object.keys(rung.setup.files)) {
      const why = badSetupPath(path);
      if (why !== undefined) problems.push(`${file}:${lineOf(['setup', 'files', path])} setup.files.${path}: ${why}`);
    }
  }
  const byName = new Map<string, string>();
  for (const { file, rung } of loaded) {
    const other = byName.get(rung.name);
    if (other !== undefined) problems.push(`${file}:${lineOfPath(loaded.find((l) => l.file === file)!.text, ['name'])} name: ${rung.name} is also the name of ${other}`);
    byName.set(rung.name, file);
  }
  if (problems.length > 0) throw new InputError(problems);
  return loaded;
}
