// The commands Ladder prints for the user to run next (resume, report, show) must paste back
// as typed. From a clone, Ladder runs through npx, and a bare `ladder` is not on the PATH;
// npx runs it with npm_command=exec, so that is when the printed command says `npx ladder`.

/** `npx ladder` when this process runs through npx, else `ladder`. */
export function ladderCommand(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return env.npm_command === 'exec' ? 'npx ladder' : 'ladder';
}
