// The checks on how a step was done from its calls: which arguments a tool was called with
// (`calledWith`), in which order the tools were called (`sequence`). Each failure says what
// was seen, so a rung author can tell a wrong check from a wrong agent.

/** The part of a step's call these checks read (src/rungs/checks.ts StepCall). */
export interface CalledTool {
  tool: string;
  /** Absent for a call whose arguments were not a JSON object. */
  args?: Readonly<Record<string, unknown>>;
}

/** Arguments quoted in a failure are cut here, so one runaway value does not flood the line. */
const QUOTE_CHARS = 200;
/** Calls listed in a sequence failure; a longer step says how many more there were. */
const ORDER_SHOWN = 20;

/** `/.../`: a string value of an expected argument that is a regular expression, not a literal. */
const REGEX_VALUE = /^\/(.+)\/$/s;

/** The regular expression a string value stands for, or undefined when it is a literal. */
export function argumentPattern(value: string): string | undefined {
  return REGEX_VALUE.exec(value)?.[1];
}

/** Every `/.../` string in an expected value that does not compile, with its path and the error. */
export function badPatterns(value: unknown, path: (string | number)[] = []): { path: (string | number)[]; message: string }[] {
  if (typeof value === 'string') {
    const pattern = argumentPattern(value);
    if (pattern === undefined) return [];
    try {
      new RegExp(pattern);
      return [];
    } catch (error) {
      return [{ path, message: `not a regular expression: ${(error as Error).message}` }];
    }
  }
  if (Array.isArray(value)) return value.flatMap((item, i) => badPatterns(item, [...path, i]));
  if (isObject(value)) return Object.entries(value).flatMap(([key, item]) => badPatterns(item, [...path, key]));
  return [];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function quote(value: unknown): string {
  const text = JSON.stringify(value) ?? 'nothing';
  return text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text;
}

/** Where an actual value first departs from an expected one, and how. */
export interface Difference {
  path: string;
  why: string;
}

/**
 * The first place `actual` does not contain `expected`, or undefined when it does: objects by
 * a subset of keys, arrays of equal length element by element, `/.../` strings as regular
 * expressions tested against a string, other values equal.
 */
export function firstDifference(expected: unknown, actual: unknown, path: string): Difference | undefined {
  if (typeof expected === 'string') {
    const pattern = argumentPattern(expected);
    if (pattern !== undefined) {
      if (typeof actual === 'string' && new RegExp(pattern).test(actual)) return undefined;
      return { path, why: `expected a string matching ${expected}, got ${quote(actual)}` };
    }
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return { path, why: `expected an array, got ${quote(actual)}` };
    if (actual.length !== expected.length) return { path, why: `expected ${expected.length} item(s), got ${actual.length}` };
    for (const [i, item] of expected.entries()) {
      const found = firstDifference(item, actual[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return { path, why: `expected an object, got ${quote(actual)}` };
    for (const [key, item] of Object.entries(expected)) {
      if (!Object.hasOwn(actual, key)) return { path: `${path}.${key}`, why: 'missing' };
      const found = firstDifference(item, actual[key], `${path}.${key}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return expected === actual ? undefined : { path, why: `expected ${quote(expected)}, got ${quote(actual)}` };
}

/** How many of the expected value's leaves (scalars, patterns, empty containers) the actual one matches. */
function matchedLeaves(expected: unknown, actual: unknown): number {
  if (Array.isArray(expected) && expected.length > 0) {
    return Array.isArray(actual) ? expected.reduce((sum: number, item, i) => sum + matchedLeaves(item, actual[i]), 0) : 0;
  }
  if (isObject(expected) && Object.keys(expected).length > 0) {
    return isObject(actual) ? Object.entries(expected).reduce((sum, [key, item]) => sum + matchedLeaves(item, actual[key]), 0) : 0;
  }
  return firstDifference(expected, actual, '') === undefined ? 1 : 0;
}

/**
 * Where the calls meet a calledWith check: how many calls the tool had; the first whose
 * arguments contain `expected` (`at`); failing that, the closest call with readable arguments,
 * the one matching the most expected leaves (the first of equals), and where it differs.
 */
export interface ArgumentsMatch {
  called: number;
  at?: number;
  closest?: { at: number; differs: Difference };
}

export function matchArguments(calls: readonly CalledTool[], tool: string, expected: Readonly<Record<string, unknown>>): ArgumentsMatch {
  const mine = [...calls.keys()].filter((i) => calls[i]!.tool === tool);
  const readable = mine.filter((i) => calls[i]!.args !== undefined);
  const at = readable.find((i) => firstDifference(expected, calls[i]!.args, 'args') === undefined);
  if (at !== undefined) return { called: mine.length, at };
  if (readable.length === 0) return { called: mine.length };
  let closest = readable[0]!;
  for (const i of readable) if (matchedLeaves(expected, calls[i]!.args) > matchedLeaves(expected, calls[closest]!.args)) closest = i;
  return { called: mine.length, closest: { at: closest, differs: firstDifference(expected, calls[closest]!.args, 'args')! } };
}

/** Why no call of the tool had arguments containing `expected`, or undefined when one did. */
export function calledWithWhy(calls: readonly CalledTool[], tool: string, expected: Readonly<Record<string, unknown>>): string | undefined {
  const match = matchArguments(calls, tool, expected);
  if (match.at !== undefined) return undefined;
  if (match.called === 0) return `${tool} was never called`;
  if (match.closest === undefined) return `${tool} was called ${match.called} time(s), never with arguments that were a JSON object`;
  const { at, differs } = match.closest;
  return `no call of ${tool} (${match.called}) had the arguments; the closest, ${quote(calls[at]!.args)}, differs at ${differs.path}: ${differs.why}`;
}

/** The tools in the order they were called, a run of one tool written once with its count. */
export function orderSeen(calls: readonly CalledTool[]): string {
  if (calls.length === 0) return 'no calls';
  const runs: { tool: string; n: number }[] = [];
  for (const { tool } of calls) {
    const last = runs.at(-1);
    if (last?.tool === tool) last.n += 1;
    else runs.push({ tool, n: 1 });
  }
  const shown = runs.slice(0, ORDER_SHOWN).map(({ tool, n }) => (n === 1 ? tool : `${tool} ×${n}`));
  const more = runs.length - ORDER_SHOWN;
  return more > 0 ? `${shown.join(', ')}, and ${more} more` : shown.join(', ');
}

/**
 * The calls that hold the tools in this order, by index: loose, the first call of each tool in
 * turn (an ordered subsequence: other calls may come between); strict, the first run of them
 * with nothing between. Fewer than the tools when the calls do not hold them: loose, those
 * found before the order broke; strict, the longest run that began it (the first of equals).
 */
export function sequenceMatch(calls: readonly CalledTool[], tools: readonly string[], strict: boolean): number[] {
  if (!strict) {
    const found: number[] = [];
    // Past the last tool, tools[found.length] is undefined and matches no call.
    for (const [i, call] of calls.entries()) if (call.tool === tools[found.length]) found.push(i);
    return found;
  }
  let longest: number[] = [];
  for (const start of calls.keys()) {
    const run: number[] = [];
    // A start too near the end meets undefined past the last call, which matches no tool.
    while (run.length < tools.length && calls[start + run.length]?.tool === tools[run.length]) run.push(start + run.length);
    if (run.length > longest.length) longest = run;
  }
  return longest;
}

/** Why the calls do not hold the tools in this order, or undefined when they do (sequenceMatch). */
export function sequenceWhy(calls: readonly CalledTool[], tools: readonly string[], strict: boolean): string | undefined {
  const found = sequenceMatch(calls, tools, strict).length;
  if (found === tools.length) return undefined;
  if (strict) return `${tools.join(', ')} were never called in this order with nothing between; the order seen: ${orderSeen(calls)}`;
  const where = found === 0 ? `${tools[0]} was never called` : `${tools[found]} was not called after ${tools[found - 1]}`;
  return `${where}; the order seen: ${orderSeen(calls)}`;
}
