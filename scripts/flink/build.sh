#!/usr/bin/env bash
# Build the Flink fixture job into .cache/flink-gen/ (outside git):
#   lib/      Flink 2.2.0 + flink-connector-kafka 5.0.0-2.2 + kafka-clients 4.2.0 (+ slf4j-simple), from Maven Central
#             (scripts/flink/pom.xml)
#   classes/  tsdump.flink.* (the job and the broker reader) and the sink wrapper that halts in the committer
# Idempotent: recompiles only when a source or the pom changed. Prints the classes dir.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${FLINK_GEN_DIR:-$root/.cache/flink-gen}"
sources() { find "$here/src" -name '*.java' | sort; }
stamp_value() { cat "$here/pom.xml" $(sources) | sha1sum | cut -d" " -f1; }
if [ -f "$out/.complete" ] && [ "$(cat "$out/.complete")" = "$(stamp_value)" ]; then echo "$out/classes"; exit 0; fi
command -v mvn >/dev/null || { echo "mvn not found (apt-get install maven)" >&2; exit 1; }
command -v javac >/dev/null || { echo "javac not found (apt-get install openjdk-17-jdk-headless)" >&2; exit 1; }
rm -rf "$out/lib.tmp" "$out/classes"
( cd "$here" && mvn -B -q -Dstyle.color=never org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$out/lib.tmp" ) >&2
rm -rf "$out/lib"; mv "$out/lib.tmp" "$out/lib"
mkdir -p "$out/classes"
javac -nowarn -Xlint:none --release 17 -d "$out/classes" -cp "$out/lib/*" $(sources) >&2
stamp_value > "$out/.complete"
echo "$out/classes"
