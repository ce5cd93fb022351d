# Shared settings for scripts/kafka/*.sh (sourced, not executed).
# KAFKA_VERSION  pinned broker version (must match pom.xml's kafka.version)
# KAFKA_CACHE    where the resolved jars live (outside git); default <repo>/.cache/kafka-<ver>
# KAFKA_STATE    state file written by start.sh (port, pid, log dir); default <repo>/.cache/kafka-run/state.env
KAFKA_SCRIPTS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
KAFKA_REPO_ROOT="$(cd "$KAFKA_SCRIPTS_DIR/../.." && pwd)"
KAFKA_VERSION="${KAFKA_VERSION:-3.9.1}"
KAFKA_CACHE="${KAFKA_CACHE:-$KAFKA_REPO_ROOT/.cache/kafka-$KAFKA_VERSION}"
KAFKA_LIB="$KAFKA_CACHE/lib"
KAFKA_STATE="${KAFKA_STATE:-$KAFKA_REPO_ROOT/.cache/kafka-run/state.env}"
# Lean JVM settings: C1 only + serial GC start noticeably faster on 2 cores.
KAFKA_JAVA_OPTS="${KAFKA_JAVA_OPTS:--XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto -Djava.awt.headless=true}"
KAFKA_TOOL_HEAP="${KAFKA_TOOL_HEAP:--Xmx256m}"
KAFKA_BROKER_HEAP="${KAFKA_BROKER_HEAP:--Xmx512m -Xms128m}"

kafka_classpath() {
  if [ ! -f "$KAFKA_LIB/kafka_2.13-$KAFKA_VERSION.jar" ]; then
    echo "kafka jars not found in $KAFKA_LIB; run scripts/kafka/install.sh" >&2
    return 1
  fi
  echo "$KAFKA_LIB/*"
}

# log4j (reload4j) config for command-line tools: warnings to stderr only
kafka_tools_log4j() {
  local f="$KAFKA_CACHE/tools-log4j.properties"
  if [ ! -f "$f" ]; then
    mkdir -p "$KAFKA_CACHE"
    cat > "$f" <<'PROPS'
log4j.rootLogger=WARN, stderr
log4j.appender.stderr=org.apache.log4j.ConsoleAppender
log4j.appender.stderr.layout=org.apache.log4j.PatternLayout
log4j.appender.stderr.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.appender.stderr.Target=System.err
PROPS
  fi
  echo "$f"
}

# run a Java main class from the Kafka classpath as a command-line tool
kafka_run_tool() {
  local cls="$1"; shift
  local cp; cp="$(kafka_classpath)" || return 1
  # shellcheck disable=SC2086
  java $KAFKA_TOOL_HEAP $KAFKA_JAVA_OPTS -Dlog4j.configuration="file:$(kafka_tools_log4j)" -cp "$cp" "$cls" "$@"
}
