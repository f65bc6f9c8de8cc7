// What a judge model is asked and how its answer is read. The judge sees what the step's
// deterministic checks see (the prompt, each call with its arguments and outcome, the final
// answer), not the tools' replies: those are not kept in every trace (`--redact content`), and a
// verdict must be reproducible from what was recorded.
import type { ModelRequest } from '../models/types.ts';

/** The part of a step's call a judge reads (src/rungs/checks.ts StepCall): the checks sit above the judge. */
export interface JudgedCall {
  tool: string;
  /** Absent for a call whose arguments were not a JSON object. */
  args?: Readonly<Record<string, unknown>>;
  outcome: string;
}

/** The part of a step a judge reads. */
export interface JudgedStep {
  /** The step's prompt ('' when the trace does not hold it). */
  prompt: string;
  calls: readonly JudgedCall[];
  answer: string;
}

export interface Verdict {
  passed: boolean;
  /** The judge's one paragraph of why. */
  why: string;
}

/** Made per request, not held in a module constant: Stryker runs a module-level mutant unactivated. */
const instructions = (): string => [
  "You judge one step of an AI agent's work against a rubric.",
  'You get the rubric, the task the agent was given, every tool call it made in order (tool, arguments, outcome), and its final answer.',
  'Decide only whether the step meets the rubric; judge what was done, not how it was phrased.',
  'Reply with one JSON object and nothing else: {"verdict": "pass" or "fail", "why": "one short paragraph"}.',
].join(' ');

/** The transcript as the judge reads it; also what a verdict is cached by. */
export function transcriptText(step: JudgedStep): string {
  const calls = step.calls.length === 0
    ? ['(no tool calls)']
    : step.calls.map((c, i) => `${i + 1}. ${c.tool} ${c.args === undefined ? '(arguments not a JSON object)' : JSON.stringify(c.args)} -> ${c.outcome}`);
  return [
    '# Task', step.prompt === '' ? '(the prompt was not recorded)' : step.prompt,
    '', '# Tool calls', ...calls,
    '', '# Final answer', step.answer === '' ? '(the step ended without an answer)' : step.answer,
  ].join('\n');
}

/** The request sent to the judge model: no tools, temperature 0, room for a paragraph. */
export function judgeRequest(rubric: string, transcript: string): ModelRequest {
  return {
    messages: [
      { role: 'system', content: instructions() },
      { role: 'user', content: `# Rubric\n${rubric}\n\n${transcript}` },
    ],
    tools: [],
    options: { temperature: 0, maxTokens: 600 },
  };
}

/**
 * The verdict in a judge's reply: the JSON object in it (a model may wrap it in a code fence or a
 * sentence); a string saying why when there is none to read.
 */
export function readVerdict(text: string): Verdict | string {
  // From the first { to the last }: a why may hold braces of its own.
  const object = /\{[\s\S]*\}/.exec(text)?.[0];
  const shown = JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
  if (object === undefined) return `the judge's reply holds no JSON object: ${shown}`;
  let value: unknown;
  try {
    value = JSON.parse(object);
  } catch {
    return `the judge's reply is not valid JSON: ${shown}`;
  }
  const { verdict, why } = (value ?? {}) as { verdict?: unknown; why?: unknown };
  if (verdict !== 'pass' && verdict !== 'fail') return `the judge's verdict is ${JSON.stringify(verdict)}, not "pass" or "fail"`;
  return { passed: verdict === 'pass', why: typeof why === 'string' && why.trim() !== '' ? why.trim() : '(the judge gave no reason)' };
}
