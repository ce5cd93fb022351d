#!/usr/bin/env bash
# Resolve a Kafka release's broker + tools jars from Maven Central into $KAFKA_CACHE/lib
# (default .cache/kafka-$KAFKA_VERSION/lib, so releases live side by side).
# usage: install.sh                       KAFKA_VERSION (default 3.9.1)
#        install.sh 4.4.0 3.9.1 ...       those releases, one after the other
#        install.sh --all                 3.9.1 and 4.4.0 (brokers) + 4.0.2 4.1.2 4.2.2 4.3.1 (dump-log oracles:
#                                         the newest patch of each 4.x line on Maven Central, checked 2026-12-01)
# Idempotent: does nothing when the classpath is already complete.
set -euo pipefail
if [ $# -gt 0 ]; then
  versions=("$@")
  [ "$1" = --all ] && versions=(3.9.1 4.4.0 4.0.2 4.1.2 4.2.2 4.3.1)
  for v in "${versions[@]}"; do KAFKA_VERSION="$v" KAFKA_CACHE="" bash "${BASH_SOURCE[0]}"; done
  exit 0
fi
[ -z "${KAFKA_CACHE:-}" ] && unset KAFKA_CACHE
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"

stamp="$KAFKA_LIB/.complete"
stamp_value() { echo "$KAFKA_VERSION $(cat "$KAFKA_SCRIPTS_DIR/pom.xml" "$KAFKA_SCRIPTS_DIR/install.sh" | sha1sum | cut -d" " -f1)"; }
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(stamp_value)" ]; then
  echo "kafka $KAFKA_VERSION jars already in $KAFKA_LIB"
  exit 0
fi
command -v mvn >/dev/null || { echo "mvn not found (apt-get install maven)" >&2; exit 1; }
command -v java >/dev/null || { echo "java not found (apt-get install openjdk-17-jre-headless)" >&2; exit 1; }

tmp="$KAFKA_LIB.tmp.$$"
rm -rf "$tmp"; mkdir -p "$tmp"
echo "resolving org.apache.kafka:kafka_2.13:$KAFKA_VERSION (+kafka-tools, logging binding) into $KAFKA_LIB"
log_props=()
if [ "$KAFKA_LOG4J2" = 1 ]; then
  # the 4.x binary distribution ships log4j2 with the slf4j 1.x bridge (slf4j-api stays 1.7.36)
  log_props=(-Dlog.binding.groupId=org.apache.logging.log4j -Dlog.binding.artifactId=log4j-slf4j-impl
             -Dlog.binding.version=2.24.3 -Dlog.core.groupId=org.apache.logging.log4j
             -Dlog.core.artifactId=log4j-core -Dlog.core.version=2.24.3)
fi
( cd "$KAFKA_SCRIPTS_DIR" && mvn -B -q -Dstyle.color=never -Dkafka.version="$KAFKA_VERSION" "${log_props[@]+"${log_props[@]}"}" \
    org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$tmp" )
test -f "$tmp/kafka_2.13-$KAFKA_VERSION.jar" || { echo "kafka_2.13-$KAFKA_VERSION.jar missing after resolve" >&2; exit 1; }
test -f "$tmp/kafka-tools-$KAFKA_VERSION.jar" || { echo "kafka-tools-$KAFKA_VERSION.jar missing after resolve" >&2; exit 1; }
rm -rf "$KAFKA_LIB"; mv "$tmp" "$KAFKA_LIB"
stamp_value > "$stamp"
echo "kafka $KAFKA_VERSION: $(ls "$KAFKA_LIB"/*.jar | wc -l) jars, $(du -sh "$KAFKA_LIB" | cut -f1)"
