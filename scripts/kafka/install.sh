#!/usr/bin/env bash
# Resolve the pinned Kafka broker + tools jars from Maven Central into $KAFKA_CACHE/lib.
# Idempotent: does nothing when the classpath is already complete.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"

stamp="$KAFKA_LIB/.complete"
stamp_value() { echo "$KAFKA_VERSION $(sha1sum "$KAFKA_SCRIPTS_DIR/pom.xml" | cut -d" " -f1)"; }
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(stamp_value)" ]; then
  echo "kafka $KAFKA_VERSION jars already in $KAFKA_LIB"
  exit 0
fi
command -v mvn >/dev/null || { echo "mvn not found (apt-get install maven)" >&2; exit 1; }
command -v java >/dev/null || { echo "java not found (apt-get install openjdk-17-jre-headless)" >&2; exit 1; }

tmp="$KAFKA_LIB.tmp.$$"
rm -rf "$tmp"; mkdir -p "$tmp"
echo "resolving org.apache.kafka:kafka_2.13:$KAFKA_VERSION (+kafka-tools, slf4j-reload4j) into $KAFKA_LIB"
( cd "$KAFKA_SCRIPTS_DIR" && mvn -B -q -Dstyle.color=never -Dkafka.version="$KAFKA_VERSION" \
    org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$tmp" )
test -f "$tmp/kafka_2.13-$KAFKA_VERSION.jar" || { echo "kafka_2.13-$KAFKA_VERSION.jar missing after resolve" >&2; exit 1; }
test -f "$tmp/kafka-tools-$KAFKA_VERSION.jar" || { echo "kafka-tools-$KAFKA_VERSION.jar missing after resolve" >&2; exit 1; }
rm -rf "$KAFKA_LIB"; mv "$tmp" "$KAFKA_LIB"
stamp_value > "$stamp"
echo "kafka $KAFKA_VERSION: $(ls "$KAFKA_LIB"/*.jar | wc -l) jars, $(du -sh "$KAFKA_LIB" | cut -f1)"
