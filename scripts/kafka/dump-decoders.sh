#!/usr/bin/env bash
# Runs Kafka $KAFKA_VERSION's own kafka-dump-log over every decoder-mode dump listed in the broker fixtures'
# manifests (offsets, txnlog, metadata, metadata-skip) and writes each stdout to
# .cache/dump-<version>/<scenario>/<the manifest's stdout path>. The outputs are the oracle of
# test/format/topics-release.test.ts for releases other than 3.9 (whose outputs are committed).
# usage: KAFKA_VERSION=4.4.0 scripts/kafka/install.sh && KAFKA_VERSION=4.4.0 scripts/kafka/dump-decoders.sh
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
case "$KAFKA_VERSION" in
  3.*|4.0.*|4.1.*|4.2.*) cls=kafka.tools.DumpLogSegments ;;
  *) cls=org.apache.kafka.tools.DumpLogSegments ;;  # KAFKA-14579: Java port in 4.3
esac
out_root="$KAFKA_REPO_ROOT/.cache/dump-$KAFKA_VERSION"
fixtures="$KAFKA_REPO_ROOT/fixtures/broker"
log4j2="$KAFKA_CACHE/tools-log4j2.properties"
printf 'rootLogger.level=WARN\nrootLogger.appenderRef.stderr.ref=STDERR\nappender.stderr.type=Console\nappender.stderr.name=STDERR\nappender.stderr.target=SYSTEM_ERR\nappender.stderr.layout.type=PatternLayout\nappender.stderr.layout.pattern=%%m%%n\n' > "$log4j2"
cp="$(kafka_classpath)"
node -e '
const fs = require("fs"), path = require("path");
const root = process.argv[1];
for (const sc of fs.readdirSync(root).sort()) {
  const m = path.join(root, sc, "manifest.json");
  if (!fs.existsSync(m)) continue;
  for (const d of JSON.parse(fs.readFileSync(m, "utf8")).dumps ?? []) {
    if (!/^(offsets|txnlog|metadata|metadata-skip)$/.test(d.mode) && !(d.mode === "deep" && sc.startsWith("kraft"))) continue;
    console.log([sc, d.cwd, d.stdout, d.command.replace(/^kafka-dump-log\.sh /, "")].join("\t"));
  }
}' "$fixtures" | while IFS=$'\t' read -r sc cwd stdout args; do
  dest="$out_root/$sc/$stdout"
  mkdir -p "$(dirname "$dest")"
  # shellcheck disable=SC2086
  (cd "$fixtures/$sc/$cwd" && java $KAFKA_TOOL_HEAP $KAFKA_JAVA_OPTS -Dlog4j.configuration="file:$(kafka_tools_log4j)" \
     -Dlog4j2.configurationFile="$log4j2" -cp "$cp" "$cls" $args > "$dest" 2> "$dest.stderr") || echo "exit $? for $sc $args" >&2
done
echo "wrote $(find "$out_root" -name '*.txt' | wc -l) dumps under $out_root"
