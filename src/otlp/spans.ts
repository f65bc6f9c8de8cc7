// One pass as OpenTelemetry spans, named and attributed by the GenAI and MCP semantic
// conventions (the trace's own field names are theirs where they have one):
//
//   invoke_workflow {rung}        the pass (root)          INTERNAL
//     invoke_agent ladder         a step (one turn)        INTERNAL
//       tools/list                the turn's roster        CLIENT   (MCP)
//       chat {model}              a model round            CLIENT
//       execute_tool {tool}       a tool call              INTERNAL (GenAI; MCP attributes when sent)
//
// A tool call is one span, not an execute_tool span around an MCP tools/call one: the MCP
// conventions say an MCP client that knows a GenAI tool span covers the call adds its own
// attributes (`mcp.method.name`) to it instead. Calls the harness answered itself (refused,
// short-circuited, circuit open) never reached a server and carry no MCP attributes.
//
// Times: `t` is ms since the pass started and pass.start holds the wall-clock `time` of that
// moment, so a span's start and end are that time plus `t`. An event written when its
// operation ended (tools.list, tool.call) starts `ms` before its `t`; a model round runs from
// its model.request to its model.response; a step from step.start to step.end.
import { canonicalArm } from '../results/read.ts';
import { ConversationBuilder } from '../trace/index.ts';
import type { ModelRequest, ModelResponse, PassStart, TraceEvent } from '../trace/index.ts';
import { inputMessages, outputMessages } from './content.ts';
import { spanIdOf, spanPaths, traceIdOf } from './ids.ts';
import type { AttributeValue, Span } from './encode.ts';

/** One pass as its trace holds it: read from a results folder (src/export/passes.ts) or a gateway's turn. */
export interface ExportPass {
  /** Trace path relative to the run folder. */
  file: string;
  start: PassStart;
  /** Every event of the pass, pass.start first and pass.end last. */
  events: TraceEvent[];
}

/** The agent of every step: Ladder's agent loop, whatever the model and arm. */
export const AGENT_NAME = 'ladder';

/** Outcomes of calls that went to a server; the rest the harness answered itself. */
const SENT = new Set(['ok', 'failed', 'timeout']);
/** Outcomes whose text is the tool's answer (the conventions' result "if execution was successful"). */
const ANSWERED = new Set(['ok', 'short_circuited']);
/** Enough of an error text to say what it was, on a span's status. */
const MAX_STATUS_CHARS = 240;

export interface SpanOptions {
  runId: string;
  /** Attach the conversation (the conventions' opt-in attributes); honoured only for a pass that recorded it. */
  content: boolean;
}

type Attributes = Record<string, AttributeValue | undefined>;

/** Whether `time` (pass.start) is a date the spans can be placed at. */
export function hasWallClock(pass: ExportPass): boolean {
  return Number.isFinite(Date.parse(pass.start.time));
}

/** The spans of one pass, the pass first; every span's parent comes before it. */
export function passSpans(pass: ExportPass, options: SpanOptions): Span[] {
  const { start } = pass;
  const arm = canonicalArm(start.arm);
  const traceId = traceIdOf({ runId: options.runId, rung: start.rung, arm, pass: start.pass });
  const spanId = (path: string): Uint8Array => spanIdOf(traceId, path);
  const epochNs = BigInt(Date.parse(start.time)) * 1_000_000n;
  const at = (t: number): bigint => epochNs + BigInt(Math.round((t - start.t) * 1e6));
  const conversationId = `${options.runId}/${start.rung}/${arm}/${start.pass}`;
  const content = options.content && start.content === 'full';
  const builder = content ? new ConversationBuilder() : undefined;

  const make = (path: string, parent: Span | undefined, name: string, kind: Span['kind'], startT: number, attributes: Attributes): Span => ({
    traceId, spanId: spanId(path), ...(parent === undefined ? {} : { parentSpanId: parent.spanId }),
    name, kind, startNs: at(startT), endNs: at(startT), attributes,
  });

  const root = make(spanPaths.pass(), undefined, `invoke_workflow ${start.rung}`, 'internal', start.t, {
    'gen_ai.operation.name': 'invoke_workflow',
    'gen_ai.workflow.name': start.rung,
    'gen_ai.conversation.id': conversationId,
    // Langfuse groups traces by session: one session per run.
    'session.id': options.runId,
    'ladder.run.id': options.runId,
    'ladder.rung': start.rung,
    'ladder.arm': arm,
    'ladder.pass': start.pass,
    'ladder.seed': start.seed,
    'ladder.trace.file': pass.file,
  });
  const spans: Span[] = [root];
  const steps = new Map<number, { span: Span; usage: { input: number; output: number; known: boolean }; errorType?: string }>();
  const requests = new Map<string, { event: ModelRequest; messages?: string }>();
  const argsById = new Map<string, unknown>();
  const callsById = new Map<string, { span: Span; outcome: string }>();
  let calls = 0;
  const parentOf = (step: number): Span => steps.get(step)?.span ?? root;

  for (const event of pass.events) {
    const request = builder?.add(event);
    switch (event.type) {
      case 'step.start': {
        const span = make(spanPaths.step(event.step), root, `invoke_agent ${AGENT_NAME}`, 'internal', event.t, {
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.agent.name': AGENT_NAME,
          'gen_ai.conversation.id': conversationId,
          'ladder.step': event.step,
          'ladder.step.ceiling': event.ceiling,
          'ladder.step.time_limit_ms': event.timeLimitMs,
        });
        steps.set(event.step, { span, usage: { input: 0, output: 0, known: false } });
        spans.push(span);
        break;
      }
      case 'tools.list': {
        const span = make(spanPaths.listing(event.turn), parentOf(event.turn - 1), 'tools/list', 'client', event.t - event.ms, {
          'mcp.method.name': event['mcp.method.name'],
          'ladder.turn': event.turn,
          'ladder.roster.configured': event.configured,
          'ladder.roster.reached': event.reached,
          'ladder.roster.listed': event.listed,
          'ladder.roster.registered': event.registered,
          'ladder.roster.unavailable': event.unavailable,
          'ladder.roster.cached': event.cached,
          'ladder.roster.tools': event.tools,
          'ladder.roster.failed': event.failed.length === 0 ? undefined : event.failed,
        });
        span.endNs = at(event.t);
        spans.push(span);
        break;
      }
      case 'model.request':
        requests.set(`${event.step}/${event.round}`, {
          event, ...(request === undefined || !request.complete ? {} : { messages: inputMessages(request.messages) }),
        });
        break;
      case 'model.response': {
        const asked = requests.get(`${event.step}/${event.round}`);
        requests.delete(`${event.step}/${event.round}`);
        const span = chatSpan(event, asked, parentOf(event.step), conversationId, make, content);
        span.endNs = at(event.t);
        spans.push(span);
        const step = steps.get(event.step);
        if (step !== undefined) {
          const input = event['gen_ai.usage.input_tokens'];
          const output = event['gen_ai.usage.output_tokens'];
          step.usage.input += input ?? 0;
          step.usage.output += output ?? 0;
          if (input !== null || output !== null) step.usage.known = true;
          if (event['error.type'] !== undefined) step.errorType = event['error.type'];
          step.span.attributes['gen_ai.provider.name'] ??= asked?.event['gen_ai.provider.name'];
          step.span.attributes['gen_ai.request.model'] ??= asked?.event['gen_ai.request.model'];
        }
        for (const call of event.message?.toolCalls ?? []) argsById.set(call.id, call.rawArgs ?? call.args);
        break;
      }
      case 'tool.call': {
        const name = event['gen_ai.tool.name'];
        const id = event['gen_ai.tool.call.id'];
        const span = make(spanPaths.call(calls), parentOf(event.turn - 1), `execute_tool ${name}`, 'internal', event.t - event.ms, {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': name,
          'gen_ai.tool.call.id': id,
          'mcp.method.name': SENT.has(event.outcome) ? event['mcp.method.name'] : undefined,
          'error.type': event['error.type'],
          'ladder.tool.server': event.server,
          'ladder.tool.tool': event.tool,
          'ladder.call.turn': event.turn,
          'ladder.call.round': event.round,
          'ladder.call.key': event.key,
          'ladder.call.outcome': event.outcome,
          'ladder.call.arg_bytes': event.argBytes,
          'ladder.call.result_bytes': event.resultBytes,
          'ladder.call.deterministic': event.deterministic,
          'ladder.call.probe': event.probe,
          // A call no response asked for has no arguments: JSON.stringify(undefined) is undefined, left out.
          'gen_ai.tool.call.arguments': content && id !== undefined ? JSON.stringify(argsById.get(id)) : undefined,
        });
        calls += 1;
        span.endNs = at(event.t);
        if (event['error.type'] !== undefined) span.error = event.outcome;
        if (id !== undefined) callsById.set(id, { span, outcome: event.outcome });
        spans.push(span);
        break;
      }
      case 'message': {
        const message = event.message;
        if (!content || message.role !== 'tool' || message.content === undefined) break;
        const call = callsById.get(message.toolCallId);
        if (call === undefined) break;
        callsById.delete(message.toolCallId);
        if (ANSWERED.has(call.outcome)) call.span.attributes['gen_ai.tool.call.result'] = message.content;
        else call.span.error = `${call.outcome}: ${oneLine(message.content)}`;
        break;
      }
      case 'step.end': {
        const step = steps.get(event.step);
        if (step === undefined) break;
        const { span, usage } = step;
        span.endNs = at(event.t);
        Object.assign(span.attributes, {
          'gen_ai.usage.input_tokens': usage.known ? usage.input : undefined,
          'gen_ai.usage.output_tokens': usage.known ? usage.output : undefined,
          'ladder.step.passed': event.passed,
          'ladder.step.reason': event.reason,
          'ladder.step.rounds': event.rounds,
          'ladder.step.calls': event.calls,
          'ladder.step.failed_checks': event.failedChecks.length === 0 ? undefined : event.failedChecks.map((c) => `${c.check}: ${c.why}`),
        });
        if (event.reason === 'errored') {
          span.attributes['error.type'] = step.errorType ?? '_OTHER';
          span.error = oneLine(event.error ?? 'errored');
        }
        break;
      }
      case 'pass.end':
        root.endNs = at(event.t);
        Object.assign(root.attributes, { 'ladder.passed': event.passed, 'ladder.steps': event.steps });
        if (event.error !== undefined) {
          root.attributes['error.type'] = 'harness_error';
          root.error = oneLine(event.error);
        }
        break;
      default:
        break;
    }
  }
  return spans;
}

type Make = (path: string, parent: Span | undefined, name: string, kind: Span['kind'], startT: number, attributes: Attributes) => Span;

/** A model round, from its request (when the pass recorded one) to its response. */
function chatSpan(
  response: ModelResponse, asked: { event: ModelRequest; messages?: string } | undefined, parent: Span, conversationId: string,
  make: Make, content: boolean,
): Span {
  const request = asked?.event;
  const model = request?.['gen_ai.request.model'];
  const options = request?.options;
  const finish = response['gen_ai.response.finish_reasons'];
  const span = make(spanPaths.round(response.step, response.round), parent, model === undefined ? 'chat' : `chat ${model}`, 'client',
    request?.t ?? response.t - response.ms, {
      'gen_ai.operation.name': request?.['gen_ai.operation.name'] ?? 'chat',
      'gen_ai.provider.name': request?.['gen_ai.provider.name'],
      'gen_ai.request.model': model,
      'gen_ai.conversation.id': conversationId,
      'gen_ai.request.temperature': options?.temperature === undefined ? undefined : { double: options.temperature },
      'gen_ai.request.seed': options?.seed,
      'gen_ai.request.max_tokens': options?.maxTokens,
      'gen_ai.usage.input_tokens': response['gen_ai.usage.input_tokens'] ?? undefined,
      'gen_ai.usage.output_tokens': response['gen_ai.usage.output_tokens'] ?? undefined,
      'gen_ai.response.finish_reasons': finish.length === 0 ? undefined : finish,
      'error.type': response['error.type'],
      'ladder.step': response.step,
      'ladder.round': response.round,
      'ladder.request.num_ctx': options?.numCtx,
      'ladder.request.tools': request?.tools,
      'ladder.request.messages': request?.messages,
      'ladder.request.message_bytes': request?.messageBytes,
      'ladder.request.hash': request?.hash,
      'ladder.response.attempts': response.attempts,
      'ladder.response.text_bytes': response.textBytes,
      'ladder.response.tool_calls': response.toolCalls.length,
      // Present only when the conversation is attached: a request's messages are rebuilt only then.
      'gen_ai.input.messages': asked?.messages,
      'gen_ai.output.messages': content && response.message !== undefined ? outputMessages(response.message, finish[0]) : undefined,
    });
  if (response['error.type'] !== undefined) span.error = response['error.type'];
  return span;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_STATUS_CHARS ? `${line.slice(0, MAX_STATUS_CHARS)}...` : line;
}

