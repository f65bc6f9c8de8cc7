// Reads rung files. A malformed rung gives one line per problem with file, line and field
// path (`rungs/sql-insert.yaml:14 steps[1].ceiling: expected a positive integer`), so the
// author can go straight to it.
import { readFile } from 'node:fs/promises';
import { isNode, LineCounter, parseDocument, type Document } from 'yaml';
import { schemaProblems, yamlProblem } from './problems.ts';
import { rungSchema, type Rung } from './schema.ts';

export class RungError extends Error {
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(problems.join('\n'));
    this.name = 'RungError';
  }
}

export interface LoadedRung {
  file: string;
  /** The file's text, kept so the manifest can record a hash of exactly what ran. */
  text: string;
  rung: Rung;
}

export async function loadRung(file: string): Promise<LoadedRung> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new RungError(file, [`${file}: cannot read the rung file (${(error as NodeJS.ErrnoException).code ?? error})`]);
  }
  return { file, text, rung: parseRung(file, text) };
}

export function parseRung(file: string, text: string): Rung {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    // One line: the first syntax error; the parser's later ones mostly follow from it.
    const problem = yamlProblem(text, doc.errors[0]!, lines);
    throw new RungError(file, [`${file}:${problem.line} YAML syntax: ${problem.text}`]);
  }
  const data: unknown = doc.toJS();
  if (data === null || data === undefined) {
    throw new RungError(file, [`${file}:1 the file is empty; a rung has name, description, servers and steps (docs/runner.md, "The rung format")`]);
  }
  const parsed = rungSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  const problems = schemaProblems(parsed.error.issues, data, rungSchema).map(({ path, text: words }) => {
    const line = lineOf(doc, lines, path);
    return `${file}:${line} ${formatPath(path) || '(top level)'}: ${words}`;
  });
  throw new RungError(file, problems);
}

/** The line a field path starts on in a rung file's text, for problems found after parsing. */
export function lineOfPath(text: string, path: readonly (string | number)[]): number {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  return lineOf(doc, lines, [...path]);
}

/** The line of the deepest node on the path that exists (a missing field points at its parent). */
function lineOf(doc: Document, lines: LineCounter, path: (string | number)[]): number {
  for (let depth = path.length; depth >= 0; depth -= 1) {
    const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
  }
  return 1;
}

export function formatPath(path: readonly (string | number)[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}
