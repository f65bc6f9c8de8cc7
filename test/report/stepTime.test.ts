// A step's time split four ways, each millisecond once (src/report/stepTime.ts): spans that
// overlap count once, the first of start-up, model and tools takes a shared millisecond, and
// the four parts always add up to the step.
import { describe, expect, it } from 'vitest';
import { covered, merged, splitStepTime } from '../../src/report/stepTime.ts';

const span = (from: number, to: number) => ({ from, to });
const STEP = span(0, 100);

describe('merged', () => {
  it('cuts spans to the step, drops empty ones, sorts and joins those that overlap or touch', () => {
    expect(merged([span(50, 60), span(-10, 5), span(58, 70), span(70, 75), span(90, 120), span(30, 30), span(40, 35)], STEP))
      .toEqual([span(0, 5), span(50, 75), span(90, 100)]);
  });

  it('keeps apart spans with a gap, and keeps the longer end when one holds another', () => {
    expect(merged([span(10, 50), span(20, 30), span(51, 52)], STEP)).toEqual([span(10, 50), span(51, 52)]);
  });

  it('drops a span wholly outside the step', () => {
    expect(merged([span(-20, -10), span(100, 110), span(200, 300)], STEP)).toEqual([]);
  });

  it('does not change the spans it was given', () => {
    const given = [span(10, 20), span(15, 30)];
    merged(given, STEP);
    expect(given).toEqual([span(10, 20), span(15, 30)]);
  });
});

describe('covered', () => {
  it('counts each millisecond once', () => {
    expect(covered([span(10, 20), span(15, 30), span(40, 41)], STEP)).toBe(21);
    expect(covered([], STEP)).toBe(0);
  });
});

describe('splitStepTime', () => {
  it('is the model, the tools and the rest, one after another, for the built-in loop', () => {
    expect(splitStepTime({ step: STEP, model: [span(0, 30), span(50, 60)], tools: [span(30, 45)] }))
      .toEqual({ startupMs: 0, modelMs: 40, toolMs: 15, otherMs: 45 });
  });

  it('counts calls made at once once', () => {
    expect(splitStepTime({ step: STEP, model: [], tools: [span(10, 50), span(20, 60), span(30, 40)] }))
      .toEqual({ startupMs: 0, modelMs: 0, toolMs: 50, otherMs: 50 });
  });

  it('gives a millisecond the model and a tool share to the model, and one shared with the start-up to the start-up', () => {
    expect(splitStepTime({ step: STEP, startup: span(0, 20), model: [span(10, 40)], tools: [span(30, 70), span(5, 15)] }))
      .toEqual({ startupMs: 20, modelMs: 20, toolMs: 30, otherMs: 30 });
  });

  it('adds up to the step even when the parts overrun it (a start-up recorded longer than the step)', () => {
    const time = splitStepTime({ step: span(1000, 1100), startup: span(900, 1050), model: [span(1040, 1200)], tools: [span(1090, 1300)] });
    expect(time).toEqual({ startupMs: 50, modelMs: 50, toolMs: 0, otherMs: 0 });
  });

  it('is all the rest with nothing in it, and nothing at all for a step of no time', () => {
    expect(splitStepTime({ step: span(5, 25), model: [], tools: [] })).toEqual({ startupMs: 0, modelMs: 0, toolMs: 0, otherMs: 20 });
    expect(splitStepTime({ step: span(5, 5), startup: span(0, 10), model: [span(0, 10)], tools: [] }))
      .toEqual({ startupMs: 0, modelMs: 0, toolMs: 0, otherMs: 0 });
  });
});
