// The identity of a tool call: the breaker and the repeat short-circuit both key on it.

/**
 * Goes between the tool name and the arguments. JSON text escapes every control character,
 * so the last newline of a key is always this one, and no two (tool, args) pairs can meet
 * in one key, whatever characters a tool name holds.
 */
const SEPARATOR = '\n';

/**
 * Nesting the direct walk follows before it leaves a value to JSON.stringify. Arguments are
 * a few levels deep; past this, a value is most likely a cycle, which JSON.stringify reports.
 */
const PLAIN_DEPTH = 64;

/**
 * JSON with object keys sorted at every depth, arrays in their order, no whitespace.
 * `undefined` members are dropped, as JSON.stringify drops them.
 *
 * Values JSON cannot represent are handled exactly as JSON.stringify handles them, because
 * that is what reaches the server: `toJSON` is honoured (a Date becomes its ISO string),
 * `undefined`, functions and symbols are dropped from objects and become `null` in arrays,
 * `NaN` and `Infinity` become `null`. So two calls share a key when they would put the same
 * arguments on the wire. A value with no JSON text at all (a bare `undefined`, function or
 * symbol) throws TypeError, as do a BigInt and a cycle (thrown by JSON.stringify itself).
 */
export function canonicalJson(value: unknown): string {
  // Arguments are nearly always plain JSON data (they come from a model's JSON), which is
  // written in one walk; this runs on every tool call, so the JSON round trip is kept for
  // the values that need JSON.stringify's rules.
  const direct = plainJson(value, PLAIN_DEPTH);
  if (direct !== undefined) return direct;
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined) {
    throw new TypeError(`canonicalJson: a bare ${typeof value} has no JSON text`);
  }
  // Parsing back leaves only null, booleans, numbers, strings, arrays and plain objects,
  // without cycles, so the walk needs no depth bound.
  return plainJson(JSON.parse(text), Infinity)!;
}

/**
 * The canonical text of plain JSON data: null, booleans, finite numbers, strings, arrays and
 * objects made by `{}` or JSON.parse. Undefined at the first value that is anything else, or
 * nested deeper than `depth`, so the caller can fall back to JSON.stringify's rules.
 */
function plainJson(value: unknown, depth: number): string | undefined {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'boolean' || value === null) return String(value);
  if (typeof value !== 'object' || depth === 0) return undefined;
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i += 1) {
      const item = plainJson(value[i], depth - 1);
      if (item === undefined) return undefined;
      text += i === 0 ? item : `,${item}`;
    }
    return `${text}]`;
  }
  // A Date, a boxed number, a class with toJSON: JSON.stringify's rules apply.
  if (Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  const record = value as Record<string, unknown>;
  // Written by hand rather than rebuilt as a sorted object: an object always lists
  // integer-like keys ("9", "10") first and numerically, whatever order they were added in.
  const names = Object.keys(record).sort();
  let text = '{';
  for (let i = 0; i < names.length; i += 1) {
    const name = names[i]!;
    const item = plainJson(record[name], depth - 1);
    if (item === undefined) return undefined;
    text += `${i === 0 ? '' : ','}${JSON.stringify(name)}:${item}`;
  }
  return `${text}}`;
}

/** Qualified tool name plus the canonical JSON of its arguments (missing args = `{}`). */
export function callKey(tool: string, args: unknown): string {
  return `${tool}${SEPARATOR}${canonicalJson(args ?? {})}`;
}
