// The tool calls of one round, in the order the model asked for them. Every call gets a tool
// message under the provider's own id, also the ones not made (ceiling, time limit,
// interrupt): a conversation with an unanswered tool call is invalid for every provider, and
// the next step carries this conversation on.
import type { ChatMessage, ToolCall } from '../models/types.ts';
import { callKey } from '../reliability/index.ts';
import type { ToolLane } from './loop.ts';
import { StepStopped } from './limits.ts';
import type { Stop, StepLimits } from './limits.ts';

export interface StepCallRecord {
  tool: string;
  /** callKey(tool, args) from src/reliability: equal keys are identical calls. */
  key: string;
  /**
   * The arguments the model gave, as sent (checks such as `calledWith` read them); absent for a
   * call whose arguments were not a JSON object, which was never sent.
   */
  args?: Readonly<Record<string, unknown>>;
  /**
   * The lane's outcome; `invalid_arguments` for a call the loop could not send, `abandoned` for
   * one sent but still running when the step stopped (the lane records it as a timeout of type
   * `abandoned`, before the step ends).
   */
  outcome: string;
}

export const CEILING_TEXT = "The step's tool-call ceiling was reached, so this call was not made.";
const NOT_MADE: Record<Stop, string> = {
  time_limit: "The step's time limit passed before this call was made, so it was not made.",
  interrupted: 'The run was interrupted before this call was made, so it was not made.',
};
const CUT_OFF: Record<Stop, string> = {
  time_limit: "The step's time limit passed while this call was running; the tool may still be running on the server.",
  interrupted: 'The run was interrupted while this call was running; the tool may still be running on the server.',
};

// Quoted arguments are cut so a runaway generation does not flood the conversation.
const RAW_ARGS_CHARS = 200;

export interface CallsContext {
  lane: ToolLane;
  limits: StepLimits;
  round: number;
  ceiling: number;
  /** The step's calls so far; made calls are appended. */
  calls: StepCallRecord[];
  /** Adds a tool message to the conversation and records it. */
  add: (message: ChatMessage) => void;
}

const toolMessage = (call: ToolCall, content: string, isError: boolean): ChatMessage => ({
  role: 'tool', toolCallId: call.id, toolName: call.name, content, isError,
});

/**
 * Why a call cannot be sent, or undefined when it can. Arguments that are not a JSON object
 * cannot be sent as the model meant them; sending `{}` instead would run the tool on defaults
 * the model never chose. A call the adapter marked invalid (cut off, unparsable) is the same:
 * answered, never sent.
 */
function whyUnsendable(call: ToolCall): string | undefined {
  if (call.invalid !== undefined) return call.invalid;
  if (call.rawArgs === undefined) return undefined;
  const quoted = JSON.stringify(call.rawArgs.slice(0, RAW_ARGS_CHARS));
  return `The arguments were not a JSON object, so ${call.name} was not called: ${quoted}`;
}

/**
 * Makes the round's calls while the ceiling allows; returns true when the round asked for more
 * calls than were left (the step then ends at the ceiling with exactly `ceiling` calls made).
 * Throws StepStopped, after answering every call of the round, when the step must stop.
 */
export async function runCalls(ctx: CallsContext, toolCalls: readonly ToolCall[]): Promise<boolean> {
  const { limits, calls } = ctx;
  const answer = (call: ToolCall, content: string, isError: boolean): void => ctx.add(toolMessage(call, content, isError));
  let overflow = false;
  for (const [i, call] of toolCalls.entries()) {
    const stop = limits.stopped;
    if (stop !== undefined) {
      for (const rest of toolCalls.slice(i)) answer(rest, NOT_MADE[stop], true);
      throw new StepStopped(stop);
    }
    if (calls.length >= ctx.ceiling) {
      overflow = true;
      answer(call, CEILING_TEXT, true);
      continue;
    }
    const unsent = whyUnsendable(call);
    if (unsent !== undefined) {
      calls.push({ tool: call.name, key: callKey(call.name, {}), outcome: 'invalid_arguments' });
      answer(call, unsent, true);
      continue;
    }
    const sent = ctx.lane.call(call.name, { ...call.args }, { round: ctx.round, id: call.id, signal: limits.signal });
    try {
      const result = await limits.race(sent);
      calls.push({ tool: call.name, key: callKey(call.name, call.args), args: call.args, outcome: result.outcome });
      answer(call, result.text, result.isError);
    } catch (error) {
      if (!(error instanceof StepStopped)) throw error;
      // The lane saw the same signal and answers at once, its record of the call written: wait
      // for it, so the trace has the call inside its step, never after step.end or pass.end.
      await sent.catch(() => undefined);
      calls.push({ tool: call.name, key: callKey(call.name, call.args), args: call.args, outcome: 'abandoned' });
      answer(call, CUT_OFF[error.why], true);
      for (const rest of toolCalls.slice(i + 1)) answer(rest, NOT_MADE[error.why], true);
      throw error;
    }
  }
  return overflow;
}
