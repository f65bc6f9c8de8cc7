// What a synthetic agent follows: a rung's reference solution, step by step. The runner builds
// it from `steps[].reference`; the agent never sees the rung itself, its checks or its arm.

export interface ScriptCall {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** The rung declares the tool deterministic: a lookup the looper can loop on. */
  readonly deterministic?: boolean;
}

export interface ScriptStep {
  readonly calls: readonly ScriptCall[];
  readonly answer: string;
}

export interface SyntheticScript {
  readonly steps: readonly ScriptStep[];
}

/**
 * The script as one step, for one-shot mode, where every step's prompt arrives in one user
 * message: every step's calls in order, then every answer, one per paragraph.
 */
export function oneShotScript(script: SyntheticScript): SyntheticScript {
  return {
    steps: [{ calls: script.steps.flatMap((step) => step.calls), answer: script.steps.map((step) => step.answer).join('\n\n') }],
  };
}

/** A script the runner built wrong is a bug, but one worth a clear line. */
export function checkScript(script: SyntheticScript, where: string): void {
  if (!Array.isArray(script?.steps) || script.steps.length === 0) {
    throw new RangeError(`${where}: the script needs at least one step`);
  }
  script.steps.forEach((step, i) => {
    if (!Array.isArray(step.calls) || typeof step.answer !== 'string') {
      throw new RangeError(`${where}: script step ${i} needs calls (an array) and answer (a string)`);
    }
  });
}
