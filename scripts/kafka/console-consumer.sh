#!/usr/bin/env bash
# kafka-console-consumer.sh equivalent: runs Kafka's own Java consumer tool
# (org.apache.kafka.tools.consumer.ConsoleConsumer in kafka-tools $KAFKA_VERSION; the Scala
# kafka.tools.ConsoleConsumer no longer exists in 3.9) with the given args.
# example (count what a read_committed Java consumer gets from one partition, one line per record):
#   scripts/kafka/console-consumer.sh --bootstrap-server 127.0.0.1:9092 --topic t --partition 0 \
#     --offset earliest --isolation-level read_committed --timeout-ms 3000 \
#     --property print.value=false --property print.partition=true --property print.offset=true
# The tool ends with "Processed a total of N messages" on stderr (and, when it stops because of
# --timeout-ms, an ERROR line with org.apache.kafka.common.errors.TimeoutException; exit code 0).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
kafka_run_tool org.apache.kafka.tools.consumer.ConsoleConsumer "$@"
