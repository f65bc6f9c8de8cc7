// A pass's transcript: built from its events, worded once (view.ts), laid out for the terminal
// and for HTML. The expected lines are what a reader sees, written out in full.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CEILING_TEXT } from '../../src/agent/calls.ts';
import { renderTranscriptText, ansiColour } from '../../src/report/render/transcriptText.ts';
import { transcriptHtml } from '../../src/report/render/transcriptHtml.ts';
import { buildTranscript } from '../../src/report/transcript/build.ts';
import type { PassTranscript } from '../../src/report/transcript/build.ts';
import { firstDivergence } from '../../src/report/transcript/diverge.ts';
import { loadRun } from '../../src/report/summary.ts';
import { readTranscript } from '../../src/report/transcript/read.ts';
import { passGrids } from '../../src/report/transcript/run.ts';
import type { RungGrid } from '../../src/report/transcript/run.ts';
import { NO_FOLD } from '../../src/report/transcript/fold.ts';
import { transcriptView } from '../../src/report/transcript/view.ts';
import type { ViewOptions } from '../../src/report/transcript/view.ts';
import { redactEvent } from '../../src/trace/index.ts';
import type { TraceEvent, TraceEventInput } from '../../src/trace/index.ts';
import type { ScriptStep } from './transcriptTrace.ts';
import { tempDir } from './runBuilder.ts';
import { scriptedPass } from './transcriptTrace.ts';

const BROWSE = { name: 'wb__browse', args: { url: 'http://site.local' } };
const DEAD = 'browser upstream: session closed';

function transcript(steps: ScriptStep[], options: Parameters<typeof scriptedPass>[1] = {}): PassTranscript {
  return buildTranscript(scriptedPass(steps, options))!;
}

function text(steps: ScriptStep[], view: ViewOptions = {}): string[] {
  return renderTranscriptText(transcriptView(transcript(steps), view)).split('\n');
}

/** The lines of one call: the arrow line and what is indented under it. */
function callAt(lines: string[], arrow: string, nth = 0): string[] {
  const starts = lines.flatMap((l, i) => (l === arrow ? [i] : []));
  const start = starts[nth];
  if (start === undefined) throw new Error(`no line ${JSON.stringify(arrow)} in:\n${lines.join('\n')}`);
  const end = lines.findIndex((l, i) => i > start && !l.startsWith('      '));
  return lines.slice(start, end);
}

const browseArrow = '    → wb__browse {"url":"http://site.local"}';

describe('a transcript in the terminal', () => {
  it('shows a refused call as refused by the breaker, with the round its identical call failed at', () => {
    const lines = text([{
      rounds: [
        { calls: [{ name: 'wb__read', outcome: 'ok', result: 'notes' }] },
        { calls: [{ ...BROWSE, outcome: 'failed', errorType: 'tool_error', result: DEAD, ms: 7 }] },
        { calls: [{ ...BROWSE, outcome: 'refused', errorType: 'breaker', result: `${DEAD}\nNot sent again: the identical call failed at round 2 of this turn.` }] },
        { text: 'The page could not be checked.' },
      ],
    }]);
    expect(callAt(lines, browseArrow, 0)).toEqual([browseArrow, '      failed (tool_error) in 7 ms', `      │ ${DEAD}`]);
    expect(callAt(lines, browseArrow, 1)).toEqual([
      browseArrow,
      '      refused by the breaker: the identical call failed at round 2 of this step; not sent',
      `      │ ${DEAD}`,
      '      │ Not sent again: the identical call failed at round 2 of this turn.',
    ]);
    expect(lines.slice(lines.indexOf('  Round 4 (1,004 tokens in, 10 out)'))).toEqual([
      '  Round 4 (1,004 tokens in, 10 out)', '    The page could not be checked.', '  Ended: answered after 4 rounds and 3 calls, in 40 ms; passed', '',
    ]);
  });

  it('opens with the pass, its status and why, then each step with its prompt, tools and failed checks', () => {
    const lines = text([{
      prompt: 'Read a.md and answer.',
      rounds: [{ text: 'It says nothing.' }],
      passed: false,
      failedChecks: [{ check: 'answer', why: 'the answer does not mention "1.4.2"' }],
    }]);
    expect(lines).toEqual([
      'r, arm on, pass 0: failed',
      'seed 7, 1 step, 100 ms',
      'Why: step 0: answer: the answer does not mention "1.4.2"',
      '',
      'Step 0: failed',
      '  Prompt:',
      '    Read a.md and answer.',
      '  Tools: 2 tools offered: wb__read, wb__browse',
      '  Round 1 (1,001 tokens in, 10 out)',
      '    It says nothing.',
      '  Ended: answered after 1 round and 0 calls, in 40 ms; failed',
      '  ✗ answer: the answer does not mention "1.4.2"',
      '',
    ]);
  });

  it('names the mechanism that acted on each call', () => {
    const lookup = { name: 'wb__lookup', args: { topic: 'x' }, result: 'the answer' };
    const lines = text([
      {
        rounds: [
          { calls: [{ ...lookup, outcome: 'ok' }] },
          { calls: [{ ...lookup, outcome: 'ok' }] },
          { calls: [{ ...lookup, outcome: 'short_circuited', result: 'Identical to the answer at turn 1, round 1; asked 3 times.' }] },
          { calls: [{ name: 'wb__jobs_wait', args: { timeoutMs: 100000 }, outcome: 'ok', ms: 30000,
            result: JSON.stringify({ done: false, jobs: [], remainingMs: 69000, waitedMs: 31000 }) }] },
          { calls: [{ name: 'wb__slow', outcome: 'timeout', errorType: 'timeout', ms: 30000 }] },
          { calls: [{ name: 'wb__slow', outcome: 'timeout', errorType: 'abandoned', ms: 12000 }] },
          { calls: [{ name: 'wb__read', outcome: 'unavailable', errorType: 'circuit_open', result: 'server wb unavailable since ...' }] },
          { calls: [{ name: 'gone__read', outcome: 'unavailable', errorType: 'not_started', server: 'gone' }] },
          { calls: [{ name: 'wb__read', outcome: 'ok', probe: true }] },
          { calls: [{ name: 'wb__read', result: CEILING_TEXT }] },
        ],
        reason: 'ceiling',
        passed: false,
      },
    ]);
    const statuses = lines.filter((l) => /^ {6}[a-z]/.test(l));
    expect(statuses).toEqual([
      '      ok in 5 ms',
      '      ok in 5 ms',
      '      short-circuited as a repeat: identical to the answer at step 0, round 1 (asked 3 times); not sent',
      '      ok in 30.0 s; wait capped by the workbench after 31.0 s: not finished, 69,000 ms of the budget left',
      '      timed out after 30.0 s: no answer in time; the tool may still be running',
      '      abandoned after 12.0 s: the step stopped while it ran; the server was asked to cancel it',
      '      unavailable: circuit open, server wb kept failing; not sent',
      '      unavailable: server gone did not start; not sent',
      '      ok in 5 ms; the one probe let through a half-open circuit',
      "      not made: the step's tool-call ceiling was reached",
    ]);
    expect(lines).toContain('  Ended: stopped at the tool-call ceiling (8 calls) after 10 rounds and 9 calls, in 40 ms; failed');
    expect(lines[2]).toBe('Why: step 0 stopped at the tool-call ceiling (8 calls) after 10 rounds and 9 calls, in 40 ms');
  });

  it("shows the model's thinking and refusal, what the adapter changed, and a call it found invalid", () => {
    const lines = text([{
      rounds: [
        {
          thinking: ['The notes first.', null],
          adaptations: [{ kind: 'schema', tool: 'wb__read', changes: ['dropped "format"'] }, { kind: 'name', tool: 'wb__read', sent: 'wb_read' }],
          calls: [{ name: 'wb__read', invalid: 'The call was cut off at max_tokens, so wb__read was not called.' }],
        },
        { refusal: 'I cannot help with that.' },
      ],
    }]);
    expect(lines.slice(lines.indexOf('  Round 1 (1,001 tokens in, 10 out)'), -2)).toEqual([
      '  Round 1 (1,001 tokens in, 10 out)',
      '    Adapted for the provider: the schema of wb__read rewritten: dropped "format"',
      '    Adapted for the provider: wb__read sent as wb_read',
      '    Thinking:',
      '      The notes first.',
      '    Thinking:',
      '      [thinking sealed by the provider]',
      '    → wb__read {"path":"a.md"}',
      '      not made: the adapter found the call invalid (the result says why)',
      '      │ The call was cut off at max_tokens, so wb__read was not called.',
      '  Round 2 (1,002 tokens in, 10 out)',
      '    Refusal:',
      '      I cannot help with that.',
    ]);
  });

  it('folds a long result to its first lines and says how much more there was; --full folds nothing', () => {
    const long = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n');
    const steps: ScriptStep[] = [{ rounds: [{ calls: [{ outcome: 'ok', result: long }] }, { text: 'done' }] }];
    const folded = callAt(text(steps), '    → wb__read {"path":"a.md"}');
    expect(folded.slice(2)).toEqual([
      ...Array.from({ length: 8 }, (_, i) => `      │ line ${i + 1}`),
      `      … 12 more lines; ${Buffer.byteLength(long)} bytes in all`,
    ]);
    const full = callAt(text(steps, { fold: NO_FOLD }), '    → wb__read {"path":"a.md"}');
    expect(full.slice(2)).toEqual(Array.from({ length: 20 }, (_, i) => `      │ line ${i + 1}`));
  });

  it('cuts a one-line result that runs on, and says its size', () => {
    const wide = 'x'.repeat(1000);
    const lines = callAt(text([{ rounds: [{ calls: [{ outcome: 'ok', result: wide }] }] }]), '    → wb__read {"path":"a.md"}');
    expect(lines.slice(2)).toEqual([`      │ ${'x'.repeat(240)}…`, '      … 1,000 bytes in all']);
  });

  it('shows only the step asked for, and tools unchanged from the step before once', () => {
    const steps: ScriptStep[] = [{ rounds: [{ text: 'a' }] }, { rounds: [{ text: 'b' }] }];
    const lines = text(steps, { step: 1 });
    expect(lines.filter((l) => l.startsWith('Step '))).toEqual(['Step 1: passed']);
    expect(lines).toContain('  Tools: 2 tools offered, the same as in step 0');
  });

  it('says what a redacted trace left out, with sizes and hashes, and still names the mechanisms', () => {
    const events = scriptedPass([{
      rounds: [
        { calls: [{ ...BROWSE, outcome: 'failed', errorType: 'tool_error', result: DEAD }] },
        { calls: [{ ...BROWSE, outcome: 'refused', errorType: 'breaker', result: DEAD }] },
        { text: 'No page.' },
      ],
    }]);
    const redacted = events.map((e) => ({ ...redactEvent(e as TraceEventInput), v: e.v, t: e.t }) as TraceEvent);
    const lines = renderTranscriptText(transcriptView(buildTranscript(redacted)!)).split('\n');
    expect(lines.slice(0, 7)).toEqual([
      'r, arm on, pass 0: passed',
      'seed 7, 1 step, 100 ms',
      "Note: Recorded with --redact content: prompts, the model's text, arguments and results were kept as sizes and hashes only.",
      '',
      'Step 0: passed',
      '  Prompt:',
      expect.stringMatching(/^ {4}\[prompt not recorded \(17 bytes, hash [0-9a-f]{16}\)\]$/),
    ]);
    expect(lines).toContain('  Tools: 2 tools offered (names not recorded)');
    const refused = callAt(lines, '    → wb__browse [arguments not recorded (27 bytes)]', 1);
    expect(refused.slice(1)).toEqual([
      '      refused by the breaker: the identical call failed at round 1 of this step; not sent',
      expect.stringMatching(/^ {6}\[result not recorded \(32 bytes, hash [0-9a-f]{16}\)\]$/),
    ]);
    expect(lines).toContain('    [text not recorded (8 bytes)]');
  });

  it('says when a pass did not finish, and why an errored step errored', () => {
    const t = transcript([{ rounds: [{ error: 'rate_limited' }], passed: false, reason: 'errored' }], { end: false });
    const lines = renderTranscriptText(transcriptView(t)).split('\n');
    expect(lines.slice(0, 4)).toEqual([
      'r, arm on, pass 0: unfinished',
      'seed 7, 1 step',
      'Why: step 0 errored: rate_limited',
      'Note: The pass did not finish (its trace ends before pass.end); what was recorded is shown.',
    ]);
    expect(lines).toContain('    no response: rate_limited after 3 attempts');
  });

  it('colours by tone on request, and the words stay the same', () => {
    const steps: ScriptStep[] = [{ rounds: [{ calls: [{ outcome: 'failed', errorType: 'tool_error' }] }], passed: false }];
    const view = transcriptView(transcript(steps));
    const coloured = renderTranscriptText(view, ansiColour);
    expect(coloured).toContain('\u001b[31mfailed (tool_error) in 5 ms\u001b[39m');
    expect(coloured.replace(/\u001b\[\d+m/g, '')).toBe(renderTranscriptText(view));
  });
});

describe('the same transcript in HTML', () => {
  it('says every line the terminal says', () => {
    const view = transcriptView(transcript([{
      rounds: [
        { calls: [{ ...BROWSE, outcome: 'failed', errorType: 'tool_error', result: DEAD }] },
        { calls: [{ ...BROWSE, outcome: 'refused', errorType: 'breaker', result: DEAD }] },
        { text: 'No <page>.' },
      ],
      passed: false,
      failedChecks: [{ check: 'answer', why: 'the answer does not mention "banner"' }],
    }]));
    const html = transcriptHtml(view, 't-0')
      .replace(/<[^>]+>/g, '\n')
      .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
    const words = (s: string): string => s.replace(/\s+/g, ' ').trim();
    const terminal = renderTranscriptText(view).split('\n').map((l) => words(l.replace(/^\s*(│|→|✗|Prompt:|Tools:|Ended:|Why:)?/, ''))).filter(Boolean);
    const page = words(html);
    for (const line of terminal) expect(page).toContain(line);
    expect(html).toContain('No <page>.');
  });
});

describe('judged verdicts', () => {
  it('are labelled with the model that gave them, passed ones too, in the terminal and in HTML', () => {
    const passedCheck = 'judge {"rubric":"Names the port."}';
    const failedCheck = 'judge {"rubric":"Quotes the catalog."}';
    const view = transcriptView(transcript([{
      rounds: [{ text: 'Port 8080.' }],
      passed: false,
      failedChecks: [{ check: failedCheck, why: 'judged by openai:j: It quotes nothing.' }],
      judged: [{ check: passedCheck, passed: true, model: 'openai:j' }, { check: failedCheck, passed: false, model: 'openai:j' }],
    }]));
    expect(view.steps[0]!.judgedPassed).toStrictEqual([{ check: passedCheck, model: 'openai:j' }]);
    const text = renderTranscriptText(view);
    expect(text).toContain(`✓ ${passedCheck}: judged by openai:j`);
    expect(text).toContain(`✗ ${failedCheck}: judged by openai:j: It quotes nothing.`);
    expect(text).not.toContain(`✓ ${failedCheck}`);
    const html = transcriptHtml(view, 't-0').replace(/&quot;/g, '"');
    expect(html).toContain(`<li class="good">✓ ${passedCheck}: judged by openai:j</li>`);
  });
});

describe('where two arms part', () => {
  const steps = (second: 'failed' | 'refused'): ScriptStep[] => [{
    rounds: [
      { calls: [{ ...BROWSE, outcome: 'failed', errorType: 'tool_error', result: DEAD }] },
      { calls: [{ ...BROWSE, outcome: second, result: DEAD }] },
      { text: 'done' },
    ],
  }];

  it('is the first round where a call came out differently', () => {
    const off = transcript(steps('failed'), { arm: 'off' });
    const on = transcript(steps('refused'));
    expect(firstDivergence({ name: 'off', transcript: off }, { name: 'on', transcript: on })).toEqual({
      step: 0, round: 2, what: 'wb__browse: failed on off, refused by the breaker on on',
    });
  });

  it('is the first round where the model said something else, or one arm ended the step sooner', () => {
    const a = transcript([{ rounds: [{ calls: [{ outcome: 'ok' }] }, { text: 'yes' }] }]);
    const b = transcript([{ rounds: [{ calls: [{ outcome: 'ok' }] }, { calls: [{ outcome: 'ok' }] }, { text: 'yes' }] }]);
    const c = transcript([{ rounds: [{ calls: [{ outcome: 'ok' }] }] }]);
    expect(firstDivergence({ name: 'a', transcript: a }, { name: 'b', transcript: b })).toEqual({
      step: 0, round: 2, what: 'the model answered on a, called wb__read on b',
    });
    expect(firstDivergence({ name: 'a', transcript: a }, { name: 'c', transcript: c })).toEqual({
      step: 0, round: 2, what: 'c ended step 0 after 1 round; a went on',
    });
  });

  it('is nowhere when the conversations are the same but for the numbers a clock put in a result', () => {
    const at = (ms: number): PassTranscript => transcript([{ rounds: [{ calls: [{ outcome: 'ok', result: `{"waitedMs":${ms}}` }] }, { text: 'ok' }] }]);
    expect(firstDivergence({ name: 'a', transcript: at(310) }, { name: 'b', transcript: at(295) })).toBeNull();
  });
});

describe("the report's grid of passes", () => {
  it('has a cell per arm and pass (none for a pass cut short), and each pass with its arms compared', async () => {
    const grids = await passGrids(await loadRun('test/fixtures/runs/after'));
    expect(grids.map((g) => g.rung)).toEqual(['dead-browser', 'sql-insert']);
    const [browser, sql] = grids as [RungGrid, RungGrid];
    expect(browser.arms).toEqual(['on', 'off']);
    expect(browser.cells.map((row) => row.map((c) => c?.status ?? null))).toEqual([['failed', 'passed', null], ['passed', 'passed', 'failed']]);
    expect(browser.cells[0]![0]!.title).toBe('on pass 0: failed; step 1: answer: the answer does not mention the expected value');
    expect(browser.pairs.map((p) => p.divergence)).toEqual([
      ['off and on first differ at step 0, round 1: workbench__browser_open: failed on off, refused by the breaker on on.'],
      ['off and on first differ at step 0, round 1: workbench__browser_open: failed on off, refused by the breaker on on.'],
      ['on has no counted pass 2 to compare.'],
    ]);
    expect(browser.pairs[2]!.columns.map((c) => c.view?.title ?? null)).toEqual([null, 'dead-browser, arm off, pass 2: failed']);
    expect(sql.pairs[0]!.divergence).toEqual(['off and on: the same conversation throughout.']);
  });
});

describe('the transcript read for a counted pass', () => {
  const jsonl = (events: TraceEvent[]): string => events.map((e) => `${JSON.stringify(e)}\n`).join('');
  const attempt = (answer: string, options: { end?: boolean } = {}): TraceEvent[] => scriptedPass([{ rounds: [{ text: answer }] }], options);
  const record = { file: 'traces/r/on-0.jsonl', rung: 'r', arm: 'on', pass: 0 };

  it('is the attempt the report counts: the first in its file that ended and broke no rule', async () => {
    const tmp = tempDir('ladder-transcript-');
    try {
      mkdirSync(join(tmp.dir, 'traces/r'), { recursive: true });
      const path = join(tmp.dir, record.file);
      const answer = async (): Promise<string | undefined> => (await readTranscript(tmp.dir, record)).steps[0]!.rounds[0]!.text?.text;
      // Cut short, then made again on resume: the second attempt counts.
      writeFileSync(path, jsonl([...attempt('first', { end: false }), ...attempt('second')]));
      await expect(answer()).resolves.toBe('second');
      // Complete, then a damaged attempt appended: the first still counts.
      const damaged = attempt('third').map((e) => (e.type === 'step.end' ? { ...e, reason: 'exploded' } : e)) as TraceEvent[];
      writeFileSync(path, jsonl([...attempt('first'), ...damaged]));
      await expect(answer()).resolves.toBe('first');
      writeFileSync(path, jsonl(damaged));
      await expect(answer()).rejects.toThrow(/r on pass 0 is no longer in this trace/);
    } finally {
      tmp.remove();
    }
  });
});
