// The results folder (docs/runner.md "Results"): where each file lives, and whether a pass's
// trace is complete. A pass is complete iff its last event is pass.end; anything else
// (missing, cut short, a torn last line) is rerun on --resume.
import { open, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { PassId } from './plan.ts';

export const MANIFEST = 'manifest.json';
export const RUN_LOG = 'run.jsonl';
export const SUMMARY = 'summary.json';
export const TRACES = 'traces';

export function tracePath(out: string, id: Pick<PassId, 'rung' | 'armSlug' | 'pass'>): string {
  return join(out, TRACES, id.rung, id.armSlug, `${id.pass}.jsonl`);
}

/** Enough of the file's end to hold its last event: pass.end is a short line. */
const TAIL_BYTES = 4096;

export interface PassEndRecord {
  passed: boolean;
}

/** The pass.end event of a complete trace, or undefined when the pass is missing or incomplete. */
export async function completedPass(file: string): Promise<PassEndRecord | undefined> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    const text = buffer.toString('utf8');
    // Written with its newline in one write: a last line without one was cut mid-write.
    if (!text.endsWith('\n')) return undefined;
    const last = text.trimEnd().split('\n').pop() ?? '';
    try {
      const event = JSON.parse(last) as { type?: unknown; passed?: unknown };
      return event.type === 'pass.end' ? { passed: event.passed === true } : undefined;
    } catch {
      return undefined;
    }
  } finally {
    await handle.close();
  }
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
