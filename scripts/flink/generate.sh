#!/usr/bin/env bash
# Regenerate fixtures/broker-4.4/flink-incrementing and flink-pooling (fixtures/README.md, "A real Flink 2.2 job"):
# a 4.4.0 broker per scenario (scripts/kafka/start.sh), the Flink job built by scripts/flink/build.sh, stopped and
# cleaned up after each scenario. Arguments: the scenarios (default both). Needs java, mvn and `bash scripts/kafka/install.sh 4.4.0` once.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
bash scripts/flink/build.sh >/dev/null
bash scripts/java/build.sh >/dev/null
[ $# -gt 0 ] || set -- flink-incrementing flink-pooling
exec node scripts/generate-fixtures.mjs --kafka-version 4.4.0 --no-other-releases "$@"
