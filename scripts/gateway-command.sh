# Sourced by the scripts that put `ladder gateway --transport http` in front of
# @modelcontextprotocol/server-everything (over stdio) for a conformance suite: the harness's own
# Node and the installed script, as the lane starts a Node server (no npx).
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/wait-for.sh"
NODE="$(node -p process.execPath)"
EVERYTHING="$ROOT/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
test -f "$EVERYTHING" || { echo "$EVERYTHING is missing; run npm ci" >&2; exit 1; }

# Starts the gateway in front of server-everything on a free loopback port, logging to
# WORKDIR/gateway.log. Usage: start_gateway WORKDIR; sets GATEWAY_PID and GATEWAY_URL.
start_gateway() {
  local work="$1"
  node -e '
    const [file, node, script] = process.argv.slice(1);
    require("fs").writeFileSync(file, JSON.stringify({ mcpServers: { everything: { command: node, args: [script, "stdio"] } } }));
  ' "$work/servers.json" "$NODE" "$EVERYTHING"
  "$NODE" "$ROOT/bin/ladder.js" gateway --servers "$work/servers.json" --transport http --port 0 >/dev/null 2>"$work/gateway.log" &
  GATEWAY_PID=$!
  GATEWAY_URL="$(wait_for "$work/gateway.log" 'http://127\.0\.0\.1:[0-9]+/mcp' "$GATEWAY_PID")" || { kill "$GATEWAY_PID" 2>/dev/null; return 1; }
}
