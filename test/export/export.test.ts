// `ladder export --otlp` on a real run (two fixture rungs, synthetic agents, both arms, time
// factor 0.01): the spans a local receiver decodes with the official OTLP definitions form the
// tree pass > step > model round and tool call, carry the trace's attributes under the
// conventions' names, sit at the trace's times, and are the same spans when exported again.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExport } from '../../src/cli/export.ts';
import type { ExportArgs } from '../../src/cli/export.ts';
import { exportRun } from '../../src/export/index.ts';
import { loadRun } from '../../src/report/summary.ts';
import { readTraceAll, redactEvent } from '../../src/trace/index.ts';
import type { TraceEvent, TraceEventInput } from '../../src/trace/index.ts';
import { listTraces } from '../../src/results/store.ts';
import { quietRun, removeTempDirs, ROOT, SMALL, tempDir } from '../runner/helpers.ts';
import { startReceiver } from './receiver.ts';
import type { ReceivedSpan, Receiver } from './receiver.ts';

afterAll(removeTempDirs);

let base: string;
let run: string;
/** Each pass's events, by trace path. */
const traces = new Map<string, TraceEvent[]>();

beforeAll(async () => {
  base = await tempDir('ladder-export-');
  run = join(base, 'small');
  expect((await quietRun({ ...SMALL, passes: 1, out: run })).code).toBe(0);
  for (const path of await listTraces(run)) traces.set(path, (await readTraceAll(join(run, 'traces', path))).events);
}, 120_000);

async function exported(args: Partial<ExportArgs> & { run?: string } = {}, receiver?: Receiver) {
  const own = receiver ?? await startReceiver();
  const out: string[] = [];
  const err: string[] = [];
  try {
    const code = await runExport({ run, otlp: own.url, ...args }, { out: (l) => out.push(l), err: (l) => err.push(l), env: {} });
    return { code, out, err, spans: own.spans(), requests: [...own.requests] };
  } finally {
    if (receiver === undefined) await own[Symbol.asyncDispose]();
  }
}

function byTrace(spans: ReceivedSpan[]): Map<string, ReceivedSpan[]> {
  const groups = new Map<string, ReceivedSpan[]>();
  for (const s of spans) groups.set(s.traceId, [...(groups.get(s.traceId) ?? []), s]);
  return groups;
}
const ns = (iso: string, t: number, startT: number) => BigInt(Date.parse(iso)) * 1_000_000n + BigInt(Math.round((t - startT) * 1e6));
const CONTENT_KEYS = ['gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.tool.call.arguments', 'gen_ai.tool.call.result'];

describe('ladder export --otlp on a real run', () => {
  it('sends one trace per pass: pass > step > model round and tool call, by the GenAI and MCP conventions', async () => {
    const { code, out, err, spans, requests } = await exported();
    expect(code).toBe(0);
    expect(err).toEqual([]);
    expect(out).toEqual([expect.stringMatching(new RegExp(`^ladder export: sent 4 passes \\(${spans.length} spans, 1 request\\) to http://127\\.0\\.0\\.1:\\d+/v1/traces$`))]);
    expect(requests[0]!.resource).toMatchObject({ 'service.name': 'ladder', 'ladder.run.id': 'small', 'ladder.model': SMALL.model });
    const groups = byTrace(spans);
    expect(groups.size).toBe(4);

    for (const [, events] of traces) {
      const start = events[0] as Extract<TraceEvent, { type: 'pass.start' }>;
      const at = (t: number) => ns(start.time, t, start.t);
      const roots = spans.filter((s) => s.parentSpanId === '' && s.attributes['ladder.rung'] === start.rung && s.attributes['ladder.arm'] === start.arm);
      expect(roots).toHaveLength(1);
      const root = roots[0]!;
      const tree = groups.get(root.traceId)!;
      const end = events.at(-1) as Extract<TraceEvent, { type: 'pass.end' }>;
      expect(root).toMatchObject({
        name: `invoke_workflow ${start.rung}`, kind: 'SPAN_KIND_INTERNAL', startNs: at(start.t), endNs: at(end.t),
        attributes: {
          'gen_ai.operation.name': 'invoke_workflow', 'gen_ai.workflow.name': start.rung, 'session.id': 'small',
          'gen_ai.conversation.id': `small/${start.rung}/${start.arm}/0`, 'ladder.pass': 0, 'ladder.seed': start.seed,
          'ladder.passed': end.passed, 'ladder.steps': end.steps,
        },
      });
      const children = (parent: ReceivedSpan) => tree.filter((s) => s.parentSpanId === parent.spanId);
      // Every span of the trace hangs from the root, each inside its parent's time.
      const byId = new Map(tree.map((s) => [s.spanId, s]));
      for (const s of tree) {
        if (s === root) continue;
        const parent = byId.get(s.parentSpanId)!;
        expect(parent, s.name).toBeDefined();
        expect(s.startNs >= parent.startNs && s.endNs <= parent.endNs && s.startNs <= s.endNs, `${s.name} inside ${parent.name}`).toBe(true);
      }

      const steps = children(root);
      const stepStarts = events.filter((e) => e.type === 'step.start');
      expect(steps.map((s) => s.name)).toEqual(stepStarts.map(() => 'invoke_agent ladder'));
      for (const [i, stepStart] of stepStarts.entries()) {
        const step = steps[i]!;
        const stepEnd = events.find((e) => e.type === 'step.end' && e.step === stepStart.step) as Extract<TraceEvent, { type: 'step.end' }>;
        expect(step).toMatchObject({
          startNs: at(stepStart.t), endNs: at(stepEnd.t), status: { code: 'STATUS_CODE_UNSET' },
          attributes: {
            'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'ladder', 'gen_ai.provider.name': 'synthetic',
            'ladder.step': stepStart.step, 'ladder.step.passed': stepEnd.passed, 'ladder.step.reason': stepEnd.reason,
            'ladder.step.calls': stepEnd.calls, 'ladder.step.rounds': stepEnd.rounds,
          },
        });
        const inStep = children(step);
        const responses = events.filter((e): e is Extract<TraceEvent, { type: 'model.response' }> => e.type === 'model.response' && e.step === stepStart.step);
        const chats = inStep.filter((s) => s.name.startsWith('chat '));
        expect(chats).toHaveLength(responses.length);
        expect(step.attributes['gen_ai.usage.input_tokens']).toBe(responses.reduce((sum, r) => sum + (r['gen_ai.usage.input_tokens'] ?? 0), 0));
        for (const [k, response] of responses.entries()) {
          const request = events.find((e) => e.type === 'model.request' && e.step === response.step && e.round === response.round) as Extract<TraceEvent, { type: 'model.request' }>;
          expect(chats[k]).toMatchObject({
            name: `chat ${request['gen_ai.request.model']}`, kind: 'SPAN_KIND_CLIENT', startNs: at(request.t), endNs: at(response.t),
            attributes: {
              'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': request['gen_ai.provider.name'],
              'gen_ai.request.model': request['gen_ai.request.model'],
              'gen_ai.usage.input_tokens': response['gen_ai.usage.input_tokens'], 'gen_ai.usage.output_tokens': response['gen_ai.usage.output_tokens'],
              'gen_ai.response.finish_reasons': response['gen_ai.response.finish_reasons'], 'ladder.round': response.round,
              'ladder.request.hash': request.hash,
            },
          });
        }
        const calls = events.filter((e): e is Extract<TraceEvent, { type: 'tool.call' }> => e.type === 'tool.call' && e.turn === stepStart.step + 1);
        const tools = inStep.filter((s) => s.name.startsWith('execute_tool '));
        expect(tools).toHaveLength(calls.length);
        for (const [k, call] of calls.entries()) {
          const sent = ['ok', 'failed', 'timeout'].includes(call.outcome);
          expect(tools[k]).toEqual(expect.objectContaining({
            name: `execute_tool ${call['gen_ai.tool.name']}`, kind: 'SPAN_KIND_INTERNAL', startNs: at(call.t - call.ms), endNs: at(call.t),
            status: call['error.type'] === undefined ? { code: 'STATUS_CODE_UNSET', message: '' } : { code: 'STATUS_CODE_ERROR', message: call.outcome },
          }));
          expect(tools[k]!.attributes).toMatchObject({
            'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': call['gen_ai.tool.name'],
            'gen_ai.tool.call.id': call['gen_ai.tool.call.id'], 'ladder.call.outcome': call.outcome, 'ladder.call.key': call.key,
            'ladder.tool.server': call.server, 'ladder.call.round': call.round,
          });
          // Only a call that went to the server is an MCP tools/call.
          expect(tools[k]!.attributes['mcp.method.name']).toBe(sent ? 'tools/call' : undefined);
        }
        const listings = inStep.filter((s) => s.name === 'tools/list');
        expect(listings.map((s) => s.attributes['ladder.roster.registered'])).toEqual(
          events.filter((e) => e.type === 'tools.list' && e.turn === stepStart.step + 1).map((e) => (e as { registered: number }).registered));
        expect(inStep).toHaveLength(chats.length + tools.length + listings.length);
      }
      // No content unless asked for.
      for (const s of tree) for (const key of CONTENT_KEYS) expect(s.attributes[key], `${s.name} ${key}`).toBeUndefined();
    }
    // The looper on arm `on` meets the repeat short-circuit: a call the harness answered itself.
    const shortCircuited = spans.filter((s) => s.attributes['ladder.call.outcome'] === 'short_circuited');
    expect(shortCircuited.length).toBeGreaterThan(0);
    expect(shortCircuited.every((s) => s.attributes['mcp.method.name'] === undefined && s.status.code === 'STATUS_CODE_UNSET')).toBe(true);
  });

  it('sends the same spans when exported again, with the ids docs/export.md says', async () => {
    const first = await exported();
    const second = await exported();
    expect(second.spans).toEqual(first.spans);
    const root = first.spans.find((s) => s.parentSpanId === '' && s.attributes['ladder.rung'] === 'tiny-files' && s.attributes['ladder.arm'] === 'off')!;
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    expect(root.traceId).toBe(sha('ladder\nsmall\ntiny-files\noff\n0').slice(0, 32));
    expect(root.spanId).toBe(sha(`${root.traceId}\npass`).slice(0, 16));
    const firstStep = first.spans.find((s) => s.parentSpanId === root.spanId)!;
    expect(firstStep.spanId).toBe(sha(`${root.traceId}\nstep/0`).slice(0, 16));
  });

  it('splits the spans into requests of at most the batch size, none lost or repeated', async () => {
    await using receiver = await startReceiver();
    const transport = { fetch, sleep: async () => undefined };
    const summary = await exportRun(run, { otlp: receiver.url, batch: { spans: 7 } }, transport);
    const all = (await exported()).spans;
    expect(summary.requests).toBe(Math.ceil(all.length / 7));
    expect(receiver.requests.every((r) => r.spans.length <= 7)).toBe(true);
    expect(receiver.spans()).toEqual(all);

    await using small = await startReceiver();
    const bytes = await exportRun(run, { otlp: small.url, batch: { bytes: 2_000 } }, transport);
    expect(bytes.requests).toBeGreaterThan(1);
    // A request holds spans up to the limit; one span over it goes alone.
    for (const r of small.requests) expect(r.spans.length === 1 || r.bytes <= 2_000 + 200).toBe(true);
    expect(small.spans()).toEqual(all);
    expect(bytes.passes).toBe(4);
  });

  it('attaches the conversation with --content: the opt-in GenAI attributes, as the trace recorded it', async () => {
    const { code, spans } = await exported({ content: true });
    expect(code).toBe(0);
    for (const [, events] of traces) {
      const start = events[0] as Extract<TraceEvent, { type: 'pass.start' }>;
      const root = spans.find((s) => s.parentSpanId === '' && s.attributes['gen_ai.conversation.id'] === `small/${start.rung}/${start.arm}/0`)!;
      const tree = spans.filter((s) => s.traceId === root.traceId);
      const chats = tree.filter((s) => s.name.startsWith('chat '));
      const prompt = events.find((e) => e.type === 'message' && e.message.role === 'user') as Extract<TraceEvent, { type: 'message' }>;
      const first = JSON.parse(chats[0]!.attributes['gen_ai.input.messages'] as string);
      expect(first).toEqual([{ role: 'user', parts: [{ type: 'text', content: prompt.message.content }] }]);
      // Each round's input is the one before, plus what the model said and what the tools answered.
      for (const [k, chat] of chats.entries()) {
        const input = JSON.parse(chat.attributes['gen_ai.input.messages'] as string);
        const output = JSON.parse(chat.attributes['gen_ai.output.messages'] as string);
        expect(output).toHaveLength(1);
        expect(output[0]).toMatchObject({ role: 'assistant', finish_reason: (chat.attributes['gen_ai.response.finish_reasons'] as string[])[0] });
        const next = chats[k + 1];
        if (next === undefined || next.attributes['ladder.step'] !== chat.attributes['ladder.step']) continue;
        const following = JSON.parse(next.attributes['gen_ai.input.messages'] as string);
        expect(following.slice(0, input.length + 1)).toEqual([...input, { role: 'assistant', parts: output[0].parts }]);
      }
      const calls = events.filter((e): e is Extract<TraceEvent, { type: 'tool.call' }> => e.type === 'tool.call');
      const toolMessages = events.filter((e) => e.type === 'message' && e.message.role === 'tool') as Extract<TraceEvent, { type: 'message' }>[];
      const asked = events.flatMap((e) => (e.type === 'model.response' ? e.message?.toolCalls ?? [] : []));
      for (const call of calls) {
        const span = tree.find((s) => s.attributes['gen_ai.tool.call.id'] === call['gen_ai.tool.call.id'])!;
        const id = call['gen_ai.tool.call.id'];
        expect(JSON.parse(span.attributes['gen_ai.tool.call.arguments'] as string)).toEqual(asked.find((c) => c.id === id)!.args);
        const result = toolMessages.find((m) => m.message.role === 'tool' && m.message.toolCallId === id)!.message.content;
        if (call.outcome === 'ok' || call.outcome === 'short_circuited') expect(span.attributes['gen_ai.tool.call.result']).toBe(result);
        else expect(span.status.message).toContain(call.outcome);
      }
    }
  });

  it('never attaches content from a redacted run, and otherwise sends the same spans', async () => {
    const redacted = join(base, 'redacted', 'small');
    cpSync(run, redacted, { recursive: true });
    for (const path of await listTraces(redacted)) {
      const file = join(redacted, 'traces', path);
      const events = (await readTraceAll(file)).events;
      // What --redact content writes: the writer's own redaction, with the stamp kept.
      writeFileSync(file, events.map((e) => {
        const { v, t, ...input } = e;
        // `v`, `type`, `t` first, as the writer orders them; assigning `type` again keeps its place.
        return JSON.stringify(Object.assign({ v, type: e.type, t }, redactEvent(input as TraceEventInput)));
      }).join('\n') + '\n');
    }
    const plain = await exported();
    const result = await exported({ run: redacted, content: true });
    expect(result.code).toBe(0);
    expect(result.err).toEqual(['ladder export: 4 passes sent without content: the run was redacted or recorded no conversation']);
    expect(result.spans.flatMap((s) => CONTENT_KEYS.filter((k) => k in s.attributes))).toEqual([]);
    expect(result.spans).toEqual(plain.spans);
  });

  it('leaves out damaged and incomplete passes, naming each, and sends the rest', async () => {
    const damaged = join(base, 'damaged', 'small');
    cpSync(run, damaged, { recursive: true });
    const lines = (path: string) => readFileSync(join(damaged, 'traces', path), 'utf8').trimEnd().split('\n');
    const write = (path: string, text: string[]) => writeFileSync(join(damaged, 'traces', path), `${text.join('\n')}\n`);
    const exploded = lines('tiny-catalog/on/0.jsonl');
    const at = exploded.findIndex((l) => l.includes('"type":"tool.call"'));
    exploded[at] = exploded[at]!.replace(/"outcome":"[a-z_]+"/, '"outcome":"exploded"');
    write('tiny-catalog/on/0.jsonl', exploded);
    write('tiny-files/off/0.jsonl', lines('tiny-files/off/0.jsonl').slice(0, -1));

    const result = await exported({ run: damaged });
    expect(result.code).toBe(0);
    expect(result.err).toEqual([
      expect.stringMatching(new RegExp(`^ladder export: traces/tiny-catalog/on/0\\.jsonl:${at + 1}: tool\\.call field "outcome": .*"exploded"; tiny-catalog on pass 0 left out$`)),
      `ladder export: 1 incomplete pass left out (interrupted; ladder run --out ${damaged} --resume makes them)`,
    ]);
    expect(result.out[0]).toMatch(/^ladder export: sent 2 passes /);
    const sent = result.spans.filter((s) => s.parentSpanId === '').map((s) => `${s.attributes['ladder.rung']}/${s.attributes['ladder.arm']}`).sort();
    // Exactly the passes every report counts.
    expect(sent).toEqual((await loadRun(damaged)).passes.map((p) => `${p.rung}/${p.arm}`).sort());
  });
});

describe('the passes it sends are the ones the report counts', () => {
  const FIXTURE = join(import.meta.dirname, '../fixtures/runs/after');
  const files = () => readdirSync(join(FIXTURE, 'traces'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.jsonl')).sort();
  const DAMAGES: Record<string, (lines: string[]) => string[]> = {
    'a line that is not JSON': (lines) => [...lines.slice(0, 2), '{"v":2,"type":', ...lines.slice(2)],
    'events out of order': (lines) => [lines[0]!, lines[2]!, lines[1]!, ...lines.slice(3)].map((l, i) => (i === 1 ? l.replace(/"t":\d+(\.\d+)?/, '"t":999999') : l)),
    'an event after pass.end': (lines) => [...lines, lines[1]!],
    'a torn last line': (lines) => [...lines.slice(0, -1), lines.at(-1)!.slice(0, 20)],
    'a pass made again after an interrupted attempt': (lines) => [...lines.slice(0, 3), ...lines],
    'a second attempt cut short': (lines) => [...lines, ...lines.slice(0, 3)],
  };

  it.each(Object.keys(DAMAGES))('with %s', async (kind) => {
    const dir = join(await tempDir('ladder-export-fixture-'), 'after');
    cpSync(FIXTURE, dir, { recursive: true });
    for (const [n, file] of files().entries()) {
      if (n % 4 !== 1) continue;
      const path = join(dir, 'traces', file);
      const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
      const damaged = DAMAGES[kind]!(lines);
      writeFileSync(path, kind === 'a torn last line' ? damaged.join('\n') : `${damaged.join('\n')}\n`);
    }
    await using receiver = await startReceiver();
    const summary = await exportRun(dir, { otlp: receiver.url }, { fetch, sleep: async () => undefined });
    const counted = (await loadRun(dir)).passes.map((p) => p.file).sort();
    const sent = receiver.spans().filter((s) => s.parentSpanId === '').map((s) => s.attributes['ladder.trace.file'] as string).sort();
    expect(sent).toEqual(counted);
    expect(summary.passes).toBe(counted.length);
    expect(counted.length).toBeLessThanOrEqual(files().length);
  });
});

describe('the command', () => {
  function ladder(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, ['bin/ladder.js', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  }

  it('sends with the auth header given, and says an unreachable collector in one line with exit 2', async () => {
    await using receiver = await startReceiver();
    const ok = await ladder(['export', run, '--otlp', receiver.url, '--header', 'Authorization=Basic cGstbGY6c2stbGY=']);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^ladder export: sent 4 passes \(\d+ spans, 1 request\) to /);
    expect(receiver.requests[0]!.headers['authorization']).toBe('Basic cGstbGY6c2stbGY=');

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = await ladder(['export', run, '--otlp', `http://127.0.0.1:${port}`]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(`ladder export: cannot reach http://127.0.0.1:${port}/v1/traces (ECONNREFUSED); is the collector running, and is this its OTLP/HTTP address?\n`);
  }, 60_000);

  it('exits 2 in one line on a folder that is not a run, and 1 when the collector rejects spans', async () => {
    await using receiver = await startReceiver();
    const err: string[] = [];
    expect(await runExport({ run: join(base, 'nothing'), otlp: receiver.url }, { out: () => undefined, err: (l) => err.push(l), env: {} })).toBe(2);
    expect(err).toEqual([`ladder export: ${join(base, 'nothing')}: no such results folder; name a folder written by ladder run (results/<run-id>)`]);
    receiver.script.push({ rejected: 2, message: 'attribute value too long' });
    const rejected: string[] = [];
    expect(await runExport({ run, otlp: receiver.url }, { out: () => undefined, err: (l) => rejected.push(l), env: {} })).toBe(1);
    expect(rejected).toEqual(['ladder export: the collector rejected 2 spans: attribute value too long']);
    // Headers from the environment, as the OpenTelemetry exporters read them.
    await runExport({ run, otlp: receiver.url }, { out: () => undefined, err: () => undefined, env: { OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Basic%20ZW52' } });
    expect(receiver.requests.at(-1)!.headers['authorization']).toBe('Basic ZW52');
  });
});
