import { describe, it, expect, vi } from 'vitest';
import {
  CircuitState,
  ServerCircuits,
  type CircuitOptions,
} from '../../src/reliability/serverCircuit.ts';

// The minute seed 000's turn opened in; any fixed instant would do.
const T0 = Date.UTC(2026, 7, 18, 1, 6, 36, 875);
const S = 1000;
const MIN = 60 * S;
const iso = (at: number) => new Date(at).toISOString();

function setup(options: Omit<CircuitOptions, 'clock'> = {}) {
  let now = T0;
  const circuits = new ServerCircuits({ ...options, clock: () => now });
  return {
    circuits,
    /** Moves the fake clock to T0 + ms. */
    at(ms: number) {
      now = T0 + ms;
    },
    /** Failures at each offset from T0, in order. */
    failAt(server: string, ...offsets: number[]) {
      for (const ms of offsets) {
        now = T0 + ms;
        circuits.failure(server);
      }
    },
  };
}

function refusal(server: string, openedAt: number, failures: number, retryAt: number, left: number) {
  const plural = failures === 1 ? '' : 's';
  return {
    allowed: false,
    openedAt,
    failures,
    retryAt,
    text: `server ${server} unavailable since ${iso(openedAt)} after ${failures} failure${plural}, retry after ${left} s`,
  };
}

describe('ServerCircuits', () => {
  it('lets calls to a server it has never seen through, not as probes', () => {
    const { circuits } = setup();
    expect(circuits.check('web')).toEqual({ allowed: true, probe: false });
    expect(circuits.state('web')).toBe(CircuitState.Closed);
  });

  it('answers a server that failed in three turns as unavailable at the fourth without calling it', () => {
    const { circuits, at } = setup();
    let sent = 0;
    for (const turnAt of [0, 20 * S, 40 * S, 60 * S]) {
      at(turnAt);
      if (circuits.check('playwright').allowed) {
        sent += 1;
        circuits.failure('playwright');
      }
    }
    expect(sent).toBe(3);
    expect(circuits.state('playwright')).toBe(CircuitState.Open);
    const verdict = circuits.check('playwright');
    expect(verdict).toEqual(refusal('playwright', T0 + 40 * S, 3, T0 + 100 * S, 40));
    expect(verdict.allowed === false && verdict.text).toBe(
      'server playwright unavailable since 2026-08-18T01:07:16.875Z after 3 failures, retry after 40 s',
    );
  });

  it('stays closed below the default threshold of three', () => {
    const { circuits, failAt } = setup();
    failAt('web', 0, 1);
    expect(circuits.state('web')).toBe(CircuitState.Closed);
    expect(circuits.check('web')).toEqual({ allowed: true, probe: false });
    failAt('web', 2);
    expect(circuits.state('web')).toBe(CircuitState.Open);
  });

  it('keeps servers apart', () => {
    const { circuits, failAt } = setup({ threshold: 1 });
    failAt('dead', 0);
    expect(circuits.check('live')).toEqual({ allowed: true, probe: false });
    expect(circuits.state('live')).toBe(CircuitState.Closed);
  });

  it('forgets the failures before a success while closed', () => {
    const { circuits, failAt } = setup();
    failAt('web', 0, 1);
    circuits.success('web');
    failAt('web', 2, 3);
    expect(circuits.state('web')).toBe(CircuitState.Closed);
    failAt('web', 4);
    expect(circuits.check('web')).toEqual(refusal('web', T0 + 4, 3, T0 + 4 + MIN, 60));
  });

  it('lets one probe through at the cool-down and closes when it succeeds', () => {
    const { circuits, failAt, at } = setup();
    failAt('web', 0, 1, 2);
    at(2 + MIN);
    expect(circuits.check('web')).toEqual({ allowed: true, probe: true });
    expect(circuits.state('web')).toBe(CircuitState.HalfOpen);
    circuits.success('web');
    expect(circuits.state('web')).toBe(CircuitState.Closed);
    expect(circuits.check('web')).toEqual({ allowed: true, probe: false });
    // Closing forgot the failures: two more do not re-open it.
    failAt('web', 3 + MIN, 4 + MIN);
    expect(circuits.state('web')).toBe(CircuitState.Closed);
  });

  it('re-opens from the moment a half-open probe fails', () => {
    const { circuits, failAt, at } = setup();
    failAt('web', 0, 1, 2);
    at(2 + MIN + 5 * S);
    expect(circuits.check('web')).toEqual({ allowed: true, probe: true });
    failAt('web', 2 + MIN + 10 * S);
    const reopenedAt = T0 + 2 + MIN + 10 * S;
    expect(circuits.state('web')).toBe(CircuitState.Open);
    expect(circuits.check('web')).toEqual(refusal('web', reopenedAt, 4, reopenedAt + MIN, 60));
    at(2 + 2 * MIN + 10 * S - 1);
    expect(circuits.check('web').allowed).toBe(false);
    at(2 + 2 * MIN + 10 * S);
    expect(circuits.check('web')).toEqual({ allowed: true, probe: true });
  });

  it('lets exactly one probe through while it is outstanding', () => {
    const { circuits, failAt, at } = setup();
    failAt('web', 0, 1, 2);
    const probeAt = 2 + MIN + 5 * S;
    at(probeAt);
    expect(circuits.check('web')).toEqual({ allowed: true, probe: true });
    // A failed probe re-opens no earlier than a cool-down after it was sent.
    at(probeAt + 1500);
    expect(circuits.check('web')).toEqual(refusal('web', T0 + 2, 3, T0 + probeAt + MIN, 59));
    at(probeAt + 2 * MIN);
    expect(circuits.check('web')).toEqual(refusal('web', T0 + 2, 3, T0 + probeAt + MIN, 0));
    expect(circuits.state('web')).toBe(CircuitState.HalfOpen);
  });

  it('counts a late failure while open without moving the cool-down', () => {
    const { circuits, failAt, at } = setup();
    failAt('web', 0, 1, 2, 10 * S);
    expect(circuits.state('web')).toBe(CircuitState.Open);
    expect(circuits.check('web')).toEqual(refusal('web', T0 + 2, 4, T0 + 2 + MIN, 51));
    at(2 + MIN);
    expect(circuits.check('web')).toEqual({ allowed: true, probe: true });
  });

  it('closes on a success reported while open', () => {
    const { circuits, failAt } = setup();
    failAt('web', 0, 1, 2);
    circuits.success('web');
    expect(circuits.state('web')).toBe(CircuitState.Closed);
    expect(circuits.check('web')).toEqual({ allowed: true, probe: false });
  });

  it('rounds the seconds left up to whole seconds', () => {
    const { circuits, failAt, at } = setup({ threshold: 1 });
    failAt('web', 0);
    expect(circuits.check('web')).toEqual(refusal('web', T0, 1, T0 + MIN, 60));
    at(1);
    expect(circuits.check('web')).toEqual(refusal('web', T0, 1, T0 + MIN, 60));
    at(S);
    expect(circuits.check('web')).toEqual(refusal('web', T0, 1, T0 + MIN, 59));
    at(MIN - 1);
    expect(circuits.check('web')).toEqual(refusal('web', T0, 1, T0 + MIN, 1));
  });

  it('reads the current time from Date.now when no clock is given', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(T0);
      const circuits = new ServerCircuits({ threshold: 1 });
      circuits.failure('web');
      vi.setSystemTime(T0 + MIN - 1);
      expect(circuits.check('web')).toEqual(refusal('web', T0, 1, T0 + MIN, 1));
      vi.setSystemTime(T0 + MIN);
      expect(circuits.check('web')).toEqual({ allowed: true, probe: true });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('ServerCircuits window', () => {
  it('does not open on failures spread over more than the default window', () => {
    const { circuits, failAt } = setup();
    failAt('web', 0, 5 * MIN, 10 * MIN + 1);
    expect(circuits.state('web')).toBe(CircuitState.Closed);
  });

  it('opens on failures spread over exactly the default window', () => {
    const { circuits, failAt } = setup();
    failAt('web', 0, 5 * MIN, 10 * MIN);
    expect(circuits.state('web')).toBe(CircuitState.Open);
  });

  it('counts only the failures inside the window, measured back from the newest', () => {
    const { circuits, failAt } = setup();
    failAt('web', 0, 1, 10 * MIN + 2, 10 * MIN + 3);
    expect(circuits.state('web')).toBe(CircuitState.Closed);
    failAt('web', 10 * MIN + 4);
    expect(circuits.check('web')).toEqual(refusal('web', T0 + 10 * MIN + 4, 3, T0 + 11 * MIN + 4, 60));
  });
});

describe('ServerCircuits options', () => {
  const cases: [string, Partial<CircuitOptions>, string][] = [
    ['threshold -1', { threshold: -1 }, 'threshold must be an integer >= 1, got -1'],
    ['threshold 0', { threshold: 0 }, 'threshold must be an integer >= 1, got 0'],
    ['threshold 1.5', { threshold: 1.5 }, 'threshold must be an integer >= 1, got 1.5'],
    ['threshold NaN', { threshold: NaN }, 'threshold must be an integer >= 1, got NaN'],
    ['windowMs -1', { windowMs: -1 }, 'windowMs must be a finite number > 0, got -1'],
    ['windowMs 0', { windowMs: 0 }, 'windowMs must be a finite number > 0, got 0'],
    ['windowMs Infinity', { windowMs: Infinity }, 'windowMs must be a finite number > 0, got Infinity'],
    ['windowMs NaN', { windowMs: NaN }, 'windowMs must be a finite number > 0, got NaN'],
    ['coolDownMs -1', { coolDownMs: -1 }, 'coolDownMs must be a finite number > 0, got -1'],
    ['coolDownMs 0', { coolDownMs: 0 }, 'coolDownMs must be a finite number > 0, got 0'],
    ['coolDownMs Infinity', { coolDownMs: Infinity }, 'coolDownMs must be a finite number > 0, got Infinity'],
    ['coolDownMs NaN', { coolDownMs: NaN }, 'coolDownMs must be a finite number > 0, got NaN'],
  ];
  it.each(cases)('rejects %s with a RangeError naming the field and value', (_name, options, message) => {
    expect(() => new ServerCircuits(options)).toThrow(new RangeError(`ServerCircuits: ${message}`));
  });

  it('rejects a threshold given as a string', () => {
    const options = { threshold: '3' } as unknown as CircuitOptions;
    expect(() => new ServerCircuits(options)).toThrow(
      new RangeError('ServerCircuits: threshold must be an integer >= 1, got 3'),
    );
  });

  it('opens on the first failure with threshold 1', () => {
    const { circuits, failAt } = setup({ threshold: 1 });
    failAt('web', 0);
    expect(circuits.check('web')).toEqual(refusal('web', T0, 1, T0 + MIN, 60));
  });

  it('opens on the second failure with threshold 2', () => {
    const { circuits, failAt } = setup({ threshold: 2 });
    failAt('web', 0);
    expect(circuits.state('web')).toBe(CircuitState.Closed);
    failAt('web', 1);
    expect(circuits.state('web')).toBe(CircuitState.Open);
  });

  it('opens on the tenth failure with threshold 10', () => {
    const { circuits, failAt } = setup({ threshold: 10 });
    failAt('web', 0, 1, 2, 3, 4, 5, 6, 7, 8);
    expect(circuits.state('web')).toBe(CircuitState.Closed);
    failAt('web', 9);
    expect(circuits.check('web')).toEqual(refusal('web', T0 + 9, 10, T0 + 9 + MIN, 60));
  });

  it('counts failures exactly windowMs 1 apart but not 2 apart', () => {
    const near = setup({ threshold: 2, windowMs: 1 });
    near.failAt('web', 0, 1);
    expect(near.circuits.state('web')).toBe(CircuitState.Open);
    const far = setup({ threshold: 2, windowMs: 1 });
    far.failAt('web', 0, 2);
    expect(far.circuits.state('web')).toBe(CircuitState.Closed);
  });

  it('counts failures a large windowMs apart but not one ms more', () => {
    const day = 24 * 60 * MIN;
    const near = setup({ threshold: 2, windowMs: day });
    near.failAt('web', 0, day);
    expect(near.circuits.state('web')).toBe(CircuitState.Open);
    const far = setup({ threshold: 2, windowMs: day });
    far.failAt('web', 0, day + 1);
    expect(far.circuits.state('web')).toBe(CircuitState.Closed);
  });

  it('refuses one ms before the default cool-down and probes at it', () => {
    const { circuits, failAt, at } = setup({ threshold: 1 });
    failAt('web', 0);
    at(MIN - 1);
    expect(circuits.check('web').allowed).toBe(false);
    at(MIN);
    expect(circuits.check('web')).toEqual({ allowed: true, probe: true });
  });

  it('refuses at the opening instant and probes 1 ms later with coolDownMs 1', () => {
    const { circuits, failAt, at } = setup({ threshold: 1, coolDownMs: 1 });
    failAt('web', 0);
    expect(circuits.check('web')).toEqual(refusal('web', T0, 1, T0 + 1, 1));
    at(1);
    expect(circuits.check('web')).toEqual({ allowed: true, probe: true });
  });

  it('refuses one ms before a long coolDownMs and probes at it', () => {
    const hour = 60 * MIN;
    const { circuits, failAt, at } = setup({ threshold: 1, coolDownMs: hour });
    failAt('web', 0);
    at(hour - 1);
    expect(circuits.check('web')).toEqual(refusal('web', T0, 1, T0 + hour, 1));
    at(hour);
    expect(circuits.check('web')).toEqual({ allowed: true, probe: true });
  });
});
