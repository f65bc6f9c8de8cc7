import type { CommandModule } from 'yargs';
import { MODEL_FLAG_OPTIONS } from './modelFlags.ts';
import { PROTOCOLS } from '../mcp/protocols.ts';
import type { RunArgs } from './runLadder.ts';

// `ladder run` is the main job (the README's first command). The builder is all this file loads:
// the runner and its dependencies are imported when the command runs, so other commands
// (above all `ladder serve`, started for every pass) do not pay for them.
export const runCommand: CommandModule<object, RunArgs> = {
  command: 'run [rungs..]',
  describe: 'Run every rung (or those named) on both arms, N passes each, and print a one-screen summary of the comparison',
  builder: (yargs) =>
    yargs
      .positional('rungs', { type: 'string', array: true, describe: 'Rung files, folders, globs or names (default: every rung in rungs/)' })
      .option('model', { type: 'string', describe: 'ollama:<m>, openai:<m>, anthropic:<m>, synthetic:<policy> or synthetic:mix (default: LADDER_MODEL, a local Ollama, else synthetic:mix)' })
      .option('passes', { type: 'number', describe: 'Passes per rung and arm (default 10)' })
      .option('arms', { type: 'string', describe: 'Comma list of arms, e.g. on,off or on,off,breaker=off; a mechanism list goes in quotes with ; between arms, and may set a step parameter: \'off;off,ceiling=x2\' (default on,off)' })
      .option('seed', { type: 'number', describe: 'Run seed; pass i of every arm gets a seed derived from it, the rung and i (default 1)' })
      .option('concurrency', { type: 'number', describe: 'Passes at a time (default 4 for synthetic agents, 1 for a model); against a provider, lowered on 429s and raised again as calls succeed' })
      .option('out', { type: 'string', describe: 'Results folder (default results/<date>-<model>)' })
      .option('resume', { type: 'boolean', describe: 'Continue the interrupted run in --out: complete passes kept, the rest made' })
      .option('shard', { type: 'string', describe: 'i/n: run a deterministic share of the passes (join shards with ladder merge)' })
      .option('time-factor', { type: 'number', describe: "Real time per workbench time for every rung (default each rung's own; 0.01 is 100x faster)" })
      .option('mode', { choices: ['steps', 'oneshot'] as const, describe: 'steps: one turn per step (default); oneshot: every prompt in one turn' })
      .option('replay', { type: 'string', describe: 'A results folder: answer every model request with its recorded response (no provider is called, no key needed); a request that differs ends its step as replay_diverged' })
      .option('redact', { choices: ['content'] as const, describe: 'content: traces keep hashes and byte counts instead of prompts, answers, arguments and results' })
      .option('keep-workspaces', { type: 'boolean', describe: "Keep each step's workspace and database (.tar.gz under workspaces/) so ladder rescore can judge file and sql checks again" })
      .option('prices', { type: 'string', describe: 'A JSON price file over the shipped table (data/prices.json): US dollars per million tokens per model' })
      .option('agent', { type: 'string', describe: 'An external agent runs the steps: a shipped recipe (codex, codex-acp, claude-code, ...) or an agent file; its model requests are answered by --model (docs/agent.md)' })
      .option('summary', { choices: ['short', 'full'] as const, default: 'short' as const, describe: 'What the run prints when it ends: short, one screen (the headline, the step pass rate per rung, problems, next commands); full, the whole comparison of ladder compare' })
      .option('max-cost', { type: 'number', describe: 'US dollars: start no pass that could take the run past it; the run stops resumable' })
      .option('protocol', {
        choices: PROTOCOLS,
        describe: 'MCP revision with every server, over the rung\'s own: adds protocol=<it> to each arm that sets none (auto, legacy or 2026-07-28)',
      })
      .options(MODEL_FLAG_OPTIONS),
  handler: async (argv) => {
    const { runLadder } = await import('./runLadder.ts');
    process.exitCode = await runLadder(argv);
  },
};
