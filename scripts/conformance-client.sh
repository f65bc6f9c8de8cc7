#!/usr/bin/env bash
# Runs the official MCP conformance suite's client mode against `ladder probe`: the suite
# starts a test server per scenario and appends its URL to the command. Run from anywhere;
# exits non-zero when a scenario fails. LADDER overrides the command that runs ladder.
set -euo pipefail

cd "$(dirname "$0")/.."
ladder="${LADDER:-node bin/ladder.js}"
scenarios=(initialize tools_call sse-retry)
# The suite writes its evidence (checks.json, the client's stdout and stderr) here; kept
# under reports/ so a failed CI run can be read afterwards.
out="reports/conformance"
rm -rf "$out"
mkdir -p "$out"

# The suite passes a scenario with no failed check, so a client that never connects passes
# `initialize` (no check is ever recorded). Require at least one successful check as well.
succeeded() {
  node -e '
    const { readdirSync, readFileSync } = require("node:fs");
    const { join } = require("node:path");
    const dir = process.argv[1];
    const runs = readdirSync(dir).map((run) => join(dir, run, "checks.json"));
    const checks = runs.flatMap((file) => JSON.parse(readFileSync(file, "utf8")));
    process.exit(checks.some((check) => check.status === "SUCCESS") ? 0 : 1);
  ' "$1"
}

failed=()
for scenario in "${scenarios[@]}"; do
  if node_modules/.bin/conformance client --command "$ladder probe" --scenario "$scenario" \
      --output-dir "$out/$scenario" >"$out/$scenario.log" 2>&1 && succeeded "$out/$scenario"; then
    echo "conformance $scenario: passed"
  else
    echo "conformance $scenario: FAILED (see $out/$scenario.log)"
    tail -n 20 "$out/$scenario.log"
    failed+=("$scenario")
  fi
done

if ((${#failed[@]} > 0)); then
  echo "conformance: ${#failed[@]} of ${#scenarios[@]} scenarios failed: ${failed[*]}"
  exit 1
fi
echo "conformance: all ${#scenarios[@]} scenarios passed"
