// Which call satisfied or broke each of a step's checks on calls, for the transcript that
// `ladder show` and the HTML report print: a mark sits under the call it names. The marks
// come from the same matching the checks judge by (callChecks.ts), so a mark never tells
// another story than the verdict. Checks that are not about one call (file, sql, answer,
// maxRounds, noZeroToolRounds, judge) mark nothing; a check that failed because a call was
// never made has no call to mark, and its line at the step's end says so.
import { matchArguments, quote, sequenceMatch } from './callChecks.ts';
import type { StepCall } from './checks.ts';
import { describeCheck } from './checks.ts';
import type { Check } from './schema.ts';

export interface CallMark {
  /** Index of the call in the step's calls (StepRecord.calls). */
  call: number;
  /** The check, named as a step's failed checks name it (describeCheck). */
  check: string;
  /** The check in short, for a line under its call: `calledWith {"limit":10}`, `sequence strict a, b`. */
  label: string;
  satisfied: boolean;
  /** What this call did for the check, when more than that it satisfied or broke it. */
  detail: string;
}

/**
 * The marks of `checks` on `calls`, in check order. `args` false: the calls carry no arguments
 * (a redacted or format-1 trace), so calledWith marks nothing rather than a wrong call.
 */
export function callMarks(checks: readonly Check[], calls: readonly StepCall[], args = true): CallMark[] {
  return checks.flatMap((check) => {
    const name = describeCheck(check);
    const label = labelOf(check);
    const mark = (call: number, satisfied: boolean, detail = ''): CallMark => ({ call, check: name, label, satisfied, detail });
    const indexesOf = (tool: string): number[] => [...calls.keys()].filter((i) => calls[i]!.tool === tool);
    if ('called' in check) return indexesOf(check.called).slice(0, 1).map((i) => mark(i, true));
    if ('succeeded' in check) {
      const tried = indexesOf(check.succeeded);
      const ok = tried.find((i) => calls[i]!.outcome === 'ok');
      // None answered ok: each call of the tool is one that did not do the work.
      return ok !== undefined ? [mark(ok, true)] : tried.map((i) => mark(i, false, `answered ${calls[i]!.outcome}`));
    }
    if ('notCalled' in check) return indexesOf(check.notCalled).map((i) => mark(i, false));
    if ('maxRepeats' in check) return repeatsOver(calls, check.maxRepeats).map(({ call, repeat }) => mark(call, false, `repeat ${repeat} of an identical call`));
    if ('maxCalls' in check) return check.maxCalls < calls.length ? [mark(check.maxCalls, false, `call ${check.maxCalls + 1}, the first over the limit`)] : [];
    if ('calledWith' in check) {
      if (!args) return [];
      const match = matchArguments(calls, check.calledWith.tool, check.calledWith.args);
      if (match.at !== undefined) return [mark(match.at, true)];
      if (match.closest === undefined) return [];
      const { at, differs } = match.closest;
      return [mark(at, false, `the closest call; differs at ${differs.path}: ${differs.why}`)];
    }
    if ('sequence' in check) return sequenceMarks(check.sequence, calls, mark);
    return [];
  });
}

/** A call check in short: the tool is the call's it sits under, so calledWith says only its arguments. */
function labelOf(check: Check): string {
  if ('calledWith' in check) return `calledWith ${quote(check.calledWith.args)}`;
  if ('sequence' in check) {
    const { tools, strict } = Array.isArray(check.sequence) ? { tools: check.sequence, strict: false } : check.sequence;
    return `sequence${strict ? ' strict' : ''} ${tools.join(', ')}`;
  }
  const [kind, value] = Object.entries(check)[0]!;
  return `${kind} ${String(value)}`;
}

/** Each call that repeats an identical earlier one more often than `max` allows, with its repeat number. */
function repeatsOver(calls: readonly StepCall[], max: number): { call: number; repeat: number }[] {
  const seen = new Map<string, number>();
  const over: { call: number; repeat: number }[] = [];
  for (const [i, call] of calls.entries()) {
    const repeat = seen.get(call.key) ?? 0;
    seen.set(call.key, repeat + 1);
    if (repeat > max) over.push({ call: i, repeat });
  }
  return over;
}

type Sequence = Extract<Check, { sequence: unknown }>['sequence'];

/**
 * Held: each call of the order, numbered. Broken: loosely, the last call found in order, after
 * which the next tool never came; strictly, the call that came where the next tool was expected
 * (or the run's last call, when the calls ended there). Nothing when the first tool never came.
 */
function sequenceMarks(sequence: Sequence, calls: readonly StepCall[], mark: (call: number, satisfied: boolean, detail: string) => CallMark): CallMark[] {
  const { tools, strict } = Array.isArray(sequence) ? { tools: sequence, strict: false } : sequence;
  const found = sequenceMatch(calls, tools, strict);
  const n = tools.length;
  if (found.length === n) return found.map((call, i) => mark(call, true, `${i + 1} of ${n}`));
  const last = found.at(-1);
  if (last === undefined) return [];
  const next = tools[found.length]!;
  if (!strict) return [mark(last, false, `${found.length} of ${n}; ${next} was not called after it`)];
  return last + 1 < calls.length
    ? [mark(last + 1, false, `came where ${next} was expected, after ${found.length} of ${n}`)]
    : [mark(last, false, `${found.length} of ${n}; no call came after it`)];
}
