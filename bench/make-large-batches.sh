#!/usr/bin/env bash
# Template for the `large-txn` benchmark input: LARGE transactional batches written by a real Kafka 3.9.1 broker.
# The fixtures only have batches of 78-860 bytes, where a batch header (61 bytes) is 7-80 % of the data, so
# they cannot show whether `reconcile` reads "< 1 % of data-batch bytes on large batches". This starts a private
# broker (own state file and dir under bench/data, never the shared one), creates a topic and produces ~48 MiB with
# Kafka's own ProducerPerformance tool (transactional, batch.size 900000, linger 200 ms, 1000-byte records), so the
# broker writes ~0.9 MB batches followed by COMMIT markers; then stops the broker and copies the segment to
# bench/data/templates/large-txn-0/00000000000000000000.log. bench/make-segments.mjs repeats it like the fixtures.
#
# `--kind mid` makes the template of the `mid` input the same way: ~3.5 KiB non-transactional batches (batch.size 3600,
# 100-byte records, linger 50 ms: the producer closes a batch when the next record would pass batch.size), the batch
# size that a busy producer with default-ish settings writes, and where a CRC-32C threshold of 4 KiB never applies.
# usage: bash bench/make-large-batches.sh [--kind large-txn|mid] [--force]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
kind=large-txn; force=
while [ $# -gt 0 ]; do
  case "$1" in
    --kind) kind="$2"; shift 2 ;;
    --force) force=1; shift ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
case "$kind" in
  large-txn) perf=(--num-records 50000 --record-size 1000 --transactional-id bench-large --transaction-duration-ms 400)
             props=(batch.size=900000 linger.ms=200) ;;
  mid)       perf=(--num-records 500000 --record-size 100)
             props=(batch.size=3600 linger.ms=50) ;;
  *) echo "unknown kind $kind" >&2; exit 2 ;;
esac
out="$here/data/templates/$kind-0/00000000000000000000.log"
if [ -f "$out" ] && [ -z "$force" ]; then echo "$out exists"; exit 0; fi
work="$here/data/kafka-$kind"
export KAFKA_STATE="$work/state.env"
. "$repo/scripts/kafka/env.sh"
cp="$(kafka_classpath)"
log4j="$(kafka_tools_log4j)"
run() { java $KAFKA_TOOL_HEAP $KAFKA_JAVA_OPTS -Dlog4j.configuration="file:$log4j" -cp "$cp" "$@"; }

mkdir -p "$work"
bash "$repo/scripts/kafka/start.sh" --dir "$work" --prop log.segment.bytes=1073741824 --prop message.max.bytes=1048588 >/dev/null
. "$KAFKA_STATE"
trap 'bash "$repo/scripts/kafka/stop.sh" >/dev/null || true' EXIT
run org.apache.kafka.tools.TopicCommand --bootstrap-server "$KAFKA_BOOTSTRAP" --create --topic "$kind" --partitions 1 --replication-factor 1 >/dev/null
run org.apache.kafka.tools.ProducerPerformance --topic "$kind" "${perf[@]}" --throughput -1 \
  --producer-props bootstrap.servers="$KAFKA_BOOTSTRAP" acks=all "${props[@]}" compression.type=none \
    max.request.size=1048576 buffer.memory=67108864 >&2
bash "$repo/scripts/kafka/stop.sh" >&2
trap - EXIT
mkdir -p "$(dirname "$out")"
cp "$KAFKA_LOG_DIR/$kind-0/00000000000000000000.log" "$out"
ls -l "$out"
