// Mistakes on the command line (an unknown flag, a misspelt command, a flag with no value or
// a value of the wrong kind) as one line on stderr naming the mistake and the nearest valid
// flag or command, and exit 2. yargs would print the whole help and exit 1; a newcomer then
// has to find the one line that matters under forty.
import type { Argv } from 'yargs';
import { nearest } from '../rungs/nearest.ts';

export { editDistance, nearest } from '../rungs/nearest.ts';

/** A mistake in the words typed: one line, exit code 2. */
export class UsageMistake extends Error {
  override readonly name = 'UsageMistake';
}

interface Shape {
  /** The commands typed so far (`rungs` for `ladder rungs validate`). */
  path: string[];
  /** The flags this command takes, as typed (kebab-case). */
  flags: string[];
  numbers: Set<string>;
  /** Flags that take no value (booleans, counts). */
  bare: Set<string>;
  commands: string[];
  /** The command's own usage (`compare <runA> [runB]`), when known. */
  usage?: string;
}

/**
 * What yargs knows about the command being parsed. These methods exist on every yargs 18
 * instance but @types/yargs (written for 17) does not declare them, hence this one view.
 */
interface Internals {
  getOptions(): { key: Record<string, unknown>; number: string[]; boolean: string[]; count: string[] };
  getInternalMethods(): {
    getContext(): { commands: string[] };
    getCommandInstance(): { getCommands(): string[] };
    getUsageInstance(): { getUsage(): [string, string][] };
  };
}

const internals = (program: Argv): Internals => program as unknown as Internals;

/** yargs sets each command's usage (`$0 compare <runA> [runB]`) while it parses that command. */
function usageOf(program: Argv): { usage?: string } {
  const usage = internals(program).getInternalMethods().getUsageInstance().getUsage()[0]?.[0];
  return typeof usage === 'string' && usage.startsWith('$0 ') ? { usage: usage.replace('$0', 'ladder') } : {};
}

function shapeOf(program: Argv): Shape {
  const options = internals(program).getOptions();
  const internal = internals(program).getInternalMethods();
  const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const keys = Object.keys(options.key).filter((key) => !/[A-Z]/.test(key) || !Object.hasOwn(options.key, kebab(key)));
  return {
    path: [...internal.getContext().commands],
    flags: [...new Set(keys.map(kebab))],
    numbers: new Set(options.number.map(kebab)),
    bare: new Set([...options.boolean, ...options.count].map(kebab)),
    commands: internal.getCommandInstance().getCommands(),
    ...usageOf(program),
  };
}

const flag = (name: string): string => (name.length === 1 ? `-${name}` : `--${name}`);

function where(shape: Shape): string {
  return ['ladder', ...shape.path].join(' ');
}

function unknownWord(word: string, shape: Shape, positional: boolean): string {
  const help = `${where(shape)} --help`;
  if (positional && shape.commands.length > 0) {
    const close = nearest(word, shape.commands);
    const hint = close === undefined ? `the commands are ${shape.commands.join(', ')}` : `did you mean ${where(shape)} ${close}?`;
    return `${where(shape)}: unknown command ${word}; ${hint}`;
  }
  if (positional) return `${where(shape)}: unexpected argument ${word}; ${help} says what it takes`;
  const close = nearest(word, shape.flags.filter((f) => f !== 'help' && f !== 'version'));
  return `${where(shape)}: unknown flag ${flag(word)}; ${close === undefined ? `${help} lists the flags` : `did you mean ${flag(close)}?`}`;
}

/** yargs' message, in one line of our own words. */
export function mistakeLine(message: string, shape: Shape, args: readonly string[]): string {
  const unknown = /^Unknown arguments?: (.+)$/.exec(message);
  if (unknown) {
    // yargs names a kebab-case flag twice, as typed and in camel case.
    const words = [...new Set(unknown[1]!.split(', ').map((w) => w.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)))];
    const first = words[0]!;
    const positional = args.includes(first) && !args.some((a) => /^-/.test(a) && a.replace(/^-+/, '').split('=')[0] === first);
    // After an unknown command the other words mean nothing yet; after a flag they are mistakes too.
    const more = words.length > 1 && !(positional && shape.commands.length > 0)
      ? ` (and ${words.slice(1).map((w) => (args.includes(w) ? w : flag(w))).join(', ')})` : '';
    return `${unknownWord(first, shape, positional)}${more}`;
  }
  const missing = /^Missing required arguments?: (.+)$/.exec(message);
  if (missing) {
    // `--modle x` leaves --model missing: the misspelling is the mistake to name.
    const typo = args.find((a) => a.startsWith('-') && a !== '--' && !shape.flags.includes(a.replace(/^-+/, '').split('=')[0]!));
    if (typo !== undefined) return unknownWord(typo.replace(/^-+/, '').split('=')[0]!, shape, false);
    const names = missing[1]!.split(', ');
    return `${where(shape)}: ${names.map(flag).join(', ')} ${names.length === 1 ? 'is' : 'are'} required; ${where(shape)} --help says what ${names.length === 1 ? 'it takes' : 'they take'}`;
  }
  const choice = /Argument: ([^,]+), Given: ("[^"]*"|[^,]+), Choices: (.+)$/m.exec(message);
  if (choice) {
    const given = choice[2]!.replace(/^"|"$/g, '');
    const choices = choice[3]!.split(', ').map((c) => c.replace(/^"|"$/g, ''));
    const close = nearest(given, choices);
    return `${where(shape)}: ${flag(choice[1]!)} ${given} is not one of ${choices.join(', ')}${close === undefined ? '' : `; did you mean ${close}?`}`;
  }
  // A command group given no command, or a word that is not one of its commands.
  const typed = args.find((a, i) => i >= shape.path.length && !a.startsWith('-'));
  if (shape.commands.length > 0) {
    if (typed !== undefined && !shape.commands.includes(typed)) return unknownWord(typed, shape, true);
    if (typed === undefined) return `${where(shape)}: name a command: ${shape.commands.join(', ')} (${where(shape)} --help says what each does)`;
  }
  if (/^Not enough non-option arguments/.test(message)) {
    return `${where(shape)}: missing an argument${shape.usage === undefined ? '' : `; usage: ${shape.usage}`}`;
  }
  const flat = message.replace(/\s+/g, ' ').trim();
  return shape.path.length === 0 ? `ladder: ${flat}` : `${where(shape)}: ${flat}`;
}

/** The text typed for a flag: `abc` from `--passes abc` or `--passes=abc`, the last one given. */
export function typedValue(args: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  const names = new Set([flag(name), flag(name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()))]);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') break;
    const eq = arg.indexOf('=');
    if (eq > 0 && names.has(arg.slice(0, eq))) value = arg.slice(eq + 1);
    else if (names.has(arg)) value = args[i + 1];
  }
  return value;
}

/** Values yargs accepts silently: a number flag given text (yargs makes it NaN), a flag with no value. */
function valueMistake(argv: Record<string, unknown>, shape: Shape, args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') break;
    if (!arg.startsWith('--') || arg.includes('=')) continue;
    const name = arg.slice(2);
    if (!shape.flags.includes(name) || shape.bare.has(name) || name.startsWith('no-')) continue;
    const next = args[i + 1];
    if (next === undefined || (next.startsWith('-') && !/^-\d/.test(next))) return `${where(shape)}: ${arg} needs a value`;
  }
  for (const name of shape.numbers) {
    const camel = name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    const value = argv[camel] ?? argv[name];
    const values = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === 'number' && Number.isNaN(v))) {
      return `${where(shape)}: ${flag(name)} ${typedValue(args, name) ?? ''}: expected a number`.replace(' :', ':');
    }
  }
  return undefined;
}

/**
 * Makes every mistake yargs finds, and the ones it lets through, a UsageMistake. Call it on
 * the program before `.parseAsync()`, then `await runProgram(...)`.
 */
export function reportMistakes(program: Argv, args: readonly string[]): Argv {
  return program
    .fail((message, error) => {
      if (error !== undefined && error !== null) throw error;
      throw new UsageMistake(mistakeLine(message ?? '', shapeOf(program), args));
    })
    .middleware((argv) => {
      const line = valueMistake(argv, shapeOf(program), args);
      if (line !== undefined) throw new UsageMistake(line);
    }, true)
    .showHelpOnFail(false);
}

/** Parses and runs; a UsageMistake is its one line on stderr and exit code 2. */
export async function runProgram(program: Argv, write: (line: string) => void = (line) => void process.stderr.write(`${line}\n`)): Promise<void> {
  try {
    await program.parseAsync();
  } catch (error) {
    if (!(error instanceof UsageMistake)) throw error;
    write(error.message);
    process.exitCode = 2;
  }
}

/** The positional every command that reads a run takes. */
export const RUN_FOLDER = { type: 'string', demandOption: true, describe: 'Results folder (results/<run-id>)' } as const;

/** Any error class, whatever its constructor takes. */
type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * How a command ends on input it cannot use (a results folder, a rung or price file, a
 * collector's address): each line of the error (its `lines` where it has them) as
 * `ladder <command>: …` on stderr, and exit 2. An error of any other kind is a defect in
 * Ladder, so it goes on up with its stack.
 */
export function inputMistake(command: string, error: unknown, err: (line: string) => void, kinds: readonly ErrorClass[]): 2 {
  if (!kinds.some((kind) => error instanceof kind)) throw error;
  const { lines } = error as { lines?: unknown };
  const said = Array.isArray(lines) ? lines.map(String) : [(error as Error).message];
  for (const line of said) err(`ladder ${command}: ${line}`);
  return 2;
}
