#!/usr/bin/env bash
# A second client for `ladder serve`: the official MCP inspector's CLI mode lists the tools and
# calls one, over stdio and over Streamable HTTP (with a bearer token), and checks the answers.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/serve-command.sh"
cd "$ROOT"

work="$(mktemp -d)"
trap 'stop_http_server; rm -rf "$work"' EXIT
inspector="$ROOT/node_modules/.bin/mcp-inspector-cli"
token="inspector-check-token"

# inspector-cli 0.21.2 looks for its own package.json at ../package.json relative to the working
# directory before importing it relative to its module; running from a folder whose parent has
# a package.json makes both lookups agree.
mkdir -p "$work/run" "$work/stdio-ws"
echo '{}' >"$work/package.json"

# Config files in the ecosystem's mcpServers shape, one per transport.
node -e '
  const [file, ws, ...serve] = process.argv.slice(1);
  const args = [...serve.slice(1), "--transport", "stdio", "--workspace", ws];
  require("fs").writeFileSync(file, JSON.stringify({ mcpServers: { ladder: { command: serve[0], args } } }));
' "$work/stdio.json" "$work/stdio-ws" "${LADDER_SERVE[@]}"

start_http_server "$work/http" --token "$token"
node -e '
  const [file, url] = process.argv.slice(1);
  require("fs").writeFileSync(file, JSON.stringify({ mcpServers: { ladder: { type: "streamable-http", url } } }));
' "$work/http.json" "$SERVER_URL"

# Runs the inspector with a config and a method; fails unless the output contains $1.
check() {
  local expect="$1" label="$2"
  shift 2
  local out
  if ! out="$(cd "$work/run" && "$inspector" --cli "$@" 2>&1)"; then
    echo "inspector-check: $label failed:" >&2
    echo "$out" >&2
    return 1
  fi
  if ! grep -qF -- "$expect" <<<"$out"; then
    echo "inspector-check: $label did not answer with $expect:" >&2
    echo "$out" >&2
    return 1
  fi
  echo "inspector-check: $label ok"
}

check '"jobs_wait"' 'stdio tools/list' --config "$work/stdio.json" --server ladder --method tools/list
check 'retries.maxAttempts: 4' 'stdio tools/call catalog_lookup' --config "$work/stdio.json" --server ladder \
  --method tools/call --tool-name catalog_lookup --tool-arg topic=config/retries
auth=(--header "Authorization: Bearer $token")
check '"browser_navigate"' 'http tools/list' --config "$work/http.json" --server ladder "${auth[@]}" --method tools/list
check 'wrote 5 bytes to hello.txt' 'http tools/call files_write' --config "$work/http.json" --server ladder "${auth[@]}" \
  --method tools/call --tool-name files_write --tool-arg path=hello.txt --tool-arg content=hello
if [[ "$(cat "$work/http/ws/hello.txt")" != "hello" ]]; then
  echo "inspector-check: files_write over http left no hello.txt in the workspace" >&2
  exit 1
fi
echo "inspector-check: passed"
