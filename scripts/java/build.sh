#!/usr/bin/env bash
# Build the Java fixture tools into .cache/java-gen/ (outside git):
#   lib/      kafka-clients + kafka-streams 4.4.0 (+ slf4j-simple), resolved from Maven Central (scripts/java/pom.xml)
#   classes/  tsdump.gen.Gen (the fixture workloads, needs lib/) and tsdump.DumpRunner (no dependencies: it runs
#             on the classpath of whichever Kafka release it dumps with)
# Idempotent: recompiles only when a source or the pom changed. Prints the classes dir.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${JAVA_GEN_DIR:-$root/.cache/java-gen}"
stamp_value() { cat "$here/pom.xml" "$here"/src/tsdump/*.java "$here"/src/tsdump/gen/*.java | sha1sum | cut -d" " -f1; }
if [ -f "$out/.complete" ] && [ "$(cat "$out/.complete")" = "$(stamp_value)" ]; then echo "$out/classes"; exit 0; fi
command -v mvn >/dev/null || { echo "mvn not found (apt-get install maven)" >&2; exit 1; }
command -v javac >/dev/null || { echo "javac not found (apt-get install openjdk-17-jdk-headless)" >&2; exit 1; }
rm -rf "$out/lib.tmp" "$out/classes"
( cd "$here" && mvn -B -q -Dstyle.color=never org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$out/lib.tmp" ) >&2
rm -rf "$out/lib"; mv "$out/lib.tmp" "$out/lib"
mkdir -p "$out/classes"
javac -nowarn -Xlint:none --release 17 -d "$out/classes" -cp "$out/lib/*" "$here"/src/tsdump/*.java "$here"/src/tsdump/gen/*.java >&2
stamp_value > "$out/.complete"
echo "$out/classes"
