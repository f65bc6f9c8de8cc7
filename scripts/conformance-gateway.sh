#!/usr/bin/env bash
# The official MCP conformance suite (server mode, Streamable HTTP) against `ladder gateway
# --transport http` with @modelcontextprotocol/server-everything behind it over stdio, and
# against server-everything run directly in its own Streamable HTTP mode. Fails unless the
# gateway passes every scenario the direct server passes, bar the ones the gateway leaves out by
# design (test/conformance/gateway-baseline.yml, a reason each); scripts/conformance-compare.js
# prints the two lists side by side.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gateway-command.sh"
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

# server-everything's Streamable HTTP mode listens on $PORT (all interfaces; default 3001): a
# free port, asked of the kernel just before.
port="$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')"
PORT="$port" "$NODE" "$EVERYTHING" streamableHttp >"$work/direct.log" 2>&1 &
pids+=($!)
wait_for "$work/direct.log" "listening on port $port" "${pids[-1]}" >/dev/null
direct_url="http://127.0.0.1:$port/mcp"

start_gateway "$work"
pids+=("$GATEWAY_PID")
gateway_url="$GATEWAY_URL"

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
