#!/usr/bin/env bash
# Build Aiven's tiered-storage-for-apache-kafka RemoteStorageManager (github Aiven-Open/tiered-storage-for-apache-kafka,
# Gradle upstream, not on Maven Central) with Maven, for the Aiven tiered-storage fixtures (scripts/fixtures/tiered-aiven.mjs).
#
#   usage: build-aiven-tiered.sh [AIVEN_GIT_DIR]
#     AIVEN_GIT_DIR  a git directory of that repository (default $AIVEN_GIT, else the search tool's mirror
#                    /work/.mirror/Aiven-Open+tiered-storage-for-apache-kafka/repo); its HEAD is built.
#   output: .cache/aiven-tiered/plugin/   the plugin jar + its runtime dependencies (from Maven Central), for the
#           broker's remote.log.storage.manager.class.path; prints that dir.
#
# The fetched sources are never committed: they are exported to .cache/aiven-tiered/src (git archive) and built
# there with a pom written by this script. What the build changes, and why:
#  * modules commons, storage/core, storage/filesystem and core (main sources only) are one Maven module;
#  * the Iceberg segment format (core/.../iceberg/**, IcebergRemoteStorageManager.java) is left out: its
#    StructureProvider interface and schema-registry provider need io.confluent:kafka-schema-registry-client /
#    kafka-avro-serializer, which are only on Confluent's repository (not reachable here), and it also needs
#    Guava, Iceberg, Parquet, Avro and Hadoop. Two files refer to it and are cut down (python below):
#    RemoteStorageManagerConfig loses structureProvider() / icebergNamespace() / icebergCatalog() and their
#    imports (the iceberg.* config keys stay defined), RemoteStorageManager types its unused iceberg field as
#    InternalRemoteStorageManager and refuses segment.format=iceberg. segment.format=kafka (the default, the
#    only format the fixtures use) runs exactly the upstream code;
#  * Kafka 4.3 moved org.apache.kafka.common.record.{RecordBatch,Record,SimpleRecord,CompressionType,FileRecords,
#    FileLogInputStream,MemoryRecordsBuilder} to org.apache.kafka.common.record.internal, and 4.4 moved
#    org.apache.kafka.common.utils.ByteBuffer{Input,Output}Stream to org.apache.kafka.common.utils.internals;
#    upstream compiles against Kafka 3.8.0 (build.gradle kafkaVersion), so its binaries fail in a 4.4.0 broker.
#    The imports are rewritten (sed, listed below) and the build compiles against kafka-clients /
#    kafka-storage-api / kafka-storage 4.4.0 (provided: the broker has them).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
src_git="${1:-${AIVEN_GIT:-/work/.mirror/Aiven-Open+tiered-storage-for-apache-kafka/repo}}"
out="${AIVEN_TIERED_CACHE:-$root/.cache/aiven-tiered}"
KAFKA_API=4.4.0
[ -d "$src_git" ] || { echo "no Aiven git dir at $src_git (fetch github:Aiven-Open/tiered-storage-for-apache-kafka)" >&2; exit 1; }
commit="$(git --git-dir="$src_git" rev-parse HEAD)"
stamp="$commit $KAFKA_API $(sha1sum "${BASH_SOURCE[0]}" | cut -d' ' -f1)"
if [ -f "$out/.complete" ] && [ "$(cat "$out/.complete")" = "$stamp" ]; then echo "$out/plugin"; exit 0; fi
rm -rf "$out"
mkdir -p "$out/src" "$out/build/src/main/java"
git --git-dir="$src_git" archive "$commit" commons/src/main storage/core/src/main storage/filesystem/src/main core/src/main \
  | tar -x -C "$out/src"
for m in commons storage/core storage/filesystem core; do cp -r "$out/src/$m/src/main/java/." "$out/build/src/main/java/"; done
pkg="$out/build/src/main/java/io/aiven/kafka/tieredstorage"
rm -r "$pkg/iceberg" "$pkg/IcebergRemoteStorageManager.java"
python3 - "$pkg" <<'PY'
import re, sys
pkg = sys.argv[1]
def edit(rel, fn):
    p = f"{pkg}/{rel}"
    s = open(p).read()
    t = fn(s)
    if t == s: sys.exit(f"build-aiven-tiered.sh: {rel} did not change (upstream moved on?)")
    open(p, "w").write(t)
def config(s):
    s = re.sub(r"^import (io\.aiven\.kafka\.tieredstorage\.iceberg|org\.apache\.iceberg)\..*;\n", "", s, flags=re.M)
    i = s.index("    public StructureProvider structureProvider() {")
    return s[:i].rstrip() + "\n}\n"
def rsm(s):
    s = s.replace("private IcebergRemoteStorageManager icebergRsm;", "private InternalRemoteStorageManager icebergRsm;")
    return s.replace("? new IcebergRemoteStorageManager(log, time, config)",
                     "? failIceberg()").replace("    @Override\n    public void close()",
                     "    private static InternalRemoteStorageManager failIceberg() {\n"
                     "        throw new IllegalArgumentException(\"segment.format=iceberg is not in this build (scripts/kafka/build-aiven-tiered.sh)\");\n"
                     "    }\n\n    @Override\n    public void close()", 1)
edit("config/RemoteStorageManagerConfig.java", config)
edit("RemoteStorageManager.java", rsm)
PY
find "$out/build/src/main/java" -name '*.java' -print0 | xargs -0 sed -i -E \
  -e 's/org\.apache\.kafka\.common\.record\.(RecordBatch|Record|SimpleRecord|CompressionType|FileRecords|FileLogInputStream|MemoryRecordsBuilder|MemoryRecords)\b/org.apache.kafka.common.record.internal.\1/g' \
  -e 's/org\.apache\.kafka\.common\.utils\.(ByteBufferInputStream|ByteBufferOutputStream)\b/org.apache.kafka.common.utils.internals.\1/g'
# versions: upstream build.gradle / core/build.gradle at that commit
cat > "$out/build/pom.xml" <<POM
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>tsdump.fixtures</groupId>
  <artifactId>aiven-tiered-storage</artifactId>
  <version>${commit:0:12}</version>
  <packaging>jar</packaging>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <kafka.version>$KAFKA_API</kafka.version>
    <jackson.version>2.21.3</jackson.version>
  </properties>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-clients</artifactId><version>\${kafka.version}</version><scope>provided</scope></dependency>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-storage-api</artifactId><version>\${kafka.version}</version><scope>provided</scope></dependency>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-storage</artifactId><version>\${kafka.version}</version><scope>provided</scope></dependency>
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-api</artifactId><version>1.7.36</version><scope>provided</scope></dependency>
    <dependency><groupId>org.bouncycastle</groupId><artifactId>bcprov-jdk18on</artifactId><version>1.83</version></dependency>
    <dependency><groupId>com.fasterxml.jackson.core</groupId><artifactId>jackson-databind</artifactId><version>\${jackson.version}</version></dependency>
    <dependency><groupId>com.fasterxml.jackson.datatype</groupId><artifactId>jackson-datatype-jdk8</artifactId><version>\${jackson.version}</version></dependency>
    <dependency><groupId>com.github.luben</groupId><artifactId>zstd-jni</artifactId><version>1.5.7-4</version></dependency>
    <dependency><groupId>com.github.ben-manes.caffeine</groupId><artifactId>caffeine</artifactId><version>3.2.3</version>
      <exclusions><exclusion><groupId>org.checkerframework</groupId><artifactId>checker-qual</artifactId></exclusion>
        <exclusion><groupId>com.google.errorprone</groupId><artifactId>error_prone_annotations</artifactId></exclusion></exclusions></dependency>
    <dependency><groupId>commons-io</groupId><artifactId>commons-io</artifactId><version>2.21.0</version></dependency>
    <dependency><groupId>com.bucket4j</groupId><artifactId>bucket4j_jdk11-core</artifactId><version>8.15.0</version></dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version>
        <configuration><release>17</release></configuration></plugin>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-jar-plugin</artifactId><version>3.4.2</version></plugin>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
    </plugins>
  </build>
</project>
POM
( cd "$out/build" && mvn -B -q -Dstyle.color=never package -DskipTests \
    org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy-dependencies -DincludeScope=runtime \
    -DoutputDirectory="$out/plugin" ) >&2
cp "$out/build/target/aiven-tiered-storage-${commit:0:12}.jar" "$out/plugin/"
echo "$stamp" > "$out/.complete"
echo "$out/plugin"
