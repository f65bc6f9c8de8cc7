// Seeds and shards. Pass i of every arm gets the same seed, derived from the run's seed, the
// rung and i, so the arms meet the same faults and the same synthetic choices: the pairing
// the paired statistics assume. Both are pure functions of their inputs, so a resumed or
// sharded run makes exactly the choices the uninterrupted one would have.
import { createHash } from 'node:crypto';

/** 31 bits: the workbench takes an integer seed, and JSON keeps it exact. */
const SEED_MASK = 0x7fff_ffff;

export function passSeed(runSeed: number, rung: string, pass: number): number {
  const digest = createHash('sha256').update(`${runSeed}\n${rung}\n${pass}`).digest();
  return digest.readUInt32BE(0) & SEED_MASK;
}

export interface Shard {
  index: number;
  count: number;
}

/** A mistake in a flag the user typed; one line. */
export class RunUsageError extends Error {
  override name = 'RunUsageError';
}

export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  // index >= count also refuses a count of 0: the pattern admits no negative index.
  if (match === null || index >= count) {
    throw new RunUsageError(`--shard ${text}: expected i/n with 0 <= i < n, e.g. --shard 0/4`);
  }
  return { index, count };
}

export function formatShard(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}
