#!/usr/bin/env bash
# kafka-dump-log.sh equivalent: runs DumpLogSegments of Kafka $KAFKA_VERSION with the given args
# (Scala kafka.tools.DumpLogSegments up to 4.2, Java org.apache.kafka.tools.DumpLogSegments from 4.3).
# usage: dump-log.sh [--release VERSION] ARGS...     (--release overrides $KAFKA_VERSION; the release must be
#        installed: scripts/kafka/install.sh VERSION)
# example: scripts/kafka/dump-log.sh --release 4.2.2 --deep-iteration --files orders-11-0/00000000000000000000.log
set -euo pipefail
if [ "${1:-}" = --release ]; then export KAFKA_VERSION="$2"; unset KAFKA_CACHE; shift 2; fi
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
kafka_classpath >/dev/null
kafka_run_tool "$(kafka_dump_log_class)" "$@"
