#!/usr/bin/env bash
# kafka-dump-log.sh equivalent: runs kafka.tools.DumpLogSegments (Kafka $KAFKA_VERSION) with the given args.
# example: scripts/kafka/dump-log.sh --deep-iteration --files orders-11-0/00000000000000000000.log
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
kafka_run_tool kafka.tools.DumpLogSegments "$@"
