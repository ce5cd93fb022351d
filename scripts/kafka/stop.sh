#!/usr/bin/env bash
# Stop the broker recorded in $KAFKA_STATE with SIGTERM and wait for a clean (controlled) shutdown,
# so that checkpoint files, producer snapshots and trimmed indexes are written.
# usage: stop.sh      (exit 0 if stopped cleanly or not running; 1 if it had to be SIGKILLed)
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"

if [ ! -f "$KAFKA_STATE" ]; then echo "no state file $KAFKA_STATE; nothing to stop"; exit 0; fi
# shellcheck disable=SC1090
. "$KAFKA_STATE"
if [ -z "${KAFKA_PID:-}" ] || ! kill -0 "$KAFKA_PID" 2>/dev/null; then
  echo "broker (pid ${KAFKA_PID:-?}) not running"
  exit 0
fi
kill -TERM "$KAFKA_PID"
timeout="${KAFKA_STOP_TIMEOUT:-90}"
for _ in $(seq 1 $(( timeout * 5 ))); do
  if ! kill -0 "$KAFKA_PID" 2>/dev/null; then
    if grep -q "shut down completed" "$KAFKA_DIR/server.log" 2>/dev/null; then
      echo "broker $KAFKA_PID stopped cleanly"
    else
      echo "broker $KAFKA_PID exited (no 'shut down completed' line in server.log)"
    fi
    exit 0
  fi
  sleep 0.2
done
echo "broker $KAFKA_PID did not stop within ${timeout}s; sending SIGKILL" >&2
kill -KILL "$KAFKA_PID" 2>/dev/null || true
exit 1
