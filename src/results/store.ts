// The results folder (docs/runner.md "Results"): where each file lives, and whether a pass's
// trace is complete. A pass is complete iff its last event is pass.end and no line of it is
// damaged; anything else (missing, cut short, a torn last line, damage) is rerun on --resume.
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { passFileState } from '../trace/index.ts';

export const MANIFEST = 'manifest.json';
export const RUN_LOG = 'run.jsonl';
export const SUMMARY = 'summary.json';
export const TRACES = 'traces';
/** `--keep-workspaces`: one folder of step snapshots per pass (src/runner/snapshot.ts). */
export const WORKSPACES = 'workspaces';

/** Where a pass's files go: its rung, its arm as a folder name, its index (src/runner/plan.ts PassId). */
export interface PassPlace {
  rung: string;
  armSlug: string;
  pass: number;
}

export function tracePath(out: string, id: PassPlace): string {
  return join(out, TRACES, id.rung, id.armSlug, `${id.pass}.jsonl`);
}

/** The folder of a pass's workspace snapshots, `workspaces/<rung>/<arm>/<pass>/`. */
export function workspacesPath(out: string, id: PassPlace): string {
  return join(out, WORKSPACES, id.rung, id.armSlug, String(id.pass));
}

export interface PassEndRecord {
  passed: boolean;
}

/**
 * The pass.end of a trace that holds a whole, sound pass; undefined when the pass is missing,
 * cut short (a torn or unterminated last line included) or damaged, so --resume makes it again.
 * The whole file is read: a pass with a damaged line in the middle is one no report would
 * count, so keeping it would leave a hole in the run.
 */
export async function completedPass(file: string): Promise<PassEndRecord | undefined> {
  const found = await passFileState(file);
  return found.state === 'complete' ? { passed: found.passed } : undefined;
}

export async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

export async function removeFile(path: string): Promise<void> {
  await rm(path, { force: true });
}

/** Every trace file under the folder, as paths relative to `traces/`. */
export async function listTraces(out: string): Promise<string[]> {
  const root = join(out, TRACES);
  const found: string[] = [];
  const walk = async (dir: string, rel: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) await walk(join(dir, entry.name), path);
      else if (entry.name.endsWith('.jsonl')) found.push(path);
    }
  };
  await walk(root, '');
  return found.sort();
}
