#!/usr/bin/env bash
# A Kafka 4.4.0 broker classpath with Kafka's own LocalTieredStorage (KIP-405 test RemoteStorageManager), for the
# tiered-storage fixtures (scripts/fixtures/tiered.mjs):
#
#   .cache/kafka-4.4.0-tiered/lib/   every jar of .cache/kafka-4.4.0/lib (symlinked)
#                                    + org.apache.kafka:kafka-storage:4.3.1:jar:test from Maven Central
#                                    + kafka-4.3.1-logcontext-shim.jar: org.apache.kafka.common.utils.LogContext*
#                                      copied out of org.apache.kafka:kafka-clients:4.3.1 (Maven Central)
#
# LocalTieredStorage lives in the storage module's test sources; Maven Central serves the `test` classifier of
# kafka-storage for 4.3.1 but not for 4.4.0. The 4.3.1 classes only use kafka-clients / kafka-storage-api /
# kafka-storage types that 4.4.0 still has (TopicIdPartition, Uuid, FileRecords in common.record.internal,
# LogFileUtils, RemoteStorageManager, LogSegmentData, RemoteLogSegmentMetadata; checked with javap), except
# org.apache.kafka.common.utils.LogContext, which 4.4.0 moved to org.apache.kafka.common.utils.internals: without
# the shim the 4.4.0 broker dies at startup in LocalTieredStorage.configure with
# NoClassDefFoundError: org/apache/kafka/common/utils/LogContext. LogContext and its inner loggers need nothing but
# slf4j, so 4.3.1's class files are put back under their old name (nothing of 4.4.0 is replaced).
# org.apache.kafka.test.TestUtils (kafka-clients test jar) is only used when rsm.config.dir is not set, which it
# always is.
# Use it with KAFKA_VERSION=4.4.0 KAFKA_CACHE=.cache/kafka-4.4.0-tiered scripts/kafka/start.sh.
# Idempotent; prints the cache dir.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
base="${KAFKA_BASE_CACHE:-$root/.cache/kafka-4.4.0}"
out="${KAFKA_TIERED_CACHE:-$root/.cache/kafka-4.4.0-tiered}"
TEST_JAR="org.apache.kafka:kafka-storage:4.3.1:jar:test"
CLIENTS_431="org.apache.kafka:kafka-clients:4.3.1:jar"
stamp="$TEST_JAR $CLIENTS_431 $(ls "$base/lib" | sha1sum | cut -d' ' -f1)"
if [ -f "$out/.complete" ] && [ "$(cat "$out/.complete")" = "$stamp" ]; then echo "$out"; exit 0; fi
[ -f "$base/lib/kafka_2.13-4.4.0.jar" ] || { echo "$base/lib has no Kafka 4.4.0: run scripts/kafka/install.sh 4.4.0" >&2; exit 1; }
rm -rf "$out/lib"
mkdir -p "$out/lib"
for j in "$base"/lib/*.jar; do ln -s "$(readlink -f "$j")" "$out/lib/$(basename "$j")"; done
mvn -B -q -Dstyle.color=never org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy \
  -Dartifact="$TEST_JAR" -DoutputDirectory="$out/lib" >&2
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mvn -B -q -Dstyle.color=never org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy \
  -Dartifact="$CLIENTS_431" -DoutputDirectory="$tmp" >&2
( cd "$tmp" && mkdir x && cd x && unzip -q ../kafka-clients-4.3.1.jar 'org/apache/kafka/common/utils/LogContext*' \
  && jar cf "$out/lib/kafka-4.3.1-logcontext-shim.jar" org )
echo "$stamp" > "$out/.complete"
echo "$out"
