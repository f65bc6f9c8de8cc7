#!/usr/bin/env bash
# The official MCP conformance suite in the 2026-07-28 era. Its releases that cover that revision
# need Node 22 or newer, so CI runs this on its Node 24 step, with the suite installed apart from
# the project's dependencies (CONFORMANCE: the path of its `conformance` command; .ci/run).
#   client mode, --spec-version 2026-07-28: `ladder probe` against each client scenario that
#     does not need OAuth (test/conformance/client-2026-baseline.yml: what a probe does not do);
#   server mode, --requirements 2026-07-28 (the scenarios the revision requires, frozen at its
#     release): `ladder gateway --transport http` in front of server-everything
#     (test/conformance/gateway-2026-baseline.yml: the fixtures server-everything lacks, and what
#     the gateway's 2026-07-28 front leaves out by design).
# The suite fails a run on a failure not in its baseline, and on a baseline entry that passes.
# Evidence is kept under reports/conformance-2026 so a failed CI run can be read afterwards.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gateway-command.sh"
cd "$ROOT"

conformance="${CONFORMANCE:-}"
if [[ -z "$conformance" || ! -x "$conformance" ]]; then
  echo "conformance-2026: set CONFORMANCE to the conformance command of @modelcontextprotocol/conformance 0.2.0-alpha.12 (install it with Node 22 or newer: npm install --prefix DIR @modelcontextprotocol/conformance@0.2.0-alpha.12, then CONFORMANCE=DIR/node_modules/.bin/conformance)" >&2
  exit 2
fi
node_major="$(node -p 'process.versions.node.split(".")[0]')"
((node_major >= 22)) || { echo "conformance-2026: the suite needs Node 22 or newer; this is Node $(node --version)" >&2; exit 2; }

out="reports/conformance-2026"
rm -rf "$out"
mkdir -p "$out"
work="$(mktemp -d)"
cleanup() {
  if [[ -n "${GATEWAY_PID:-}" ]]; then
    kill "$GATEWAY_PID" 2>/dev/null || true
    wait "$GATEWAY_PID" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

failed=()
# The probe lists and calls the first tool; json-schema-ref-no-deref's server answers no
# tools/call, and what it checks (no network $ref followed) is the listing, so there it only lists.
scenarios=(tools_call request-metadata http-standard-headers http-custom-headers http-invalid-tool-headers
  json-schema-ref-no-deref json-schema-2020-12-preservation sep-2322-client-request-state)
for scenario in "${scenarios[@]}"; do
  command="$NODE $ROOT/bin/ladder.js probe"
  [[ "$scenario" == json-schema-ref-no-deref ]] && command+=" --schema"
  if "$conformance" client --command "$command" --scenario "$scenario" --spec-version 2026-07-28 \
      --expected-failures test/conformance/client-2026-baseline.yml --output-dir "$out/client/$scenario" \
      >"$out/client-$scenario.log" 2>&1; then
    echo "conformance-2026 client $scenario: as expected"
  else
    echo "conformance-2026 client $scenario: FAILED (see $out/client-$scenario.log)"
    tail -n 20 "$out/client-$scenario.log"
    failed+=("client $scenario")
  fi
done

start_gateway "$work"
echo "conformance-2026: ladder gateway at $GATEWAY_URL"
if "$conformance" server --url "$GATEWAY_URL" --requirements 2026-07-28 \
    --expected-failures test/conformance/gateway-2026-baseline.yml --output-dir "$out/gateway" >"$out/gateway.log" 2>&1; then
  echo "conformance-2026 gateway: as expected ($(grep -E '^Total:' "$out/gateway.log" || true))"
else
  echo "conformance-2026 gateway: FAILED (see $out/gateway.log)"
  tail -n 30 "$out/gateway.log"
  tail -n 20 "$work/gateway.log"
  failed+=("gateway")
fi

if ((${#failed[@]} > 0)); then
  echo "conformance-2026: ${#failed[@]} failed: ${failed[*]}"
  exit 1
fi
echo "conformance-2026: every client scenario and the gateway's requirements as the baselines say"
