// A results folder as the runner leaves it (docs/runner.md, "The results folder"): manifest.json,
// traces/**/*.jsonl (one file per pass), summary.json, read by the reports and the export. This
// file reads the manifest and finds the traces; src/report/passes.ts and src/export/passes.ts
// read each trace. The runner reads the manifest of a run it resumes, merges or replays with
// manifest.ts's own readManifest, whose mistakes are ManifestErrors.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { formatArm, parseArm } from '../lane/arm.ts';
// The runner writes the manifest; its type is the file format, read here as written.
import { MANIFEST_FORMAT } from './manifest.ts';
import type { Manifest } from './manifest.ts';

/** A results folder that cannot be read: the message is one line saying where and what to do. */
export class ReportInputError extends Error {
  override name = 'ReportInputError';
}

export function readManifest(dir: string): Manifest {
  const path = join(dir, 'manifest.json');
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new ReportInputError(`${dir}: no such results folder; name a folder written by ladder run (results/<run-id>)`);
  }
  if (!existsSync(path)) {
    throw new ReportInputError(`${dir}: no manifest.json; is this a results folder written by ladder run?`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ReportInputError(`${path}: not valid JSON (${(error as Error).message}); the run's manifest is damaged`);
  }
  const m = raw as Partial<Manifest> | null;
  const bad = (field: string, expected: string): never => {
    throw new ReportInputError(`${path}: ${field}: expected ${expected}; the run's manifest is damaged or from another tool`);
  };
  if (m === null || typeof m !== 'object') return bad('(root)', 'an object');
  if (m.format !== MANIFEST_FORMAT) {
    return bad('format', `${MANIFEST_FORMAT} (this Ladder reads manifest format ${MANIFEST_FORMAT}), got ${JSON.stringify(m.format)}`);
  }
  if (typeof m.runId !== 'string') bad('runId', 'a string');
  if (!Array.isArray(m.arms) || m.arms.some((arm) => typeof arm !== 'string')) bad('arms', 'a list of arm names');
  if (m.model === undefined || typeof m.model.spec !== 'string') bad('model.spec', 'a model spec');
  if (!Array.isArray(m.rungs)) bad('rungs', 'a list of { name, file, sha256 }');
  return m as Manifest;
}

/**
 * The canonical text of an arm (`on`, `off`, or the full mechanism list), so `off,breaker=off`
 * in a manifest and `off` in a trace are one arm. Text that is not an arm stays as written.
 */
export function canonicalArm(text: string): string {
  try {
    return formatArm(parseArm(text));
  } catch {
    return text;
  }
}

/** Every `.jsonl` under `<dir>/traces`, sorted, so a summary reads them in the same order each time. */
export function listTraces(dir: string): string[] {
  const root = join(dir, 'traces');
  if (!existsSync(root)) return [];
  const found: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name.endsWith('.jsonl')) found.push(path);
    }
  };
  walk(root);
  return found.sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
}

/** A trace's path relative to its run folder, with forward slashes: stable across machines. */
export function tracePath(dir: string, path: string): string {
  return relative(dir, path).split(sep).join('/');
}
