// What the agent loop is given for each step: step by step, or the whole rung as one run.
import { describe, expect, it } from 'vitest';
import { ARM_ON, parseArm } from '../../src/lane/arm.ts';
import { parseRung } from '../../src/rungs/load.ts';
import { stepSpecs } from '../../src/runner/pass.ts';

/** Three steps: two with an answer check (alpha, beta), the middle one with none. */
const rung = parseRung('r.yaml', `name: r
description: d
servers: {}
steps:
  - prompt: find alpha
    ceiling: 2
    timeLimitS: 40
    checks: [{ answer: { mentions: [alpha] } }]
    reference: { answer: alpha }
  - prompt: call it
    ceiling: 3
    timeLimitS: 50
    checks: [{ called: wb__files_read }]
    reference: { answer: done }
  - prompt: find beta
    ceiling: 4
    timeLimitS: 60
    checks: [{ answer: { mentions: [beta] } }, { answer: { matches: "^the" } }]
    reference: { answer: the beta }
`);

describe('stepSpecs step by step', () => {
  it('gives each step its index, prompt, ceiling and scaled time limit', () => {
    const specs = stepSpecs(rung, 0.5, 'steps');
    expect(specs.map(({ answerCheck: _, ...rest }) => rest)).toEqual([
      { index: 0, prompt: 'find alpha', ceiling: 2, timeLimitMs: 20_000 },
      { index: 1, prompt: 'call it', ceiling: 3, timeLimitMs: 25_000 },
      { index: 2, prompt: 'find beta', ceiling: 4, timeLimitMs: 30_000 },
    ]);
  });

  it('gives a step its answer check only when it has one, every answer check of the step in it', () => {
    const [first, second, third] = stepSpecs(rung, 1, 'steps');
    expect(first!.answerCheck!('alpha here')).toBe(true);
    expect(first!.answerCheck!('nothing here')).toBe(false);
    expect(second!.answerCheck).toBeUndefined();
    expect(third!.answerCheck!('the beta')).toBe(true);
    expect(third!.answerCheck!('a beta')).toBe(false);
  });

  it('uses the reliability layer\'s default arm when none is given', () => {
    const strip = (specs: ReturnType<typeof stepSpecs>) => specs.map(({ answerCheck: _, ...rest }) => rest);
    expect(strip(stepSpecs(rung, 1, 'steps'))).toEqual(strip(stepSpecs(rung, 1, 'steps', ARM_ON)));
    expect(stepSpecs(rung, 1, 'steps', parseArm('ceiling=x2,timeLimit=x1.5'))[0]).toMatchObject({ ceiling: 4, timeLimitMs: 60_000 });
  });
});

describe('stepSpecs in one shot', () => {
  it('is one spec: every prompt numbered, the ceilings and the time limits summed', () => {
    const specs = stepSpecs(rung, 1, 'oneshot');
    expect(specs).toHaveLength(1);
    const { answerCheck: _, ...spec } = specs[0]!;
    expect(spec).toEqual({
      index: 0, prompt: 'Task 1: find alpha\n\nTask 2: call it\n\nTask 3: find beta', ceiling: 9, timeLimitMs: 150_000,
    });
  });

  it('sums the time limits after each is scaled and floored', () => {
    // 40, 50 and 60 s at 0.1 are each below the 20 s floor: 3 x 20 s, not 15 s floored once.
    expect(stepSpecs(rung, 0.1, 'oneshot')[0]!.timeLimitMs).toBe(60_000);
  });

  it('answers its check only when the text passes every step\'s answer checks', () => {
    const [spec] = stepSpecs(rung, 1, 'oneshot');
    expect(spec!.answerCheck!('the beta and alpha')).toBe(true);
    expect(spec!.answerCheck!('the beta only')).toBe(false);
    expect(spec!.answerCheck!('alpha, beta')).toBe(false);
  });

  it('has no answer check when no step has one', () => {
    const calls = parseRung('r.yaml', `name: r
description: d
servers: {}
steps:
  - { prompt: a, ceiling: 1, checks: [{ called: wb__x }], reference: { answer: a } }
  - { prompt: b, ceiling: 1, checks: [{ called: wb__y }], reference: { answer: b } }
`);
    expect(stepSpecs(calls, 1, 'oneshot')[0]!.answerCheck).toBeUndefined();
    expect(stepSpecs(calls, 1, 'oneshot')[0]!.prompt).toBe('Task 1: a\n\nTask 2: b');
  });
});
