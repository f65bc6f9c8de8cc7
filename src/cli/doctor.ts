import type { CommandModule } from 'yargs';
import type { AdapterOptions, ModelFlags } from '../models/index.ts';
import { UsageMistake } from './errors.ts';
import { MODEL_FLAG_OPTIONS } from './modelFlags.ts';

// Two attempts, not four: a doctor should say quickly that something is down.
const DOCTOR_ATTEMPTS = 2;

export interface DoctorWorld {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly write?: (line: string) => void;
  /** Where a mistake in the spec or the configuration is said (exit 2); stderr by default. */
  readonly err?: (line: string) => void;
  /** Seams for tests (sleep, timeouts); users never set them. */
  readonly adapter?: AdapterOptions;
}

/** The flags as typed; `thinking` is still the word given. */
export type DoctorFlags = Omit<ModelFlags, 'thinking'> & { readonly thinking?: string };

/**
 * Checks one model and prints its one-line verdict; returns the exit code (0 OK, 1 failed, 2 bad
 * input). The adapter is made from the flags exactly as `ladder run` makes it.
 */
export async function runDoctor(model: string, typed: DoctorFlags = {}, world: DoctorWorld = {}): Promise<number> {
  const write = world.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  // The model layer is loaded by the command that uses it, not by every `ladder` start.
  const { createModel, flagProblems, ModelConfigError, ModelSpecError, parseModelSpec, parseThinking } = await import('../models/index.ts');
  const { checkModel } = await import('../models/doctor.ts');
  let adapter;
  try {
    const { thinking, ...rest } = typed;
    const flags: ModelFlags = { ...rest, ...(thinking === undefined ? {} : { thinking: parseThinking(thinking) }) };
    const problems = flagProblems(parseModelSpec(model).provider, flags);
    if (problems.length > 0) throw new ModelConfigError(problems.join('; '));
    adapter = createModel(model, {
      ...world.adapter,
      ...flags,
      ...(world.env ? { env: world.env } : {}),
      retry: { maxAttempts: DOCTOR_ATTEMPTS, ...world.adapter?.retry },
    });
  } catch (err) {
    if (!(err instanceof ModelSpecError || err instanceof ModelConfigError)) throw err;
    // A mistake is named as every command names its own; the verdict line (OK or FAIL) is the result, on stdout.
    (world.err ?? ((line: string) => process.stderr.write(`${line}\n`)))(`ladder doctor: FAIL ${err.message}`);
    return 2;
  }
  const result = await checkModel(adapter);
  write(result.line);
  return result.ok ? 0 : 1;
}

/**
 * `ladder doctor --agent NAME`: the agent through both gateways, one line per stage, then the
 * verdict; returns the exit code (0 OK, 1 a stage failed, 2 an agent file that cannot be read).
 */
export async function runAgentDoctor(nameOrPath: string, world: DoctorWorld & { tempBase?: string } = {}): Promise<number> {
  const write = world.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const err = world.err ?? ((line: string) => process.stderr.write(`${line}\n`));
  const { AgentFileError, loadAgentFile } = await import('../agents/index.ts');
  const { checkAgent, verdictLine } = await import('../runner/doctorAgent.ts');
  let file;
  try {
    file = await loadAgentFile(nameOrPath);
  } catch (error) {
    if (!(error instanceof AgentFileError)) throw error;
    for (const line of error.problems) err(`ladder doctor: ${line}`);
    return 2;
  }
  write(`ladder doctor: ${file.name} against both gateways, a scripted model behind them (one tool call, then an answer)`);
  const result = await checkAgent(file, { env: world.env ?? process.env, ...(world.tempBase === undefined ? {} : { tempBase: world.tempBase }) });
  for (const line of result.lines) write(`  ${line}`);
  write(verdictLine(file, result));
  return result.ok ? 0 : 1;
}

interface DoctorArgs {
  readonly model?: string;
  readonly agent?: string;
  readonly 'base-url'?: string;
  readonly thinking?: string;
  readonly 'num-ctx'?: number;
}

export const doctorCommand: CommandModule<object, DoctorArgs> = {
  command: 'doctor',
  describe: 'Check one model end to end (reachable, answers, calls a tool) and print a one-line verdict',
  builder: (yargs) =>
    yargs
      .option('model', {
        type: 'string',
        describe: 'ollama:<model>, openai:<model> or anthropic:<model>',
      })
      .option('agent', {
        type: 'string',
        describe: 'An external agent (a recipe or an agent file): started against both gateways, one line per stage',
      })
      .options(MODEL_FLAG_OPTIONS),
  handler: async (argv) => {
    // Said as every mistake in the flags is: one line, exit 2 (runProgram).
    if (argv.agent !== undefined && argv.model !== undefined) {
      throw new UsageMistake('ladder doctor: --agent runs the agent with its own scripted model; check the model on its own with ladder doctor --model');
    }
    if (argv.agent === undefined && argv.model === undefined) {
      throw new UsageMistake('ladder doctor: name what to check: --model <spec> (a model) or --agent <name> (an external agent)');
    }
    if (argv.agent !== undefined) {
      process.exitCode = await runAgentDoctor(argv.agent);
      return;
    }
    process.exitCode = await runDoctor(argv.model!, {
      ...(argv['base-url'] === undefined ? {} : { baseUrl: argv['base-url'] }),
      ...(argv.thinking === undefined ? {} : { thinking: argv.thinking }),
      ...(argv['num-ctx'] === undefined ? {} : { numCtx: argv['num-ctx'] }),
    });
  },
};
