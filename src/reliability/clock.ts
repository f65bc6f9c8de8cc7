// Time and waiting are injected into every mechanism, so tests drive them with a fake
// clock and the mechanisms do no I/O of their own.

/** Milliseconds on a monotonic-enough scale; `Date.now` in production. */
export type Clock = () => number;

/**
 * Resolves after `ms` milliseconds. Rejects (or resolves early) when `signal` aborts, so a
 * timer raced against something that won can be released instead of holding the process open.
 */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;
