// An arm is one setting of the lane's mechanisms, each switched on or off on its own
// (docs/lane.md). Comparing two arms on the same passes measures what the switched
// mechanisms buy, and nothing else: with every mechanism off the lane is a plain client.

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
 * - `cap`: the server side of the bounded wait. The lane ignores it; the runner starts the
 *   workbench with its wait cap on or off to match, so the two arms differ on it too. Off: one
 *   `jobs_wait` call waits as long as its `timeoutMs` asks.
 */
export const MECHANISMS = ['breaker', 'circuit', 'repeats', 'deadline', 'roster', 'cap'] as const;
export type Mechanism = (typeof MECHANISMS)[number];

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
}

export const ARM_ON: Arm = Object.freeze({
  breaker: true, circuit: true, repeats: true, deadline: true, roster: true, cap: true, breakerKey: 'call',
});
export const ARM_OFF: Arm = Object.freeze({
  breaker: false, circuit: false, repeats: false, deadline: false, roster: false, cap: false, breakerKey: 'call',
});

/** A mistake in an arm's text; the message is one line that lists what is valid. */
export class ArmError extends Error {
  override name = 'ArmError';
}

const USAGE =
  `expected "on", "off" or a list like "breaker=off,repeats=on" over ${MECHANISMS.join(', ')} ` +
  '(values on|off, and breaker=tool); a list may start with "on" or "off" as its base (default on)';

/**
 * Parses `on`, `off`, or a comma list of `mechanism=on|off` that may start with a base (`on` or
 * `off`). Mechanisms a list does not name keep the base, `on` by default: the list names what
 * differs from the reliability layer as shipped.
 */
export function parseArm(text: string): Arm {
  const items = text.split(',').map((item) => item.trim());
  if (items.some((item) => item === '')) throw new ArmError(`arm ${JSON.stringify(text)}: ${USAGE}`);
  const off = items[0] === 'off';
  if (off || items[0] === 'on') items.shift();
  const arm: { -readonly [K in keyof Arm]: Arm[K] } = { ...(off ? ARM_OFF : ARM_ON) };
  const seen = new Set<string>();
  for (const item of items) {
    const parts = item.split('=').map((part) => part.trim());
    const [name, value, extra] = [parts[0]!, parts[1], parts[2]];
    const where = `arm ${JSON.stringify(text)}`;
    if (!(MECHANISMS as readonly string[]).includes(name)) {
      throw new ArmError(`${where}: unknown mechanism ${JSON.stringify(name)}; ${USAGE}`);
    }
    if (seen.has(name)) throw new ArmError(`${where}: ${name} is set twice; ${USAGE}`);
    seen.add(name);
    const tool = name === 'breaker' && value === 'tool';
    if (extra !== undefined || (value !== 'on' && value !== 'off' && !tool)) {
      throw new ArmError(`${where}: ${JSON.stringify(item)} needs the value on or off; ${USAGE}`);
    }
    arm[name as Mechanism] = value !== 'off';
    if (name === 'breaker') arm.breakerKey = tool ? 'tool' : 'call';
  }
  return Object.freeze(arm);
}

function mechanismValue(arm: Arm, mechanism: Mechanism): string {
  if (mechanism === 'breaker' && arm.breaker && arm.breakerKey === 'tool') return 'tool';
  return arm[mechanism] ? 'on' : 'off';
}

/** The canonical text of an arm: `on`, `off`, or the full list; parseArm reads it back. */
export function formatArm(arm: Arm): string {
  const values = MECHANISMS.map((mechanism) => mechanismValue(arm, mechanism));
  if (values.every((value) => value === 'on')) return 'on';
  if (values.every((value) => value === 'off')) return 'off';
  return MECHANISMS.map((mechanism, i) => `${mechanism}=${values[i]}`).join(',');
}
