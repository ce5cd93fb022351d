#!/usr/bin/env bash
# kafka-configs.sh equivalent (org.apache.kafka.tools.ConfigCommand, Kafka $KAFKA_VERSION).
# example: scripts/kafka/configs.sh --bootstrap-server 127.0.0.1:9092 --alter --entity-type topics --entity-name t --add-config retention.ms=1000
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
kafka_run_tool org.apache.kafka.tools.ConfigCommand "$@"
