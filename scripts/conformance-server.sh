#!/usr/bin/env bash
# The official MCP conformance suite (server mode, Streamable HTTP) against `ladder serve`.
# Scenarios that need fixture tools, resources or prompts by fixed names are expected failures,
# listed with a reason each in test/conformance/server-baseline.yml; any other failure, or a
# baseline entry that starts passing, fails this script.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/serve-command.sh"
cd "$ROOT"

work="$(mktemp -d)"
trap 'stop_http_server; rm -rf "$work"' EXIT

start_http_server "$work"
echo "conformance: ladder serve at $SERVER_URL"
status=0
node_modules/.bin/conformance server \
  --url "$SERVER_URL" \
  --expected-failures test/conformance/server-baseline.yml \
  --output-dir "$work/results" || status=$?
if ((status != 0)); then
  echo "conformance: failed (exit $status); server log:" >&2
  tail -n 40 "$work/server.log" >&2
fi
exit "$status"
