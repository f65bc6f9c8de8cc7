// Writing the file a report command was told to write, with a mistake in its path said in one line.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ReportInputError } from '../results/read.ts';

/**
 * Writes a file a command was told to write (`--output`, `--out`), making its folder first. A
 * path that still cannot be written (a file where a folder should be, no permission) is one
 * line naming the flag, the path and the cause, not a stack trace.
 */
export function writeOutputFile(flag: string, path: string, text: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  } catch (error) {
    const cause = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ReportInputError(`${flag} ${path}: cannot be written (${cause}); give a path in a folder you can write to`);
  }
}
