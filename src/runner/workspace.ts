// A pass's folder: a fresh workspace in a temporary folder, with the rung's setup files, and
// removed afterwards whatever happened. Every pass of a run lives under one run folder in the
// system's temp dir, so a run killed outright leaves its leftovers in one place, which the
// next start of the same results folder clears.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, normalize, resolve } from 'node:path';

/** The temp folder that holds every pass of the run writing to `out`. */
export function runTempRoot(out: string, base = tmpdir()): string {
  const tag = createHash('sha256').update(resolve(out)).digest('hex').slice(0, 12);
  return join(base, `ladder-run-${tag}`);
}

/** Clears what a killed run left behind, then makes the folder. */
export async function freshTempRoot(root: string): Promise<void> {
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
}

export interface PassFolder {
  dir: string;
  workspace: string;
  [Symbol.asyncDispose](): Promise<void>;
}

export async function makePassFolder(root: string, files: Readonly<Record<string, string>>): Promise<PassFolder> {
  await mkdir(root, { recursive: true });
  const dir = await mkdtemp(join(root, 'pass-'));
  const workspace = join(dir, 'workspace');
  const remove = () => rm(dir, { recursive: true, force: true, maxRetries: 3 });
  try {
    await mkdir(workspace);
    for (const [path, content] of Object.entries(files)) {
      const full = join(workspace, path);
      await mkdir(dirname(full), { recursive: true });
      await writeFile(full, content);
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return { dir, workspace, [Symbol.asyncDispose]: remove };
}

/** Why a setup path would land outside the workspace, or undefined when it is fine. */
export function badSetupPath(path: string): string | undefined {
  if (path === '' || isAbsolute(path)) return 'expected a path relative to the workspace';
  const normal = normalize(path);
  if (normal === '..' || normal.startsWith('../') || normal.startsWith('..\\')) return 'leaves the workspace';
  return undefined;
}
