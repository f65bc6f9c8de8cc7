// Seeded randomness for faults and generated content. Every decision is a pure function of
// (seed, stream name, index), so the k-th call of one tool fails or not regardless of how
// calls to other tools interleave with it: two arms that call tools in a different order
// still see the same fault on the same call of a tool.

/** 32-bit FNV-1a over the UTF-16 code units of `text`. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A finaliser that spreads nearby inputs over the whole 32-bit range (avalanche). */
function mix32(value: number): number {
  let x = value >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** A number in [0, 1) fixed by the seed, the stream and the index. */
export function chance(seed: number, stream: string, index: number): number {
  const h = mix32(fnv1a(`${seed}\u0000${stream}`) ^ mix32(index + 0x9e3779b9));
  return h / 2 ** 32;
}

/** A sequence of numbers in [0, 1) for one stream, for content that is drawn in order. */
export function sequence(seed: number, stream: string): () => number {
  let index = 0;
  return () => chance(seed, stream, index++);
}

/** One element of `items`, chosen by the seed, the stream and the index. */
export function pick<T>(items: readonly T[], seed: number, stream: string, index: number): T {
  if (items.length === 0) throw new RangeError('pick: items is empty');
  const at = Math.floor(chance(seed, stream, index) * items.length);
  return items[at] as T;
}

/** A short stable hex digest of `text` with the seed, for generated names and outputs. */
export function digest(seed: number, text: string): string {
  return mix32(fnv1a(`${seed}:${text}`)).toString(16).padStart(8, '0');
}
