// `ladder show` in the terminal: a transcript and the list of passes that did not pass, laid
// out from the models in ../transcript/. Colour is a Paint passed in (ANSI on a terminal,
// none otherwise), so the words are the same either way.
import type { FailureList } from '../transcript/run.ts';
import type { Body, CallView, RoundView, StepView, Tone, TranscriptView } from '../transcript/view.ts';

export type Style = Tone | 'bold' | 'dim';
export type Paint = (style: Style, text: string) => string;

export const noColour: Paint = (_style, text) => text;

const ANSI: Record<Style, [number, number]> = {
  good: [32, 39], bad: [31, 39], warn: [33, 39], plain: [0, 0], bold: [1, 22], dim: [2, 22],
};

export const ansiColour: Paint = (style, text) => {
  const [on, off] = ANSI[style];
  return on === 0 || text === '' ? text : `\u001b[${on}m${text}\u001b[${off}m`;
};

/** A body's lines under `indent`, each after `prefix`; a text not recorded is one dim line. */
function bodyLines(b: Body, indent: string, prefix: string, paint: Paint, style: Style = 'plain'): string[] {
  if (b.kind === 'missing') return [`${indent}${paint('dim', `[${b.says}]`)}`];
  return [
    ...b.lines.map((line) => `${indent}${prefix}${paint(style, line)}`.trimEnd()),
    ...(b.more === null ? [] : [`${indent}${paint('dim', `… ${b.more}`)}`]),
  ];
}

function callLines(c: CallView, paint: Paint): string[] {
  const args = c.args.kind === 'missing' ? paint('dim', `[${c.args.says}]`) : c.args.lines.join(' ');
  return [
    `    → ${paint('bold', c.name)} ${args}`,
    ...(c.args.kind === 'text' && c.args.more !== null ? [`      ${paint('dim', `… ${c.args.more}`)}`] : []),
    `      ${paint(c.tone, c.status)}`,
    ...c.checks.map((k) => `      ${paint(k.tone, `${k.tone === 'good' ? '✓' : '✗'} ${k.text}`)}`),
    ...(c.result === null ? [] : bodyLines(c.result, '      ', '│ ', paint, 'dim')),
  ];
}

function roundLines(r: RoundView, paint: Paint): string[] {
  return [
    `  ${paint('bold', r.label)}${r.detail === '' ? '' : ` ${paint('dim', `(${r.detail})`)}`}`,
    ...(r.mark === null ? [] : [`    ${paint('warn', `◆ ${r.mark}`)}`]),
    ...(r.error === null ? [] : [`    ${paint('warn', r.error)}`]),
    ...r.adaptations.map((a) => `    ${paint('dim', `Adapted for the provider: ${a}`)}`),
    ...r.thinking.flatMap((t) => [`    ${paint('dim', 'Thinking:')}`, ...bodyLines(t, '      ', '', paint, 'dim')]),
    ...(r.refusal === null ? [] : [`    ${paint('warn', 'Refusal:')}`, ...bodyLines(r.refusal, '      ', '', paint)]),
    ...(r.text === null ? [] : bodyLines(r.text, '    ', '', paint)),
    ...r.calls.flatMap((c) => callLines(c, paint)),
  ];
}

function stepLines(s: StepView, paint: Paint): string[] {
  return [
    '',
    paint('bold', `${s.heading}: ${paint(s.tone, s.status)}`),
    ...(s.prompt === null ? [] : ['  Prompt:', ...bodyLines(s.prompt, '    ', '', paint)]),
    `  Tools: ${s.tools}`,
    ...s.asked.map((a) => `  Asked for input: ${a}`),
    ...s.rounds.flatMap((r) => roundLines(r, paint)),
    `  ${paint(s.tone, `Ended: ${s.end}`)}`,
    ...s.failedChecks.map((c) => `  ${paint('bad', `✗ ${c.check}: ${c.why}`)}`),
    ...s.judgedPassed.map((c) => `  ${paint('good', `✓ ${c.check}: judged by ${c.model}`)}`),
  ];
}

export function renderTranscriptText(view: TranscriptView, paint: Paint = noColour): string {
  const lines = [
    paint('bold', paint(view.tone, view.title)),
    view.facts,
    ...(view.failure === null ? [] : [paint(view.tone, `Why: ${view.failure}`)]),
    ...view.notes.map((n) => paint('warn', `Note: ${n}`)),
    ...(view.system === null ? [] : ['', paint('bold', 'System prompt'), ...bodyLines(view.system, '  ', '', paint)]),
    ...view.steps.flatMap((s) => stepLines(s, paint)),
  ];
  return `${lines.join('\n')}\n`;
}

export function renderFailureList(list: FailureList, paint: Paint = noColour): string {
  const width = (pick: (r: FailureList['rows'][number]) => string): number => Math.max(0, ...list.rows.map((r) => pick(r).length));
  const [ws, wr, wa, wp] = [width((r) => r.status), width((r) => r.rung), width((r) => r.arm), width((r) => r.pass)];
  const rows = list.rows.map((r) =>
    `  ${paint(r.tone, r.status.padEnd(ws))}  ${r.rung.padEnd(wr)}  ${r.arm.padEnd(wa)}  ${r.pass.padEnd(wp)}  ${r.why}`.trimEnd());
  const lines = [
    paint('bold', list.title),
    ...(list.notice === null ? [] : [paint('warn', `NOTE: ${list.notice}`)]),
    ...(list.conversations === null ? [] : [paint('warn', `NOTE: ${list.conversations}`)]),
    ...(rows.length === 0 ? [] : ['', ...rows]),
    ...(list.leftOut.length === 0 ? [] : ['', ...list.leftOut.map((l, i) => (i === 0 ? paint('warn', l) : `  ${l}`))]),
    '',
    paint('dim', list.hint),
  ];
  return `${lines.join('\n')}\n`;
}
