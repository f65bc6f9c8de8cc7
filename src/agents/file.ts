// The agent file (agents/*.yaml, or a user's own): how to start an external agent, where its
// config goes, and how to read its answer. Read like a rung file: every mistake is one line
// with file, line and field (`agents/mine.yaml:4 args[2]: unknown placeholder {promt}; did you
// mean {prompt}?`), so the author can go straight to it.
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { isNode, LineCounter, parseDocument, type Document } from 'yaml';
import { z } from 'zod';
import { PACKAGE_ROOT } from '../lane/install.ts';
import { nearest } from '../rungs/nearest.ts';
import { schemaProblems, yamlProblem, type SchemaProblem } from '../rungs/problems.ts';
import { PLACEHOLDERS, placeholdersIn, STEP_PLACEHOLDERS } from './placeholders.ts';

export class AgentFileError extends Error {
  constructor(
    readonly file: string,
    /** One line each: `file:line field: what is wrong and what to do`. */
    readonly problems: string[],
  ) {
    super(problems.join('\n'));
    this.name = 'AgentFileError';
  }
}

const answerSchema = z.union([
  z.enum(['stdout', 'last-line']),
  z.strictObject({ json: z.string().min(1, "expected a dotted path into the last JSON line of stdout, such as 'result.text'") }),
], { error: "expected stdout, last-line, or {json: 'a.b.c'} (a path into the last JSON line of stdout)" });

const envName = /^[A-Za-z_][A-Za-z0-9_]*$/;
const pinnedPackage = z.string().regex(/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*@\d+\.\d+\.\d+([-+][\w.-]+)?$/, 'expected an npm package pinned to an exact version, such as @openai/codex@0.171.0');

/** The field order here is the documented order (docs/agent.md, "External agents: the agent file"). */
export const agentFileSchema = z.strictObject({
  name: z.string().min(1),
  kind: z.enum(['exec', 'acp']),
  command: z.string().min(1, 'expected the command that starts the agent'),
  args: z.array(z.string()).default([]),
  /**
   * exec only: how the steps after the first go on from the pass's conversation. `args` replaces
   * `args` from the second step on (the agent's own flag to resume the session, with
   * `{sessionId}` or its own "the last session"). Absent: every step starts the agent anew, a
   * new conversation, which the reports say.
   */
  continue: z.strictObject({
    args: z.array(z.string()).min(1, "expected the arguments of the steps after the first, such as [-p, '{prompt}', --resume, '{sessionId}']"),
  }).optional(),
  env: z.record(z.string(), z.string()).default({}),
  /** Path -> content, both with placeholders, written before the pass starts. */
  files: z.record(z.string().min(1), z.string()).default({}),
  /** exec only; stdout (the default when absent) is the whole of stdout, trimmed. */
  answer: answerSchema.optional(),
  /** One line shown when the command is not installed: how to install it. */
  install: z.string().min(1).optional(),
  /**
   * The npm package and exact version a shipped recipe is pinned to (`@openai/codex@0.171.0`):
   * what `ladder agents install NAME` puts in the per-user agent cache, and the version a run expects.
   */
  package: pinnedPackage.optional(),
  /**
   * More npm packages, pinned, installed beside `package` in its cache folder (their commands in
   * `{agentBin}`): the agent an adapter runs, such as the Claude Code that Zed's Claude adapter
   * starts. Part of the version a run records (`0.23.1+claude-code-2.1.328`).
   */
  withPackages: z.array(pinnedPackage).optional(),
  /** How to ask the agent for its version at the start of a run: the arguments, and the version is the first x.y.z it prints. */
  version: z.strictObject({ args: z.array(z.string()).min(1, 'expected the arguments that make the agent print its version, such as [--version]') }).optional(),
  /** acp only: a session mode to set after session/new. */
  mode: z.string().min(1).optional(),
  /** acp only: how permission requests are answered; allow (the default) allows within the workspace. */
  permissions: z.enum(['allow', 'deny']).optional(),
  /**
   * acp only: the model the session runs, chosen after session/new among the models the agent's
   * session offers (a config option of category model, else its `models`), by id or by name;
   * with placeholders (`ladder/{model}`). Absent: the session keeps the model the agent chose.
   */
  sessionModel: z.string().min(1).optional(),
  /** acp only: session/new's `_meta`, for what an agent reads only there (Zed's Claude adapter: its tools). */
  sessionMeta: z.record(z.string(), z.unknown()).optional(),
  /**
   * Seconds of start-up (from starting the agent to its first model request) not charged to a
   * step's time limit; 30 when absent (src/agents/startup.ts says why).
   */
  startupAllowance: z.number().nonnegative('expected seconds, 0 or more').optional(),
  /** What the agent brings of its own (shell, file tools) and whether the recipe switches it off; shown, not used. */
  ownTools: z.string().optional(),
  /**
   * The agent's own loop guard, which it may not let anyone switch off (Qwen Code ends its run
   * on repeated identical calls). A line that matches `pattern` (a regular expression) ends the
   * step `agent_stopped`, with that line as the agent's message: of an exec agent's stderr or
   * stdout; of an acp agent's stderr, its messages and notices in the turn, or its error for
   * the turn.
   */
  loopGuard: z.strictObject({ pattern: z.string().min(1, "expected a regular expression for the agent's loop-guard message") }).optional(),
});

type Parsed = z.infer<typeof agentFileSchema>;
export type AgentAnswer = 'stdout' | 'last-line' | { json: string };

export type AgentFile = Omit<Parsed, 'answer' | 'permissions'> & {
  /** Where it was read from, for messages. */
  file: string;
  /** The folder the file is in, as `{agentDir}`: an agent shipped beside its file (examples/agents/). */
  dir: string;
  answer: AgentAnswer;
  permissions: 'allow' | 'deny';
};

const PLACEHOLDER_LIST = PLACEHOLDERS.map((p) => `{${p}}`).join(', ');

/** Mistakes the schema cannot see: placeholders, and fields that belong to the other kind. */
function meaningProblems(agent: Parsed, data: Record<string, unknown>): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  // `why` says why a step's own placeholders ({prompt}, {step}) cannot go there, with {name} for which.
  const placeholders = (text: string, path: (string | number)[], why: string | undefined): void => {
    for (const name of placeholdersIn(text)) {
      if ((STEP_PLACEHOLDERS as readonly string[]).includes(name)) {
        if (why !== undefined) out.push({ path, text: `{${name}} cannot go here: ${why.replaceAll('{name}', `{${name}}`)}` });
        continue;
      }
      if ((PLACEHOLDERS as readonly string[]).includes(name)) continue;
      const close = nearest(name, PLACEHOLDERS);
      const hint = close !== undefined ? `did you mean {${close}}?` : `the placeholders are ${PLACEHOLDER_LIST}; write {{${name}}} for the text {${name}}`;
      out.push({ path, text: `unknown placeholder {${name}}; ${hint}` });
    }
  };
  const acpPrompt = 'an acp agent gets each step\'s prompt over ACP (session/prompt), not in its command line';
  placeholders(agent.command, ['command'], 'the command is the same for every step; put {name} in args or env');
  agent.args.forEach((arg, i) => placeholders(arg, ['args', i], agent.kind === 'acp' ? acpPrompt : undefined));
  agent.continue?.args.forEach((arg, i) => placeholders(arg, ['continue', 'args', i], undefined));
  for (const [name, value] of Object.entries(agent.env)) {
    // zod words a bad record key as "Invalid key in record"; said here instead, in plain words.
    if (!envName.test(name)) out.push({ path: ['env', name], text: 'expected an environment variable name (letters, digits, _)' });
    placeholders(value, ['env', name], agent.kind === 'acp' ? acpPrompt : undefined);
  }
  const filesPrompt = 'files are written once, before the pass\'s first step; put {name} in args or env';
  for (const [path, content] of Object.entries(agent.files)) {
    placeholders(path, ['files', path], filesPrompt);
    placeholders(content, ['files', path], filesPrompt);
    const underPass = /^\{(home|workspace)\}(\/|$)/.test(path);
    if (!underPass && (isAbsolute(path) || path.split('/').includes('..'))) {
      out.push({ path: ['files', path], text: 'a file goes under {home} or {workspace} (or a path relative to the workspace), so nothing outside the pass\'s own folders is written' });
    }
  }
  if (agent.kind === 'acp' && data.answer !== undefined) {
    out.push({ path: ['answer'], text: 'only an exec agent\'s stdout is read for an answer; an acp agent\'s answer is the text of its agent messages: remove this field' });
  }
  if (agent.loopGuard !== undefined) {
    try {
      new RegExp(agent.loopGuard.pattern);
    } catch (error) {
      out.push({ path: ['loopGuard', 'pattern'], text: `not a regular expression (${(error as Error).message}); write the start of the agent's loop-guard message, with \\ before any of . * + ? ( ) [ ] { } | ^ $` });
    }
  }
  if (agent.sessionModel !== undefined) placeholders(agent.sessionModel, ['sessionModel'], acpPrompt);
  if (agent.withPackages !== undefined && agent.package === undefined) {
    out.push({ path: ['withPackages'], text: 'installed beside package, which this file does not give: add package, or remove this field' });
  }
  out.push(...continueProblems(agent));
  if (agent.kind === 'exec') {
    const acpOnly = {
      mode: 'a session mode set after session/new',
      permissions: 'how ACP permission requests are answered',
      sessionModel: 'the model chosen in the ACP session; give an exec agent its model in args',
      sessionMeta: "session/new's _meta",
    } as const;
    for (const [field, what] of Object.entries(acpOnly)) {
      if (data[field] !== undefined) out.push({ path: [field], text: `only for an acp agent (${what}); an exec agent runs unattended: remove this field` });
    }
  }
  return out;
}

/** `continue` that cannot work: on an acp agent, or at odds with what the first step gets. */
function continueProblems(agent: Parsed): SchemaProblem[] {
  const later = agent.continue?.args;
  if (later === undefined) return [];
  if (agent.kind === 'acp') {
    return [{ path: ['continue'], text: 'only for an exec agent (the arguments of the steps after the first); an acp agent keeps one session a pass by itself: remove this field' }];
  }
  const uses = (texts: readonly string[], name: string): boolean => texts.some((t) => placeholdersIn(t).includes(name));
  const env = Object.values(agent.env);
  if (later.length === agent.args.length && later.every((arg, i) => arg === agent.args[i])) {
    return [{ path: ['continue', 'args'], text: "the same as args, so nothing tells the agent to go on from the last step: give the agent's own resume flag here, or remove continue" }];
  }
  if (!uses(env, 'prompt') && uses(agent.args, 'prompt') !== uses(later, 'prompt')) {
    const where = uses(agent.args, 'prompt') ? ['args', 'continue.args'] : ['continue.args', 'args'];
    return [{ path: ['continue', 'args'], text: `{prompt} is in ${where[0]} but not in ${where[1]}, so one of them would get the prompt on stdin: put '{prompt}' in both, or in neither` }];
  }
  if (uses(later, 'sessionId') && !uses([...agent.args, ...env, ...Object.keys(agent.files), ...Object.values(agent.files)], 'sessionId')) {
    return [{ path: ['continue', 'args'], text: "{sessionId} is never given to the first step (args, env and files do not use it), so there is no session by that id to resume: start the session with it (for example --session-id '{sessionId}'), or resume the agent's last session" }];
  }
  return [];
}

export function parseAgentFile(file: string, text: string): AgentFile {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    const problem = yamlProblem(text, doc.errors[0]!, lines);
    throw new AgentFileError(file, [`${file}:${problem.line} YAML syntax: ${problem.text}`]);
  }
  const data: unknown = doc.toJS();
  if (data === null || data === undefined || typeof data !== 'object' || Array.isArray(data)) {
    throw new AgentFileError(file, [`${file}:1 an agent file is a mapping with name, kind (exec or acp), command and args (docs/agent.md, "External agents: the agent file")`]);
  }
  const say = (problems: SchemaProblem[]): AgentFileError =>
    new AgentFileError(file, problems.map(({ path, text: words }) => `${file}:${lineOf(doc, lines, path)} ${formatPath(path) || '(top level)'}: ${words}`));
  const parsed = agentFileSchema.safeParse(data);
  if (!parsed.success) throw say(schemaProblems(parsed.error.issues, data, agentFileSchema));
  const problems = meaningProblems(parsed.data, data as Record<string, unknown>);
  if (problems.length > 0) throw say(problems);
  return { ...parsed.data, file, dir: dirname(resolve(file)), answer: parsed.data.answer ?? 'stdout', permissions: parsed.data.permissions ?? 'allow' };
}

/** `args[2]`, `files.{home}/x`: a field path as the problem lines print it (as a rung's do). */
function formatPath(path: readonly (string | number)[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/** The line of the deepest node on the path that exists (a missing field points at its parent). */
function lineOf(doc: Document, lines: LineCounter, path: (string | number)[]): number {
  for (let depth = path.length; depth >= 0; depth -= 1) {
    const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
  }
  return 1;
}

/** The shipped recipes' folder: agents/ beside package.json, in a checkout and in an install. */
export const RECIPES = join(PACKAGE_ROOT, 'agents');

export function recipeNames(folder: string = RECIPES): string[] {
  try {
    return readdirSync(folder).filter((f) => f.endsWith('.yaml')).map((f) => f.slice(0, -'.yaml'.length)).sort();
  } catch {
    return [];
  }
}

/**
 * `--agent NAME`: a shipped recipe (agents/NAME.yaml) when there is one by that name, else a
 * path to an agent file. Neither: one line naming the recipes there are.
 */
export async function loadAgentFile(nameOrPath: string, recipes: string = RECIPES): Promise<AgentFile> {
  const recipe = join(recipes, `${nameOrPath}.yaml`);
  const isName = /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(nameOrPath) && !/\.ya?ml$/.test(nameOrPath);
  const file = isName && existsSync(recipe) ? recipe : nameOrPath;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      const names = recipeNames(recipes);
      const close = nearest(nameOrPath, names);
      const hint = close !== undefined ? `did you mean ${close}? ` : '';
      throw new AgentFileError(nameOrPath, [`${nameOrPath}: no shipped agent by that name and no such file; ${hint}the recipes are ${names.join(', ') || '(none)'}, or give the path of an agent file`]);
    }
    throw new AgentFileError(nameOrPath, [`${file}: cannot read the agent file (${code ?? String(error)})`]);
  }
  const parsed = parseAgentFile(isName && file === recipe ? `agents/${nameOrPath}.yaml` : file, text);
  return { ...parsed, dir: dirname(resolve(file)) };
}
