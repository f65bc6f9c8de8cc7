// The rung file format (rungs/*.yaml). A rung is one multi-step task against real MCP servers,
// with checks per step and a reference solution that `ladder rungs validate` runs to prove the
// rung solvable and every check able to fail. The field order here is the documented order.
import { z } from 'zod';
import { ArmError, formatArm, parseArm } from '../lane/arm.ts';
import { PROTOCOL_CHOICES, PROTOCOLS } from '../mcp/protocols.ts';
import { ModelSpecError, parseModelSpec, SYNTHETIC_POLICIES } from '../models/spec.ts';
import { badPatterns } from './callChecks.ts';

const positiveInt = z.number({ error: 'expected a positive integer' }).int('expected a positive integer').positive('expected a positive integer');
const toolName = z.string().regex(/^[a-z0-9-]+__[A-Za-z0-9_-]+$/, 'expected a qualified tool name, server__tool');

/** Ladder's own workbench server, with its faults and options (src/server/). */
const workbenchServer = z.strictObject({
  workbench: z.strictObject({
    /** Fault settings passed to the server as they are; the server validates them. */
    faults: z.record(z.string(), z.unknown()).default({}),
    /** Workbench options (job kinds, the reveal trigger, ...) passed as they are; the server validates them. */
    options: z.record(z.string(), z.unknown()).default({}),
  }),
});

/**
 * Which MCP revision to speak with a server (src/mcp/protocols.ts): `auto` (the default) asks
 * for 2026-07-28 and falls back to 2025; an arm's `protocol=` overrides it. Not on the workbench,
 * which serves the 2025 revisions only.
 */
const protocol = z.enum(PROTOCOLS, { error: PROTOCOL_CHOICES }).optional();

/** Any MCP server in the ecosystem's `mcpServers` shape. `{workspace}` in args/env/cwd is the pass's folder. */
const stdioServer = z.strictObject({
  command: z.string().min(1, 'expected a command'),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  cwd: z.string().optional(),
  protocol,
});
/**
 * An installed Node package's bin, started as `process.execPath <script>` (never through npx,
 * which may download or pick another version). `{workspace}` substitutes as for a command.
 */
const packageServer = z.strictObject({
  package: z.string().min(1, 'expected an installed package name'),
  /** The bin to run when the package has several. */
  bin: z.string().optional(),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  cwd: z.string().optional(),
  protocol,
});
/**
 * What the runner starts for each pass to serve a `url:` server: an installed package's bin or
 * a command, as for stdio servers. `{port}` in the URL, args and env is a free port of
 * 127.0.0.1 picked for the pass, `{workspace}` the pass's folder (src/runner/started.ts).
 */
const startSpec = z.union([
  z.strictObject({
    package: z.string().min(1, 'expected an installed package name'),
    bin: z.string().optional(),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    cwd: z.string().optional(),
  }),
  z.strictObject({
    command: z.string().min(1, 'expected a command'),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    cwd: z.string().optional(),
  }),
], { error: 'expected {package, args, env, cwd} or {command, args, env, cwd}' });
const httpServer = z.strictObject({
  /** With `start`, `{port}` in it is the port the started server listens on. */
  url: z.string().refine((text) => URL.canParse(text.replaceAll('{port}', '1')) && /^https?:\/\//.test(text), 'expected an http(s) URL'),
  headers: z.record(z.string(), z.string()).default({}),
  /** Start the server for each pass, stop it after (a remote server run locally). */
  start: startSpec.optional(),
  protocol,
});
export const serverSpec = z.union([workbenchServer, packageServer, stdioServer, httpServer], {
  error: 'expected {workbench: {...}}, {package, args, env, cwd}, {command, args, env, cwd} or {url, headers}',
});

/** Arguments a call must contain; a string written `/.../` is a regular expression, checked here. */
const expectedArgs = z.record(z.string(), z.unknown()).default({}).superRefine((args, ctx) => {
  for (const { path, message } of badPatterns(args)) ctx.addIssue({ code: 'custom', path, message });
});
/** A sequence of one tool is `called`; a sequence needs two. */
const toolSequence = z.array(toolName).min(2, 'expected at least two tools (one is a called check)');

/** A judge is a real model: a synthetic agent follows a script and has no opinion to give. */
const judgeModel = z.string().superRefine((text, ctx) => {
  try {
    if (parseModelSpec(text).provider === 'synthetic') ctx.addIssue({ code: 'custom', message: 'a synthetic agent cannot judge; name a real model, e.g. openai:gpt-5-mini' });
  } catch (error) {
    if (!(error instanceof ModelSpecError)) throw error;
    ctx.addIssue({ code: 'custom', message: error.message });
  }
});

/** One check of a step; also reads back a check named in a trace (src/report/transcript/marks.ts). */
export const checkSchema = z.union(
  [
    z.strictObject({ file: z.strictObject({ path: z.string().min(1), exists: z.boolean().default(true), matches: z.string().optional() }) }),
    z.strictObject({
      sql: z.strictObject({
        query: z.string().min(1),
        rows: z.array(z.array(z.union([z.string(), z.number(), z.null()]))),
        /** A database file in the workspace (a third-party server's); default the workbench's. */
        db: z.string().min(1).optional(),
      }),
    }),
    z.strictObject({ called: toolName }),
    /** At least one call to the tool answered ok (not failed, timed out, refused or short-circuited). */
    z.strictObject({ succeeded: toolName }),
    z.strictObject({ notCalled: toolName }),
    z.strictObject({
      answer: z
        .strictObject({ matches: z.string().optional(), mentions: z.array(z.string()).optional() })
        .refine((a) => a.matches !== undefined || (a.mentions?.length ?? 0) > 0, 'expected matches or mentions'),
    }),
    z.strictObject({ maxRepeats: z.number().int().nonnegative() }),
    z.strictObject({ noZeroToolRounds: z.literal(true) }),
    /** At least one call of the tool whose arguments contain these (src/rungs/callChecks.ts). */
    z.strictObject({ calledWith: z.strictObject({ tool: toolName, args: expectedArgs }) }),
    /** The tools called in this order: others may come between, or none with `strict`. */
    z.strictObject({
      sequence: z.union([
        toolSequence,
        z.strictObject({ tools: toolSequence, strict: z.boolean().default(false) }),
      ], { error: 'expected a list of tools, or {tools, strict}' }),
    }),
    /** Tool calls in the step, refused and short-circuited ones included. */
    z.strictObject({ maxCalls: z.number({ error: 'expected a whole number' }).int('expected a whole number').nonnegative('expected a whole number') }),
    /** Model requests in the step. */
    z.strictObject({ maxRounds: positiveInt }),
    /** A model's verdict on the step against a rubric (src/judge/); the run's model by default. */
    z.strictObject({
      judge: z.strictObject({
        rubric: z.string().trim().min(1, 'expected the rubric: what the step must have done to pass'),
        model: judgeModel.optional(),
      }),
    }),
  ],
  {
    error: 'expected one of file, sql, called, succeeded, notCalled, answer, maxRepeats, noZeroToolRounds, calledWith, sequence, maxCalls, maxRounds, judge',
  },
);

const referenceCall = z.strictObject({
  tool: toolName,
  /** `{workspace}` in a string value is the pass's folder (servers that take absolute paths). */
  args: z.record(z.string(), z.unknown()).default({}),
});

const step = z.strictObject({
  prompt: z.string().min(1, 'expected a prompt'),
  /** Tool calls allowed in the step; the step ends as `ceiling` when they are spent. */
  ceiling: positiveInt,
  /** Wall-clock seconds for the step, scaled by the time factor down to a floor (src/runner/timing.ts). */
  timeLimitS: z.number().positive('expected a positive number of seconds').default(300),
  checks: z.array(checkSchema).min(1, 'expected at least one check'),
  reference: z.strictObject({
    calls: z.array(referenceCall).default([]),
    answer: z.string().min(1, 'expected the reference answer'),
  }),
});

/**
 * The report's metrics a rung's effect can be declared on (src/report/paired.ts has their
 * definitions); each is better higher (pass rates) or lower (the rest).
 */
export const EFFECT_METRICS = [
  'step_pass_rate', 'clean_run_rate', 'ceiling_share', 'dead_calls', 'identical_repeats', 'zero_tool_rounds', 'step_ms', 'time_to_answer',
  'tool_precision', 'tool_recall', 'tool_f1', 'path_efficiency', 'extra_calls',
] as const;
export type EffectMetric = (typeof EFFECT_METRICS)[number];

/** An arm as written in a rung, made canonical (formatArm); a bad one is the schema's problem. */
const armText = z.string().transform((text, ctx) => {
  try {
    return formatArm(parseArm(text));
  } catch (error) {
    if (!(error instanceof ArmError)) throw error;
    ctx.addIssue({ code: 'custom', message: error.message });
    return z.NEVER;
  }
});

/**
 * What the rung's mechanism should do under its pathology (`ladder rungs calibrate` checks it):
 * which of two arms should do better on one metric, or `same` for a control, always with why.
 */
const effect = z
  .strictObject({
    /** The two arms compared; by default the reliability layer off against on. */
    arms: z.tuple([armText, armText]).default(['off', 'on']),
    /** One of the two arms, or `same`: a control, where the mechanism must make no difference. */
    better: z.string().min(1),
    metric: z.enum(EFFECT_METRICS, { error: `expected one of ${EFFECT_METRICS.join(', ')}` }),
    /** Why: what the mechanism does under the pathology, or why a control must not differ. */
    why: z.string().min(1, 'expected the reason'),
  })
  .transform((value, ctx) => {
    if (value.arms[0] === value.arms[1]) ctx.addIssue({ code: 'custom', path: ['arms'], message: 'expected two different arms' });
    if (value.better === 'same') return { ...value, better: 'same' as const };
    let better: string;
    try {
      better = formatArm(parseArm(value.better));
    } catch {
      better = value.better;
    }
    if (!value.arms.includes(better)) {
      ctx.addIssue({ code: 'custom', path: ['better'], message: `expected one of the arms (${value.arms.join(', ')}) or same` });
    }
    return { ...value, better };
  });

/** A form's values: what an elicitation's `content` may hold (MCP's restricted form schema). */
const formValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

const elicitAnswer = z
  .strictObject({
    /** A part of the server's message that picks this answer, e.g. "Deploy to production?". */
    message: z.string().min(1, 'expected a part of the message the server asks'),
    action: z.enum(['accept', 'decline', 'cancel'], { error: 'expected accept, decline or cancel' }).default('accept'),
    /** The form's values, sent with `accept`. */
    content: z.record(z.string(), formValue).optional(),
  })
  .refine((a) => a.content === undefined || a.action === 'accept', { message: 'content goes with action: accept only', path: ['content'] });

export const rungSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9-]+$/, 'expected lower-case letters, digits and dashes'),
  description: z.string().min(1),
  /**
   * Optional: the real failure the rung reproduces, where it was seen and what happened (the
   * rungs shipped point at their section of docs/incidents.md). Shown nowhere; it is for readers.
   */
  origin: z.string().min(1, 'expected a few words on the incident this rung comes from, or no origin at all').optional(),
  /** What the rung's mechanism should do under its pathology; `ladder rungs calibrate` proves it. */
  effect: effect.optional(),
  servers: z.record(z.string().regex(/^[a-z0-9-]+$/, 'expected a server name of [a-z0-9-]+'), serverSpec),
  /** Qualified tool names that are deterministic, beyond what servers declare in `_meta`. */
  deterministic: z.array(toolName).default([]),
  /** Whether a server's `_meta["ladder/deterministic"]` is believed. */
  trustServerHints: z.boolean().default(true),
  /**
   * Answers to the servers' requests for input (elicitation, in either MCP era): the first whose
   * `message` occurs in what a server asks answers it; a request none matches is declined
   * (src/lane/elicit.ts). Every request is recorded, and `ladder show` prints it.
   */
  elicit: z.array(elicitAnswer).default([]),
  /** Scales job durations, the wait cap and client timeouts together (1 = real time). */
  timeFactor: z.number().positive().default(1),
  /**
   * The synthetic policy whose pathology this rung targets; `synthetic:mix` runs it here.
   * Synthetic agents exercise the harness, they do not measure models.
   */
  syntheticPolicy: z.enum(SYNTHETIC_POLICIES, { error: `expected one of ${SYNTHETIC_POLICIES.join(', ')}` }).default('reference'),
  setup: z
    .strictObject({
      /** Files copied into the pass's workspace: relative path -> content. */
      files: z.record(z.string(), z.string()).default({}),
      /** SQL run against the workbench database before the pass. */
      sql: z.string().optional(),
    })
    .default({ files: {} }),
  steps: z.array(step).min(1, 'expected at least one step'),
});

export type Rung = z.infer<typeof rungSchema>;
export type RungStep = Rung['steps'][number];
export type Check = RungStep['checks'][number];
export type ServerSpec = z.infer<typeof serverSpec>;
export type Effect = NonNullable<Rung['effect']>;
