import type { CommandModule } from 'yargs';
import { createModel, ModelConfigError, ModelSpecError } from '../models/index.ts';
import type { AdapterOptions } from '../models/index.ts';
import { checkModel } from '../models/doctor.ts';

// Two attempts, not four: a doctor should say quickly that something is down.
const DOCTOR_ATTEMPTS = 2;

export interface DoctorWorld {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly write?: (line: string) => void;
  /** Seams for tests (sleep, timeouts); users never set them. */
  readonly adapter?: AdapterOptions;
}

/** Checks one model and prints its one-line verdict; returns the exit code (0 OK, 1 failed, 2 bad input). */
export async function runDoctor(model: string, baseUrl: string | undefined, world: DoctorWorld = {}): Promise<number> {
  const write = world.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  let adapter;
  try {
    adapter = createModel(model, {
      ...world.adapter,
      ...(baseUrl !== undefined ? { baseUrl } : {}),
      ...(world.env ? { env: world.env } : {}),
      retry: { maxAttempts: DOCTOR_ATTEMPTS, ...world.adapter?.retry },
    });
  } catch (err) {
    if (!(err instanceof ModelSpecError || err instanceof ModelConfigError)) throw err;
    write(`FAIL ${err.message}`);
    return 2;
  }
  const result = await checkModel(adapter);
  write(result.line);
  return result.ok ? 0 : 1;
}

interface DoctorArgs {
  readonly model: string;
  readonly 'base-url'?: string;
}

export const doctorCommand: CommandModule<object, DoctorArgs> = {
  command: 'doctor',
  describe: 'Check one model end to end (reachable, answers, calls a tool) and print a one-line verdict',
  builder: (yargs) =>
    yargs
      .option('model', {
        type: 'string',
        demandOption: true,
        describe: 'ollama:<model>, openai:<model> or anthropic:<model>',
      })
      .option('base-url', {
        type: 'string',
        describe: 'Provider endpoint (any OpenAI-compatible server for openai:, the Ollama host for ollama:)',
      }),
  handler: async (argv) => {
    process.exitCode = await runDoctor(argv.model, argv['base-url']);
  },
};
