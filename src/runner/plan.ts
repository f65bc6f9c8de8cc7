// Which passes a run makes, in which order. Arms are interleaved pass by pass (pass i of every
// arm, then pass i + 1), so drift in a provider or the machine hits both arms alike.
import { formatArm, parseArm } from '../lane/index.ts';
import { passSeed, type Shard } from './seeds.ts';

export interface PassId {
  rung: string;
  /** Canonical arm text (formatArm). */
  arm: string;
  /** The arm as a folder name. */
  armSlug: string;
  /** 0-based. */
  pass: number;
  seed: number;
}

/** `on`, `off`, or `breaker-off_circuit-on_...`: a folder name that reads back to the arm. */
export function armSlug(arm: string): string {
  return arm.replaceAll('=', '-').replaceAll(',', '_');
}

/** Arms as the user typed them, each parsed (ArmError names a bad one) and made canonical. */
export function canonicalArms(texts: readonly string[]): string[] {
  const arms = texts.map((text) => formatArm(parseArm(text)));
  const twice = arms.find((arm, i) => arms.indexOf(arm) !== i);
  if (twice !== undefined) throw new RangeError(`--arms: ${twice} is given twice`);
  return arms;
}

export interface PlanInput {
  rungs: readonly string[];
  arms: readonly string[];
  passes: number;
  seed: number;
  shard?: Shard | undefined;
}

/**
 * Every pass of the run in the order it starts. A shard takes every n-th (pass, rung) unit of
 * that order, both arms together, so the two halves of a pair run on the same machine.
 */
export function planPasses(input: PlanInput): PassId[] {
  const plan: PassId[] = [];
  let unit = 0;
  for (let pass = 0; pass < input.passes; pass += 1) {
    for (const rung of input.rungs) {
      const mine = input.shard === undefined || unit % input.shard.count === input.shard.index;
      unit += 1;
      if (!mine) continue;
      const seed = passSeed(input.seed, rung, pass);
      for (const arm of input.arms) plan.push({ rung, arm, armSlug: armSlug(arm), pass, seed });
    }
  }
  return plan;
}

export function passLabel(id: PassId): string {
  return `${id.rung} ${id.arm} #${id.pass}`;
}
