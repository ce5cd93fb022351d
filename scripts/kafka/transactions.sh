#!/usr/bin/env bash
# kafka-transactions.sh equivalent (org.apache.kafka.tools.TransactionsCommand, Kafka $KAFKA_VERSION).
# example: scripts/kafka/transactions.sh --bootstrap-server 127.0.0.1:9092 describe-producers --topic t --partition 0
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
kafka_run_tool org.apache.kafka.tools.TransactionsCommand "$@"
