// The key a trace records for a call: the call key (src/reliability/callKey.ts) hashed, short.
// Its own module so that what reads traces (the report, rescore) need not load the lane.
import { hash } from 'node:crypto';

/** 64 bits of sha256: collisions are out of reach for the calls of a run. */
const KEY_HEX_DIGITS = 16;

export function hashCallKey(key: string): string {
  return hash('sha256', key, 'hex').slice(0, KEY_HEX_DIGITS);
}
