// An arm is one setting of the lane's mechanisms, each switched on or off on its own
// (docs/lane.md). Comparing two arms on the same passes measures what the switched
// mechanisms buy, and nothing else: with every mechanism off the lane is a plain client.
import { isProtocol, PROTOCOLS } from '../mcp/protocols.ts';
import type { Protocol } from '../mcp/protocols.ts';

/**
 * - `breaker`: within a turn, an identical call that already failed is not sent again; the
 *   model gets the recorded error back. `breaker=tool` refuses any call to a tool that failed
 *   in the turn (the literal per-tool form, for comparison).
 * - `circuit`: across turns, a server that has only failed (3 failures in 10 min) is open; its
 *   tools answer "unavailable" without a round trip until one probe after the cool-down.
 * - `repeats`: from the 3rd identical call to a deterministic tool in a pass, the answer is a
 *   short pointer to the first full answer instead of a round trip.
 * - `deadline`: every call carries an explicit timeout and maxTotalTimeout sized to the wait
 *   cap, progress resets the timeout, and a call that runs out tells the model it may still be
 *   running. Off: the SDK's defaults and its raw error text.
 * - `roster`: the tool list is cached per server (TTL, list_changed, back-off, fall back to the
 *   last good listing) and `harness__refresh_tools` is offered. Off: every server is listed
 *   again every turn, a failed listing offers nothing, and there is no harness tool.
 *   `roster=strict`: on, but a listing that says it is immediately stale (`ttlMs` 0) is listed
 *   again every turn, as the 2026-07-28 revision's letter asks; `on` gives it the cache's own TTL.
 * - `cap`: the server side of the bounded wait. The lane ignores it; the runner starts the
 *   workbench with its wait cap on or off to match, so the two arms differ on it too. Off: one
 *   `jobs_wait` call waits as long as its `timeoutMs` asks.
 */
export const MECHANISMS = ['breaker', 'circuit', 'repeats', 'deadline', 'roster', 'cap'] as const;
export type Mechanism = (typeof MECHANISMS)[number];

/**
 * A rung's own step parameters an arm may set, so a finding such as "raising the ceiling does
 * not help" is a paired comparison like any other (`off;off,ceiling=x2`):
 * - `ceiling`: the tool calls a step allows; `ceiling=24` for every step, `ceiling=x2` twice
 *   each step's own (rounded, at least 1).
 * - `timeLimit`: a step's time limit in seconds before the time factor; `timeLimit=120`, or
 *   `timeLimit=x0.5` half each step's own.
 */
export const STEP_PARAMS = ['ceiling', 'timeLimit'] as const;
export type StepParam = (typeof STEP_PARAMS)[number];

/** A value an arm gives a step parameter: absolute, or a factor of the rung's own. */
export type StepSetting = { readonly absolute: number } | { readonly factor: number };

export interface Arm {
  readonly breaker: boolean;
  readonly circuit: boolean;
  readonly repeats: boolean;
  readonly deadline: boolean;
  readonly roster: boolean;
  /** The workbench's wait cap (see above); not a lane mechanism. */
  readonly cap: boolean;
  /** What the within-turn breaker keys on when it is on. */
  readonly breakerKey: 'call' | 'tool';
  /**
   * What the roster cache gives a listing that says it is immediately stale (`ttlMs` 0, or none
   * in the 2026-07-28 era): its own TTL (`own`, the default), or a listing every turn
   * (`roster=strict`, the specification's letter).
   */
  readonly rosterTtl: 'own' | 'strict';
  /** Step parameters this arm sets; the rest keep the rung's own values. */
  readonly steps: Readonly<Partial<Record<StepParam, StepSetting>>>;
  /**
   * The MCP revision every server of the pass is spoken to in (`protocol=legacy`, ...), over
   * each server's own setting; absent, each server's own. `on` against `on,protocol=legacy` pairs
   * the 2026-07-28 era with the 2025 one on the same passes (src/mcp/protocols.ts).
   */
  readonly protocol?: Protocol;
}

const NO_STEPS = Object.freeze({});

export const ARM_ON: Arm = Object.freeze({
  breaker: true, circuit: true, repeats: true, deadline: true, roster: true, cap: true, breakerKey: 'call', rosterTtl: 'own', steps: NO_STEPS,
});
export const ARM_OFF: Arm = Object.freeze({
  breaker: false, circuit: false, repeats: false, deadline: false, roster: false, cap: false, breakerKey: 'call', rosterTtl: 'own', steps: NO_STEPS,
});

/** A mistake in an arm's text; the message is one line that lists what is valid. */
export class ArmError extends Error {
  override name = 'ArmError';
}

const USAGE =
  `expected "on", "off" or a list like "breaker=off,repeats=on" over ${MECHANISMS.join(', ')} ` +
  '(values on|off, and breaker=tool, roster=strict); a list may start with "on" or "off" as its base (default on), ' +
  `and may set ${STEP_PARAMS.join(' or ')} to a number or a factor of the rung's own (ceiling=24, timeLimit=x0.5), ` +
  `and protocol to ${PROTOCOLS.join(', ')}`;

/** `24` or `x0.5`: a positive number (a whole one for an absolute ceiling), or x and a positive factor. */
function parseSetting(param: StepParam, value: string): StepSetting | undefined {
  const factor = /^x(\d+(?:\.\d+)?)$/.exec(value);
  if (factor !== null) {
    const f = Number(factor[1]);
    return f > 0 ? { factor: f } : undefined;
  }
  if (!/^\d+(?:\.\d+)?$/.test(value)) return undefined;
  const n = Number(value);
  if (n <= 0 || (param === 'ceiling' && !Number.isInteger(n))) return undefined;
  return { absolute: n };
}

function formatSetting(setting: StepSetting): string {
  return 'factor' in setting ? `x${setting.factor}` : String(setting.absolute);
}

/** A step parameter as this arm sets it: the rung's own `value` when the arm does not set it. */
export function stepValue(arm: Arm, param: StepParam, value: number): number {
  const setting = arm.steps[param];
  if (setting === undefined) return value;
  if ('absolute' in setting) return setting.absolute;
  const scaled = value * setting.factor;
  // A ceiling counts calls: whole, and at least one.
  return param === 'ceiling' ? Math.max(1, Math.round(scaled)) : scaled;
}

/**
 * Parses `on`, `off`, or a comma list of `mechanism=on|off` that may start with a base (`on` or
 * `off`). Mechanisms a list does not name keep the base, `on` by default: the list names what
 * differs from the reliability layer as shipped.
 */
export function parseArm(text: string): Arm {
  const items = text.split(',').map((item) => item.trim());
  if (items.some((item) => item === '')) throw new ArmError(`arm ${JSON.stringify(text)}: ${USAGE}`);
  const explicit = items[0] === 'on' || items[0] === 'off';
  const arm: { -readonly [K in keyof Arm]: Arm[K] } = { ...(explicit && items.shift() === 'off' ? ARM_OFF : ARM_ON) };
  const steps: Partial<Record<StepParam, StepSetting>> = {};
  const seen = new Set<string>();
  for (const item of items) {
    // Everything after the first `=` is the value: `breaker=on=off` is a bad value, not two.
    const [head, ...rest] = item.split('=');
    const name = head!.trim();
    const value = rest.join('=').trim();
    const where = `arm ${JSON.stringify(text)}`;
    if (seen.has(name)) throw new ArmError(`${where}: ${name} is set twice; ${USAGE}`);
    if (name === 'protocol') {
      if (!isProtocol(value)) throw new ArmError(`${where}: ${JSON.stringify(item)} needs one of ${PROTOCOLS.join(', ')}; ${USAGE}`);
      seen.add(name);
      arm.protocol = value;
      continue;
    }
    if ((STEP_PARAMS as readonly string[]).includes(name)) {
      const setting = parseSetting(name as StepParam, value);
      if (setting === undefined) {
        throw new ArmError(`${where}: ${JSON.stringify(item)} needs a positive number${name === 'ceiling' ? ' (whole)' : ''} or a factor like x2; ${USAGE}`);
      }
      seen.add(name);
      steps[name as StepParam] = setting;
      continue;
    }
    if (!(MECHANISMS as readonly string[]).includes(name)) {
      throw new ArmError(`${where}: unknown mechanism ${JSON.stringify(name)}; ${USAGE}`);
    }
    seen.add(name);
    const tool = name === 'breaker' && value === 'tool';
    const strict = name === 'roster' && value === 'strict';
    if (value !== 'on' && value !== 'off' && !tool && !strict) {
      throw new ArmError(`${where}: ${JSON.stringify(item)} needs the value on or off; ${USAGE}`);
    }
    arm[name as Mechanism] = value !== 'off';
    if (name === 'breaker') arm.breakerKey = tool ? 'tool' : 'call';
    if (name === 'roster') arm.rosterTtl = strict ? 'strict' : 'own';
  }
  arm.steps = Object.freeze(steps);
  return Object.freeze(arm);
}

function mechanismValue(arm: Arm, mechanism: Mechanism): string {
  if (mechanism === 'breaker' && arm.breaker && arm.breakerKey === 'tool') return 'tool';
  if (mechanism === 'roster' && arm.roster && arm.rosterTtl === 'strict') return 'strict';
  return arm[mechanism] ? 'on' : 'off';
}

/**
 * The canonical text of an arm: `on`, `off`, or the full list of mechanisms, then the step
 * parameters it sets in STEP_PARAMS order, then its protocol (`off,ceiling=x2,protocol=legacy`);
 * parseArm reads it back.
 */
export function formatArm(arm: Arm): string {
  const values = MECHANISMS.map((mechanism) => mechanismValue(arm, mechanism));
  const mechanisms = values.every((value) => value === 'on') ? 'on'
    : values.every((value) => value === 'off') ? 'off'
    : MECHANISMS.map((mechanism, i) => `${mechanism}=${values[i]}`).join(',');
  const steps = STEP_PARAMS.flatMap((param) => {
    const setting = arm.steps[param];
    return setting === undefined ? [] : [`${param}=${formatSetting(setting)}`];
  });
  const protocol = arm.protocol === undefined ? [] : [`protocol=${arm.protocol}`];
  return [mechanisms, ...steps, ...protocol].join(',');
}
