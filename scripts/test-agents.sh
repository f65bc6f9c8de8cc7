#!/usr/bin/env bash
# The real-agent suite (test/agents-real/). The agents are not Ladder's dependencies (Codex
# alone is over 400 MB): every recipe the suite runs (src/agents/tested.ts, listed by
# `ladder agents --json`) is installed at its pinned version into the per-user agent cache
# (`ladder agents install`, which reuses what the cache already holds at that version), and
# each one's bin folder is put on PATH for the tests that start an agent by its command.
# .cache/agents-real/ stays the suite's scratch folder.
set -euo pipefail
cd "$(dirname "$0")/.."

listing=$(node bin/ladder.js agents --json)
field() { node -e "const l = JSON.parse(process.argv[1]); for (const r of l.rows) if (r.tested) console.log($1)" "$listing"; }

mapfile -t tested < <(field 'r.name')
echo "== real agents: ${tested[*]}"
node bin/ladder.js agents install "${tested[@]}"

# Listed again after the installs: each one's command, now in the cache.
listing=$(node bin/ladder.js agents --json)
while read -r bin; do
  [ -n "$bin" ] && PATH="$(dirname "$bin"):$PATH"
done < <(field "r.installed && r.installed.where === 'cache' ? r.installed.command : ''")
export PATH

# ---- The SDK examples (test/agents-real/sdk.test.ts) -------------------------------------------
# examples/agents/openai-agents and examples/agents/langchain are npm packages of their own, each
# with its committed lockfile, installed into its own folder as a user would. `npm ci` deletes
# node_modules first, so it runs only when what is installed differs from the lockfile.
# (openai 7 declares Node 22; npm warns EBADENGINE on Node 20, where it runs.)
locked() {
  node -e '
    const { existsSync, readFileSync } = require("node:fs");
    const dir = process.argv[1];
    const lock = JSON.parse(readFileSync(`${dir}/package-lock.json`, "utf8")).packages;
    for (const [path, entry] of Object.entries(lock)) {
      if (path === "") continue;
      const file = `${dir}/${path}/package.json`;
      if (!existsSync(file) ? !entry.optional : JSON.parse(readFileSync(file, "utf8")).version !== entry.version) process.exit(1);
    }' "$1"
}
for example in examples/agents/openai-agents examples/agents/langchain; do
  if ! locked "$example"; then
    echo "== npm ci --prefix $example"
    npm ci --prefix "$example" --no-audit --no-fund
  fi
done

exec npx vitest run --config vitest.agents.config.ts "$@"
