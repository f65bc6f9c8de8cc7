#!/usr/bin/env bash
# The official MCP conformance suite (server mode, Streamable HTTP) against `ladder gateway
# --transport http` with @modelcontextprotocol/server-everything behind it over stdio, and
# against server-everything run directly in its own Streamable HTTP mode. Fails unless the
# gateway passes every scenario the direct server passes, bar the ones the gateway leaves out by
# design (test/conformance/gateway-baseline.yml, a reason each); scripts/conformance-compare.js
# prints the two lists side by side.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT

# The harness's own Node and the installed script, as the lane starts a Node server: no npx.
node="$(node -p process.execPath)"
everything="$ROOT/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
test -f "$everything" || { echo "conformance-gateway: $everything is missing; run npm ci" >&2; exit 1; }

# Waits until file $1 matches the regex $2 (60 s at most) while process $3 lives; prints the match.
wait_for() {
  local file="$1" pattern="$2" pid="$3" waited=0
  until grep -qE "$pattern" "$file" 2>/dev/null; do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "conformance-gateway: process exited before it was ready:" >&2
      cat "$file" >&2
      return 1
    fi
    if ((waited >= 600)); then
      echo "conformance-gateway: not ready within 60 s:" >&2
      cat "$file" >&2
      return 1
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
  grep -oE "$pattern" "$file" | head -n 1
}

# server-everything's Streamable HTTP mode listens on $PORT (all interfaces; default 3001): a
# free port, asked of the kernel just before.
port="$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')"
PORT="$port" "$node" "$everything" streamableHttp >"$work/direct.log" 2>&1 &
pids+=($!)
wait_for "$work/direct.log" "listening on port $port" "${pids[-1]}" >/dev/null
direct_url="http://127.0.0.1:$port/mcp"

node -e '
  const [file, node, script] = process.argv.slice(1);
  require("fs").writeFileSync(file, JSON.stringify({ mcpServers: { everything: { command: node, args: [script, "stdio"] } } }));
' "$work/servers.json" "$node" "$everything"
"$node" bin/ladder.js gateway --servers "$work/servers.json" --transport http --port 0 >/dev/null 2>"$work/gateway.log" &
pids+=($!)
gateway_url="$(wait_for "$work/gateway.log" 'http://127\.0\.0\.1:[0-9]+/mcp' "${pids[-1]}")"

# Each run exits non-zero on the scenarios its server fails; the comparison decides.
echo "conformance-gateway: server-everything directly at $direct_url"
node_modules/.bin/conformance server --url "$direct_url" --output-dir "$work/direct" >"$work/direct.out" 2>&1 || true
echo "conformance-gateway: ladder gateway at $gateway_url"
node_modules/.bin/conformance server --url "$gateway_url" --output-dir "$work/gateway" >"$work/gateway.out" 2>&1 || true

status=0
node scripts/conformance-compare.js "$work/direct" "$work/gateway" test/conformance/gateway-baseline.yml || status=$?
if ((status != 0)); then
  echo "conformance-gateway: failed; gateway log:" >&2
  tail -n 40 "$work/gateway.log" >&2
fi
exit "$status"
