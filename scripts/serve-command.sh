# Sourced by the scripts that drive `ladder serve`: sets LADDER_SERVE (an array) to the command
# that starts it, from any working directory. LADDER_SERVE_CMD overrides it (a string, split on
# spaces), e.g. to try an installed `ladder` instead of this checkout's.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/wait-for.sh"
if [[ -n "${LADDER_SERVE_CMD:-}" ]]; then
  read -r -a LADDER_SERVE <<<"$LADDER_SERVE_CMD"
else
  LADDER_SERVE=(node "$ROOT/bin/ladder.js" serve)
fi

# Starts `ladder serve --transport http` in the background on a free loopback port.
# Usage: start_http_server WORKDIR [extra flags]; sets SERVER_PID and SERVER_URL.
start_http_server() {
  local work="$1"
  shift
  mkdir -p "$work/ws"
  "${LADDER_SERVE[@]}" --transport http --host 127.0.0.1 --port 0 --workspace "$work/ws" "$@" \
    >"$work/url" 2>"$work/server.log" &
  SERVER_PID=$!
  SERVER_URL="$(wait_for "$work/url" '^https?://[^ ]+' "$SERVER_PID" "$work/server.log")"
}

stop_http_server() {
  if [[ -n "${SERVER_PID:-}" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
}
