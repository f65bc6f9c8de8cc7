#!/usr/bin/env bash
# The real-agent suite (test/agents-real/). The agents are not Ladder's dependencies (Codex
# alone is over 400 MB), so the pinned versions are installed into an ignored cache folder,
# once: a folder that already holds them at these versions is used as it is.
set -euo pipefail
cd "$(dirname "$0")/.."

CACHE=.cache/agents
PINS=("@openai/codex@0.171.0" "@zed-industries/codex-acp@0.16.0" "@anthropic-ai/claude-code@2.1.328")

installed() {
  local name=${1%@*} want=${1##*@}
  [ "$(node -p "require('./$CACHE/node_modules/$name/package.json').version" 2>/dev/null)" = "$want" ]
}

missing=()
for pin in "${PINS[@]}"; do installed "$pin" || missing+=("$pin"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing ${missing[*]} into $CACHE"
  mkdir -p "$CACHE"
  # A package.json of its own, so npm installs here and not into Ladder's tree above.
  [ -f "$CACHE/package.json" ] || echo '{ "name": "ladder-agents-cache", "private": true }' > "$CACHE/package.json"
  npm install --prefix "$CACHE" --save-exact --no-audit --no-fund "${missing[@]}"
fi

export PATH="$PWD/$CACHE/node_modules/.bin:$PATH"

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
