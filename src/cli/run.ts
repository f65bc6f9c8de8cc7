import type { CommandModule } from 'yargs';

// `ladder run` is the main job (DESIGN.md "The main job"). Until the runner lands it says
// plainly what exists and exits 0, so the README's first command is always true.
export const runCommand: CommandModule = {
  command: 'run [rungs..]',
  describe: 'Run every rung on both arms and print the comparison (the runner is not built yet)',
  handler: () => {
    process.stdout.write(
      [
        'ladder run: the rung runner is not built yet.',
        'What exists today: the reliability layer (src/reliability/) with its tests and mutation battery.',
        'Try: npm test (the tests), npm run mutate (the mutation battery).',
        '',
      ].join('\n'),
    );
  },
};
