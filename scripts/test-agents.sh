#!/usr/bin/env bash
# The real-agent suite (test/agents-real/). The agents are not Ladder's dependencies (Codex
# alone is over 400 MB), so the pinned versions are installed into an ignored cache folder,
# once: a folder that already holds them at these versions is used as it is.
set -euo pipefail
cd "$(dirname "$0")/.."

CACHE=.cache/agents
PINS=("@openai/codex@0.171.0" "@zed-industries/codex-acp@0.16.0" "@google/gemini-cli@0.61.0")

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
exec npx vitest run --config vitest.agents.config.ts "$@"
