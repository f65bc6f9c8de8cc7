// `ladder merge <out> <shards..>`: joins the folders of `ladder run --shard i/n` into one run.
// Shards must be of one run (same model, arms, passes, seed, time factor, mode and rung
// files), complete, and together cover every i of n exactly once; each pass trace is copied
// once, so a pass present in two shards is refused rather than counted twice.
import { copyFile, cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Manifest } from '../results/manifest.ts';
import { differences, ManifestError, readManifest, writeManifest } from '../results/manifest.ts';
import { InputError } from './rungFiles.ts';
import { ladderCommand } from './invocation.ts';
import { parseShard } from './seeds.ts';
import { listTraces, RUN_LOG, TRACES, WORKSPACES } from '../results/store.ts';

export interface MergeResult {
  out: string;
  passes: number;
  manifest: Manifest;
}

export async function mergeShards(outArg: string, shardArgs: readonly string[], cwd: string): Promise<MergeResult> {
  const out = resolve(cwd, outArg);
  if (shardArgs.length === 0) throw new InputError(['ladder merge: name the shard folders to join']);
  if (existsSync(out)) throw new InputError([`${outArg} already exists; merge into a new folder`]);
  const shards: { dir: string; arg: string; manifest: Manifest }[] = [];
  const problems: string[] = [];
  for (const arg of shardArgs) {
    try {
      shards.push({ dir: resolve(cwd, arg), arg, manifest: await readManifest(resolve(cwd, arg), arg) });
    } catch (error) {
      if (!(error instanceof ManifestError)) throw error;
      problems.push(error.message);
    }
  }
  if (problems.length > 0) throw new InputError(problems);
  const first = shards[0]!;
  const counts = new Set<number>();
  const seen = new Map<number, string>();
  for (const shard of shards) {
    const { manifest, arg } = shard;
    if (manifest.options.shard === null) problems.push(`${arg}: not a shard (it was run without --shard)`);
    else {
      const { index, count } = parseShard(manifest.options.shard);
      counts.add(count);
      if (seen.has(index)) problems.push(`${arg}: shard ${manifest.options.shard} is also ${seen.get(index)}`);
      seen.set(index, arg);
    }
    if (manifest.status !== 'complete') problems.push(`${arg}: status ${manifest.status}; finish it with ${ladderCommand()} run --resume --out ${arg}`);
    if (shard !== first) {
      const found = differences(first.manifest, manifest, { shard: false });
      if (found.length > 0) problems.push(`${arg} is not a shard of the same run as ${first.arg}: ${found.join('; ')}`);
    }
  }
  if (counts.size > 1) problems.push(`the shards split the run differently (${[...counts].map((n) => `/${n}`).join(', ')})`);
  const count = [...counts][0];
  if (count !== undefined && counts.size === 1) {
    const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !seen.has(i));
    if (missing.length > 0) problems.push(`missing shard(s) ${missing.map((i) => `${i}/${count}`).join(', ')}`);
  }
  if (problems.length > 0) throw new InputError(problems);

  const owner = new Map<string, string>();
  for (const shard of shards) {
    for (const path of await listTraces(shard.dir)) {
      if (owner.has(path)) throw new InputError([`${path} is in both ${owner.get(path)} and ${shard.arg}; the shards overlap`]);
      owner.set(path, shard.arg);
    }
  }
  let passes = 0;
  for (const shard of shards) {
    for (const path of await listTraces(shard.dir)) {
      const target = join(out, TRACES, path);
      await mkdir(dirname(target), { recursive: true });
      await copyFile(join(shard.dir, TRACES, path), target);
      passes += 1;
    }
    // Kept workspaces (--keep-workspaces) go with their passes; the shards' passes do not overlap.
    const kept = join(shard.dir, WORKSPACES);
    if (existsSync(kept)) await cp(kept, join(out, WORKSPACES), { recursive: true });
  }
  const logs = await Promise.all(shards.map((s) => readFile(join(s.dir, RUN_LOG), 'utf8').catch(() => '')));
  await writeFile(join(out, RUN_LOG), logs.join(''));
  const starts = shards.map((s) => s.manifest.startedAt).sort();
  const ends = shards.map((s) => s.manifest.endedAt ?? s.manifest.startedAt).sort();
  const manifest: Manifest = {
    ...first.manifest,
    runId: outArg.split(/[\\/]/).filter(Boolean).pop() ?? first.manifest.runId,
    options: {
      ...first.manifest.options, shard: null,
      ...(shards.some((s) => s.manifest.options.keepWorkspaces === true) ? { keepWorkspaces: true } : {}),
    },
    status: 'complete',
    startedAt: starts[0]!,
    endedAt: ends.at(-1)!,
  };
  await writeManifest(out, manifest);
  return { out, passes, manifest };
}
