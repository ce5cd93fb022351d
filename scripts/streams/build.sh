#!/usr/bin/env bash
# Build the Kafka Streams fixture application into .cache/streams-gen/ (outside git), the way scripts/java/build.sh
# builds the Java generator:
#   lib/      kafka-streams 4.4.0 with its RocksDB (rocksdbjni) + kafka-clients 4.4.0 + slf4j-simple, from Maven Central
#   classes/  tsdump.streams.StreamsEos (scripts/streams/src)
# Idempotent: recompiles only when a source or the pom changed. Prints the classes dir.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${STREAMS_GEN_DIR:-$root/.cache/streams-gen}"
stamp_value() { cat "$here/pom.xml" "$here"/src/tsdump/streams/*.java | sha1sum | cut -d" " -f1; }
if [ -f "$out/.complete" ] && [ "$(cat "$out/.complete")" = "$(stamp_value)" ]; then echo "$out/classes"; exit 0; fi
command -v mvn >/dev/null || { echo "mvn not found (apt-get install maven)" >&2; exit 1; }
command -v javac >/dev/null || { echo "javac not found (apt-get install openjdk-17-jdk-headless)" >&2; exit 1; }
if [ ! -f "$out/lib/.pom-$(sha1sum < "$here/pom.xml" | cut -c1-12)" ]; then
  rm -rf "$out/lib.tmp"
  ( cd "$here" && mvn -B -q -Dstyle.color=never org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy-dependencies \
      -DincludeScope=runtime -DoutputDirectory="$out/lib.tmp" ) >&2
  touch "$out/lib.tmp/.pom-$(sha1sum < "$here/pom.xml" | cut -c1-12)"
  rm -rf "$out/lib"; mv "$out/lib.tmp" "$out/lib"
fi
rm -rf "$out/classes"; mkdir -p "$out/classes"
javac -nowarn -Xlint:none --release 17 -d "$out/classes" -cp "$out/lib/*" "$here"/src/tsdump/streams/*.java >&2
stamp_value > "$out/.complete"
echo "$out/classes"
