// manifest.json: what a run is (versions, model, arms, seeds, rung file hashes, options) and
// where it stands. It is rewritten whole through a rename, so a reader never sees half of it.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Pricing } from '../models/prices.ts';
import { MANIFEST } from './store.ts';

export const MANIFEST_FORMAT = 1;

export type RunStatus = 'running' | 'complete' | 'interrupted' | 'failed';

export interface ManifestModel {
  spec: string;
  reason: string;
  synthetic: boolean;
  /**
   * What the adapter resolved and sends with every request (endpoint, thinking, context window,
   * whether the seed is sent); absent for synthetic agents and in runs made before it existed.
   */
  settings?: Readonly<Record<string, string | number | boolean>>;
  /**
   * The price of its tokens when the run was made (src/models/prices.ts), so every report of the
   * run costs it alike; `ladder compare --prices FILE` reprices. Absent in runs made before it.
   */
  price?: Pricing;
}

export interface ManifestRung {
  name: string;
  file: string;
  sha256: string;
  /** The factor this rung ran at: the run's override, else its own. */
  timeFactor: number;
}

export interface ManifestOptions {
  mode: 'steps' | 'oneshot';
  /** `i/n`, or null for the whole run. */
  shard: string | null;
  concurrency: number;
  /**
   * How much of the conversation the traces hold: `full`, or `redacted` (`--redact content`).
   * Absent in runs made before traces held content (trace format 1).
   */
  content?: 'full' | 'redacted';
  /** `--keep-workspaces`: each step's workspace kept under `workspaces/` (snapshot.ts). Absent means not kept. */
  keepWorkspaces?: boolean;
}

export interface ManifestAgent {
  name: string;
  kind: 'exec' | 'acp';
  /** The recipe name or the path as given to --agent. */
  file: string;
  sha256: string;
  /**
   * The agent's version when the run started: what it printed for the file's `version.args`,
   * else its cached package's, else "unknown" (src/agents/locate.ts). Absent in runs made before it.
   */
  version?: string;
}

/** Field order is the file format. */
export interface Manifest {
  format: number;
  runId: string;
  ladderVersion: string;
  gitSha: string | null;
  node: string;
  model: ManifestModel;
  arms: string[];
  passes: number;
  seed: number;
  /** The --time-factor override, or null when each rung runs at its own. */
  timeFactor: number | null;
  rungs: ManifestRung[];
  options: ManifestOptions;
  /** `ladder run --replay`: the recorded run whose model responses this run served. */
  replay?: { run: string; runId: string };
  /** `ladder run --agent`: the external agent that ran the steps (its file as given, and its hash). */
  agent?: ManifestAgent;
  status: RunStatus;
  startedAt: string;
  endedAt?: string;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export { LADDER_VERSION } from '../lane/install.ts';

/** The checkout's commit, or null outside a git checkout (a packed install). */
export function gitSha(cwd: string): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim() || null;
  } catch {
    return null;
  }
}

export async function writeManifest(out: string, manifest: Manifest): Promise<void> {
  const file = join(out, MANIFEST);
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(manifest, null, 2)}\n`);
  await rename(temp, file);
}

/** A folder that is not a run, or a run this Ladder cannot read; one line. */
export class ManifestError extends Error {
  override name = 'ManifestError';
}

/** The run in `out`; `shown` is the folder as the user typed it, for the one line of a mistake. */
export async function readManifest(out: string, shown = out): Promise<Manifest> {
  const file = join(out, MANIFEST);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new ManifestError(existsSync(out)
      ? `${shown}: no ${MANIFEST}; is this a results folder written by ladder run?`
      : `${shown}: no such results folder; name a folder written by ladder run (results/<run-id>)`);
  }
  let manifest: Manifest;
  try {
    manifest = JSON.parse(text) as Manifest;
  } catch {
    throw new ManifestError(`${file}: not valid JSON; the folder is damaged`);
  }
  if (manifest.format !== MANIFEST_FORMAT) {
    throw new ManifestError(`${file}: manifest format ${String(manifest.format)}, this Ladder reads ${MANIFEST_FORMAT}`);
  }
  return manifest;
}

/**
 * What must be equal for two invocations to be one run (resume) or shards of one run (merge):
 * everything that changes which passes exist or what they do. Concurrency is left out: it
 * changes only how fast the same passes run. Returns one line per difference.
 */
export function differences(a: Manifest, b: Manifest, options: { shard: boolean }): string[] {
  const found: string[] = [];
  const same = (label: string, x: unknown, y: unknown): void => {
    if (JSON.stringify(x) !== JSON.stringify(y)) found.push(`${label} ${JSON.stringify(x)} vs ${JSON.stringify(y)}`);
  };
  same('model', a.model.spec, b.model.spec);
  same('model settings', a.model.settings ?? null, b.model.settings ?? null);
  same('arms', a.arms, b.arms);
  same('passes', a.passes, b.passes);
  same('seed', a.seed, b.seed);
  same('time factor', a.timeFactor, b.timeFactor);
  same('mode', a.options.mode, b.options.mode);
  same('content', a.options.content ?? 'full', b.options.content ?? 'full');
  same('replay', a.replay?.runId ?? null, b.replay?.runId ?? null);
  same('agent', a.agent?.name ?? null, b.agent?.name ?? null);
  if (a.agent !== undefined && b.agent !== undefined && a.agent.sha256 !== b.agent.sha256) found.push(`agent file ${a.agent.file} changed (sha256 differs)`);
  // The passes of one run come from one agent version: another one makes other passes.
  if (a.agent?.version !== undefined && b.agent?.version !== undefined) same('agent version', a.agent.version, b.agent.version);
  if (options.shard) same('shard', a.options.shard, b.options.shard);
  const names = (m: Manifest) => m.rungs.map((r) => r.name);
  same('rungs', names(a), names(b));
  for (const rung of a.rungs) {
    const other = b.rungs.find((r) => r.name === rung.name);
    if (other !== undefined && other.sha256 !== rung.sha256) found.push(`rung file ${rung.file} changed (sha256 differs)`);
  }
  return found;
}
