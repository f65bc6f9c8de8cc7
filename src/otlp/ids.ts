// Trace and span ids made from what a pass is, not drawn at random, so exporting a run twice
// sends the same spans (a backend that keys on ids shows one copy, and a link to a span stays
// good): the trace id of a pass is the first 16 bytes of the SHA-256 of
// `ladder\n{runId}\n{rung}\n{arm}\n{pass}`, and a span's id the first 8 bytes of the SHA-256 of
// `{trace id in hex}\n{path}`, where the path names the span within its pass (spanPaths).
import { createHash } from 'node:crypto';

export interface PassIdentity {
  runId: string;
  rung: string;
  /** Canonical form (src/lane/arm.ts formatArm). */
  arm: string;
  pass: number;
}

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();

export function traceIdOf(pass: PassIdentity): Uint8Array {
  return sha256(['ladder', pass.runId, pass.rung, pass.arm, String(pass.pass)].join('\n')).subarray(0, 16);
}

export function spanIdOf(traceId: Uint8Array, path: string): Uint8Array {
  return sha256(`${Buffer.from(traceId).toString('hex')}\n${path}`).subarray(0, 8);
}

/** The path of each kind of span within its pass; the n of a call counts tool.call events from 0. */
export const spanPaths = {
  pass: (): string => 'pass',
  step: (step: number): string => `step/${step}`,
  round: (step: number, round: number): string => `step/${step}/round/${round}`,
  listing: (turn: number): string => `turn/${turn}/tools/list`,
  call: (n: number): string => `call/${n}`,
} as const;
