// "Did you mean": the closest of the valid names to a word that is not one. Used for rung
// fields here and, from the layer above, for command-line flags and commands.

/**
 * Edits between two words, a swap of neighbours counting as one (`modle` is one from `model`):
 * the optimal-string-alignment distance. Names are short, so the full table is cheap.
 */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The closest candidate, when it is close enough to be what was meant (a third of its letters). */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(word.toLowerCase(), name.toLowerCase());
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  if (best === undefined) return undefined;
  const prefix = best.name.startsWith(word) || word.startsWith(best.name);
  return prefix || best.distance <= Math.max(1, Math.floor(best.name.length / 3)) ? best.name : undefined;
}
