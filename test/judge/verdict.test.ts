// What the judge reads, and how its reply is read back.
import { describe, expect, it } from 'vitest';
import { judgeRequest, readVerdict, transcriptText } from '../../src/judge/verdict.ts';

describe('judge transcript', () => {
  it('lists the task, every call with its arguments and outcome in order, and the answer', () => {
    expect(transcriptText({
      prompt: 'Archive the report.',
      calls: [
        { tool: 'fs__read', args: { path: 'a.md' }, outcome: 'ok' },
        { tool: 'fs__move', outcome: 'invalid_arguments' },
      ],
      answer: 'Done.',
    })).toBe([
      '# Task', 'Archive the report.', '', '# Tool calls',
      '1. fs__read {"path":"a.md"} -> ok', '2. fs__move (arguments not a JSON object) -> invalid_arguments',
      '', '# Final answer', 'Done.',
    ].join('\n'));
  });

  it('says what is missing rather than leaving it blank', () => {
    const text = transcriptText({ prompt: '', calls: [], answer: '' });
    expect(text).toBe('# Task\n(the prompt was not recorded)\n\n# Tool calls\n(no tool calls)\n\n# Final answer\n(the step ended without an answer)');
  });

  it('asks with no tools, at temperature 0, the rubric before the transcript', () => {
    const request = judgeRequest('Be right.', 'T');
    expect(request.tools).toStrictEqual([]);
    expect(request.options).toStrictEqual({ temperature: 0, maxTokens: 600 });
    expect(request.messages[0]!.role).toBe('system');
    // The whole instruction, word for word: a judge's verdicts are only comparable under the same one.
    expect(request.messages[0]!.content).toBe(
      "You judge one step of an AI agent's work against a rubric. " +
      'You get the rubric, the task the agent was given, every tool call it made in order (tool, arguments, outcome), and its final answer. ' +
      'Decide only whether the step meets the rubric; judge what was done, not how it was phrased. ' +
      'Reply with one JSON object and nothing else: {"verdict": "pass" or "fail", "why": "one short paragraph"}.',
    );
    expect(request.messages[1]).toStrictEqual({ role: 'user', content: '# Rubric\nBe right.\n\nT' });
  });
});

describe('reading a verdict', () => {
  it('reads the JSON object wherever it is in the reply', () => {
    expect(readVerdict('{"verdict":"pass","why":" Fine. "}')).toStrictEqual({ passed: true, why: 'Fine.' });
    expect(readVerdict('{"verdict":"fail","why":"It wrote {x} where {y} was asked."} done')).toStrictEqual({ passed: false, why: 'It wrote {x} where {y} was asked.' });
    expect(readVerdict('Here it is:\n```json\n{"verdict": "fail", "why": "No count."}\n```')).toStrictEqual({ passed: false, why: 'No count.' });
  });

  it('keeps a verdict without a reason, and says so', () => {
    expect(readVerdict('{"verdict":"fail"}')).toStrictEqual({ passed: false, why: '(the judge gave no reason)' });
    expect(readVerdict('{"verdict":"pass","why":"  "}')).toStrictEqual({ passed: true, why: '(the judge gave no reason)' });
    expect(readVerdict('{"verdict":"pass","why":3}')).toStrictEqual({ passed: true, why: '(the judge gave no reason)' });
  });

  it('says why there is no verdict, quoting the start of the reply', () => {
    expect(readVerdict('It passes.')).toBe('the judge\'s reply holds no JSON object: "It passes."');
    expect(readVerdict('} then {')).toBe('the judge\'s reply holds no JSON object: "} then {"');
    expect(readVerdict('{verdict: pass}')).toBe('the judge\'s reply is not valid JSON: "{verdict: pass}"');
    expect(readVerdict('{"verdict":"PASS"}')).toBe('the judge\'s verdict is "PASS", not "pass" or "fail"');
    expect(readVerdict('null {}')).toBe('the judge\'s verdict is undefined, not "pass" or "fail"');
    expect(readVerdict(`${'x'.repeat(100)}`)).toBe(`the judge's reply holds no JSON object: "${'x'.repeat(80)}…"`);
    expect(readVerdict(`{${'x'.repeat(79)}`)).toBe(`the judge's reply holds no JSON object: "{${'x'.repeat(79)}"`);
  });
});
