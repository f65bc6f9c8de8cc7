// A rung file's mistakes in plain words. zod and the YAML parser speak to programmers
// ("Invalid input: expected string, received undefined", "Nested mappings are not allowed in
// compact mappings"); a rung's author gets what is wrong and what was expected instead, at the
// line where the mistake is, not where the parser noticed it.
import type { LineCounter, YAMLError } from 'yaml';
import type { z } from 'zod';
import { nearest } from './nearest.ts';

type Path = (string | number)[];
type Issue = z.core.$ZodIssue;

const TYPE_WORDS: Record<string, string> = {
  string: 'text', number: 'a number', int: 'a whole number', boolean: 'true or false', array: 'a list',
  object: 'a mapping (key: value lines)', record: 'a mapping (key: value lines)',
};

/** What a value is, for "expected X, got Y". */
function what(value: unknown): string {
  if (value === null) return 'nothing (an empty value)';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'boolean') return `${value}`;
  if (typeof value === 'object') return 'a mapping';
  return String(value);
}

function valueAt(data: unknown, path: Path): unknown {
  let value = data;
  for (const key of path) value = value !== null && typeof value === 'object' ? (value as Record<string | number, unknown>)[key] : undefined;
  return value;
}

// zod's default messages begin with these; a message the schema wrote itself is kept as it is.
const ZOD_DEFAULT = /^(Invalid input|Invalid option|Too small|Too big|Unrecognized key|Invalid string|Invalid element)/;

/** The field names an object schema allows at `path`, walking arrays, records, defaults and optionals. */
function fieldsAt(schema: z.ZodType, path: Path): string[] | undefined {
  let def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  const unwrap = (): void => {
    while ((def.type === 'default' || def.type === 'optional' || def.type === 'prefault') && def.innerType) def = def.innerType._zod.def;
  };
  unwrap();
  for (const key of path) {
    if (def.type === 'object' && typeof key === 'string' && def.shape?.[key]) def = def.shape[key]._zod.def;
    else if (def.type === 'array' && typeof key === 'number' && def.element) def = def.element._zod.def;
    else if (def.type === 'record' && def.valueType) def = def.valueType._zod.def;
    else return undefined;
    unwrap();
  }
  return def.type === 'object' && def.shape ? Object.keys(def.shape) : undefined;
}

interface Def {
  type: string;
  innerType?: { _zod: { def: Def } };
  shape?: Record<string, { _zod: { def: Def } }>;
  element?: { _zod: { def: Def } };
  valueType?: { _zod: { def: Def } };
}

/** One problem: the path it is about, and what to say. */
export interface SchemaProblem {
  path: Path;
  text: string;
}

/**
 * A union (a server, a check) whose value named exactly one of its forms: that form's own
 * problems, which say what is wrong inside it, rather than "expected one of ...".
 */
function unionBranch(issue: Extract<Issue, { code: 'invalid_union' }>): Issue[] | undefined {
  const shaped = issue.errors.filter((branch) => !branch.some((i) => i.code === 'unrecognized_keys' && i.path.length === 0));
  return shaped.length === 1 ? shaped[0]!.map((i) => ({ ...i, path: [...issue.path, ...i.path] }) as Issue) : undefined;
}

export function schemaProblems(issues: readonly Issue[], data: unknown, schema: z.ZodType): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  for (const issue of issues) {
    const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
    if (issue.code === 'invalid_union') {
      const branch = unionBranch(issue);
      if (branch !== undefined) {
        out.push(...schemaProblems(branch, data, schema));
        continue;
      }
    }
    if (issue.code === 'unrecognized_keys') {
      const allowed = fieldsAt(schema, path) ?? [];
      for (const key of issue.keys) {
        const close = nearest(key, allowed);
        const hint = close !== undefined ? `; did you mean ${close}?` : allowed.length > 0 ? `; the fields here are ${allowed.join(', ')}` : '';
        out.push({ path: [...path, key], text: `unknown field${hint}` });
      }
      continue;
    }
    if (!ZOD_DEFAULT.test(issue.message)) {
      // A field's own message says what it takes; that it is absent is said first.
      const absent = issue.code === 'invalid_type' && valueAt(data, path) === undefined;
      out.push({ path, text: absent ? `missing; ${issue.message}` : issue.message });
      continue;
    }
    out.push({ path, text: plainWords(issue, valueAt(data, path)) });
  }
  return out;
}

function plainWords(issue: Issue, value: unknown): string {
  switch (issue.code) {
    case 'invalid_type': {
      const expected = TYPE_WORDS[issue.expected] ?? issue.expected;
      return value === undefined ? `missing; expected ${expected}` : `expected ${expected}, got ${what(value)}`;
    }
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return value === '' ? 'empty; expected some text' : `expected at least ${min} characters`;
      if (issue.origin === 'array') return `expected at least ${min} item${min === 1 ? '' : 's'}`;
      return `expected a number ${issue.inclusive ? 'of at least' : 'above'} ${min}, got ${what(value)}`;
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return `expected at most ${max} characters`;
      if (issue.origin === 'array') return `expected at most ${max} item${max === 1 ? '' : 's'}`;
      return `expected a number ${issue.inclusive ? 'of at most' : 'below'} ${max}, got ${what(value)}`;
    }
    case 'invalid_value':
      return `expected ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}, got ${what(value)}`;
    default:
      return issue.message;
  }
}

const YAML_WORDS: Record<string, string> = {
  TAB_AS_INDENT: 'a tab in the indentation; indent with spaces',
  BLOCK_AS_IMPLICIT_KEY: 'a second ": " on one line; put the value in quotes (prompt: \'Say: hi\')',
  MULTILINE_IMPLICIT_KEY: 'a key that runs over more than one line; check the indentation and the colons above',
  DUPLICATE_KEY: 'this key appears twice in the same mapping',
  BAD_INDENT: 'this line is not lined up with the lines of the same list or mapping; check its indentation',
};

/**
 * Where a quote or a flow bracket that is never closed was opened: the parser notices it only
 * where the text runs out, often lines later. Undefined when nothing is left open before `end`.
 */
export function unclosedAt(text: string, end: number): number | undefined {
  const open: number[] = [];
  let quote: { char: string; at: number } | undefined;
  for (let i = 0; i < end; i++) {
    const c = text[i]!;
    if (quote !== undefined) {
      if (quote.char === '"' && c === '\\') i++;
      else if (c === quote.char && quote.char === "'" && text[i + 1] === "'") i++;
      else if (c === quote.char) quote = undefined;
      continue;
    }
    const before = i === 0 ? '\n' : text[i - 1]!;
    if (c === '#' && /\s/.test(before)) {
      while (i < end && text[i] !== '\n') i++;
    } else if ((c === '"' || c === "'") && /[\s[{,:-]/.test(before)) quote = { char: c, at: i };
    else if (c === '[' || c === '{') open.push(i);
    else if ((c === ']' || c === '}') && open.length > 0) open.pop();
  }
  return quote?.at ?? open.at(-1);
}

/** The first YAML syntax error as one line's worth: `line`, and what is wrong there. Later errors follow from it. */
export function yamlProblem(text: string, error: YAMLError, lines: LineCounter): { line: number; text: string } {
  const message = error.message.split('\n')[0]!;
  const unclosed = /closing .?quote|end with a [\]}]/.test(message) ? unclosedAt(text, error.pos[0]) : undefined;
  if (unclosed !== undefined) {
    const what = text[unclosed] === '[' ? 'the [ opened here is never closed with ]'
      : text[unclosed] === '{' ? 'the { opened here is never closed with }'
      : `the ${text[unclosed]} opened here is never closed`;
    return { line: lines.linePos(unclosed).line, text: what };
  }
  const line = lines.linePos(error.pos[0]).line;
  // A " left open reads on, through the lines after it, to the first backslash that is not an
  // escape (a regular expression's \d in a later check): the line to fix is the quote's.
  const quote = error.code === 'BAD_DQ_ESCAPE' ? unclosedAt(text, error.pos[0]) : undefined;
  if (quote !== undefined && text[quote] === '"' && lines.linePos(quote).line < line) {
    const escape = /Invalid escape sequence (\S+)/.exec(message)?.[1] ?? 'a backslash';
    return { line: lines.linePos(quote).line, text: `the " opened here runs on to line ${line}, where ${escape} is not a valid escape; close the quote on its own line` };
  }
  if (error.code === 'DUPLICATE_KEY') {
    const key = /^\s*([^:#\n]+?)\s*:/.exec(text.split('\n')[line - 1] ?? '')?.[1];
    if (key !== undefined) return { line, text: `${key} appears twice in the same mapping` };
  }
  return { line, text: YAML_WORDS[error.code] ?? message };
}
