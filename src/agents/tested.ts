// The recipes the real-agent suite runs (`npm run test:agents`, which CI runs): installed at
// their pinned versions by scripts/test-agents.sh and put on three rungs, both arms, offline, by
// test/agents-real/rungs.test.ts, which takes its list from here. So `ladder agents` saying
// "CI-tested" is true by construction: a recipe is on this list exactly when that suite runs it.
export const CI_TESTED: readonly string[] = [
  'claude-code', 'claude-code-acp', 'codex', 'codex-acp', 'gemini', 'gemini-acp', 'opencode', 'opencode-acp', 'qwen-code', 'qwen-code-acp',
];
