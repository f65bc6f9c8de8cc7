# Sourced by the scripts that start a server in the background and wait for it to say it is ready.

# Waits until file $1 matches the regex $2 (60 s at most) while process $3 lives; prints the
# match. On failure it shows file $4 (default $1), where the process wrote why.
wait_for() {
  local file="$1" pattern="$2" pid="$3" log="${4:-$1}" waited=0
  until grep -qE "$pattern" "$file" 2>/dev/null; do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "process exited before it was ready:" >&2
      cat "$log" >&2
      return 1
    fi
    if ((waited >= 600)); then
      echo "not ready within 60 s:" >&2
      cat "$log" >&2
      return 1
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
  grep -oE "$pattern" "$file" | head -n 1
}
