// The recorded run a `--replay` serves model responses from: its manifest, and for each pass
// its requests and responses, rebuilt from the pass's trace when that pass runs again.
import { join, resolve } from 'node:path';
import { formatArm, parseArm } from '../lane/index.ts';
import { ReplayModel } from '../models/replay.ts';
import type { RecordedExchange } from '../models/replay.ts';
import { ConversationBuilder, readTrace, TraceFormatError } from '../trace/index.ts';
import type { RebuiltRequest, TraceEvent } from '../trace/index.ts';
import type { AgentFactory } from './agents.ts';
import type { Manifest } from '../results/manifest.ts';
import { ManifestError, readManifest } from '../results/manifest.ts';
import type { PassId } from './plan.ts';
import { InputError } from './rungFiles.ts';
import { listTraces, TRACES } from '../results/store.ts';

export interface RecordedPass {
  exchanges: Map<string, RecordedExchange>;
  /** As the recorded model.request events name them (a synthetic:mix run names each rung's policy). */
  provider?: string;
  model?: string;
  /** Why there is nothing to replay for this pass, when there is not. */
  missing?: string;
}

const passKey = (rung: string, arm: string, pass: number): string => `${rung}\u0000${arm}\u0000${pass}`;

function canonical(arm: string): string {
  try {
    return formatArm(parseArm(arm));
  } catch {
    return arm;
  }
}

/** The first event of a trace file (its pass.start), or undefined. */
async function firstEvent(path: string): Promise<TraceEvent | undefined> {
  try {
    for await (const event of readTrace(path)) return event;
  } catch (error) {
    if (!(error instanceof TraceFormatError)) throw error;
  }
  return undefined;
}

/** The requests and responses of the last attempt in one trace file. */
export async function recordedPass(path: string): Promise<RecordedPass> {
  let events: TraceEvent[] = [];
  try {
    for await (const event of readTrace(path)) {
      if (event.type === 'pass.start') events = [];
      events.push(event);
    }
  } catch (error) {
    if (!(error instanceof TraceFormatError)) throw error;
    return { exchanges: new Map(), missing: `the recorded trace is damaged (${error.message})` };
  }
  const builder = new ConversationBuilder();
  const exchanges = new Map<string, RecordedExchange>();
  const named: { provider?: string; model?: string } = {};
  let pending: RebuiltRequest | undefined;
  for (const event of events) {
    const request = builder.add(event);
    if (event.type === 'model.request') {
      named.provider ??= event['gen_ai.provider.name'];
      named.model ??= event['gen_ai.request.model'];
    }
    if (request !== undefined) pending = request;
    else if (event.type === 'model.response' && pending !== undefined) {
      exchanges.set(`${event.step}/${event.round}`, { request: pending, response: event });
      pending = undefined;
    } else if (event.type === 'step.end' && event.error !== undefined) {
      // A provider failure ends its step: the last exchange of the step carries the step's line.
      const last = [...exchanges.entries()].filter(([key]) => key.startsWith(`${event.step}/`)).at(-1);
      if (last !== undefined && last[1].response['error.type'] !== undefined) last[1].stepError = event.error;
    }
  }
  return { exchanges, ...named };
}

export class ReplaySource {
  private constructor(
    /** As the user named it. */
    readonly name: string,
    readonly dir: string,
    readonly manifest: Manifest,
    /** Trace file of each recorded pass, by rung, canonical arm and index. */
    private readonly traces: ReadonlyMap<string, string>,
  ) {}

  /** Opens a recorded run; a folder that cannot be replayed is an InputError, one line. */
  static async open(name: string, cwd: string): Promise<ReplaySource> {
    const dir = resolve(cwd, name);
    let manifest: Manifest;
    try {
      manifest = await readManifest(dir, name);
    } catch (error) {
      if (error instanceof ManifestError) throw new InputError([`--replay: ${error.message}`]);
      throw error;
    }
    const content = manifest.options.content;
    if (content === undefined) {
      throw new InputError([`--replay ${name}: this run was recorded in trace format 1, which holds no conversation; re-run it with this Ladder to replay it`]);
    }
    if (content === 'redacted') {
      throw new InputError([`--replay ${name}: this run was recorded with --redact content, so its traces hold no model responses to replay`]);
    }
    const traces = new Map<string, string>();
    for (const rel of await listTraces(dir)) {
      const path = join(dir, TRACES, rel);
      const start = await firstEvent(path);
      if (start?.type === 'pass.start') traces.set(passKey(start.rung, canonical(start.arm), start.pass), path);
    }
    return new ReplaySource(name, dir, manifest, traces);
  }

  async pass(id: PassId): Promise<RecordedPass> {
    const path = this.traces.get(passKey(id.rung, id.arm, id.pass));
    if (path === undefined) return { exchanges: new Map(), missing: `the recorded run has no pass ${id.rung} ${id.arm} #${id.pass}` };
    return recordedPass(path);
  }

  /** Each pass's agent: the recorded model, answering from the recorded pass. */
  agent(): AgentFactory {
    const spec = this.manifest.model.spec;
    const [specProvider = spec, ...rest] = spec.split(':');
    return async ({ id, scrubber }) => {
      const recorded = await this.pass(id);
      const first = [...recorded.exchanges.values()][0];
      const model = new ReplayModel({
        spec, provider: recorded.provider ?? specProvider, model: recorded.model ?? rest.join(':'), exchanges: recorded.exchanges, scrubber,
        source: `${this.name}: ${id.rung} ${id.arm} pass ${id.pass}`, ...(recorded.missing === undefined ? {} : { missing: recorded.missing }),
      });
      // The recorded requests carried these options; the replayed ones must, to hash the same.
      const options = first?.request.options;
      return { model, ...(options === undefined ? {} : { sampling: options }) };
    };
  }
}
