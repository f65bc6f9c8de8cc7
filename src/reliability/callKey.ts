// The identity of a tool call: the breaker and the repeat short-circuit both key on it.

/**
 * Goes between the tool name and the arguments. JSON text escapes every control character,
 * so the last newline of a key is always this one, and no two (tool, args) pairs can meet
 * in one key, whatever characters a tool name holds.
 */
const SEPARATOR = '\n';

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
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined) {
    throw new TypeError(`canonicalJson: a bare ${typeof value} has no JSON text`);
  }
  // Parsing back leaves only null, booleans, numbers, strings, arrays and plain objects.
  return write(JSON.parse(text));
}

function write(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(write).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    // Written by hand rather than rebuilt as a sorted object: an object always lists
    // integer-like keys ("9", "10") first and numerically, whatever order they were added in.
    const members = Object.keys(record)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${write(record[name])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Qualified tool name plus the canonical JSON of its arguments (missing args = `{}`). */
export function callKey(tool: string, args: unknown): string {
  return `${tool}${SEPARATOR}${canonicalJson(args ?? {})}`;
}
