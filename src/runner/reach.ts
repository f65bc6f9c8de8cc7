// Before the first pass on a real model: the same first request as `ladder doctor`. A stopped
// Ollama or a wrong endpoint is then one line in seconds, before any results folder exists,
// instead of every pass of the run erroring one after another.
import { createModel, ModelConfigError } from '../models/index.ts';
import type { AdapterOptions } from '../models/index.ts';
import { reachModel } from '../models/doctor.ts';

/** As `ladder doctor`: two attempts, so "down" is said within seconds (back-off under 1 s). */
export const REACH_ATTEMPTS = 2;

/** Undefined when the model answered; else the one line that says what failed and what to do. */
export async function unreachable(spec: string, options: AdapterOptions): Promise<string | undefined> {
  let model;
  try {
    model = createModel(spec, { ...options, retry: { maxAttempts: REACH_ATTEMPTS, ...options.retry } });
  } catch (error) {
    if (error instanceof ModelConfigError) return error.message;
    throw error;
  }
  const reached = await reachModel(model);
  if (reached.ok) return undefined;
  const error = reached.error;
  if (error instanceof ModelConfigError) return error.message;
  // Somewhere else to look is the other thing to try when nothing answered at all.
  const elsewhere = error.kind === 'connection' || error.kind === 'timeout' ? '; --base-url points ladder run at another endpoint' : '';
  return `${error.message}${elsewhere}; no pass was started`;
}
