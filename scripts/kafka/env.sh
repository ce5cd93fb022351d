# Shared settings for scripts/kafka/*.sh (sourced, not executed).
# KAFKA_VERSION  Kafka release: 3.9.1 (default, the release of fixtures/broker/), 4.4.0 (fixtures/broker-4.4/),
#                or any other release on Maven Central (4.0.2, 4.1.2, 4.2.2, 4.3.1 are installed as dump-log oracles)
# KAFKA_CACHE    where the resolved jars live (outside git); default <repo>/.cache/kafka-<ver>
# KAFKA_STATE    state file written by start.sh (port, pid, log dir); default <repo>/.cache/kafka-run/state.env
KAFKA_SCRIPTS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
KAFKA_REPO_ROOT="$(cd "$KAFKA_SCRIPTS_DIR/../.." && pwd)"
KAFKA_VERSION="${KAFKA_VERSION:-3.9.1}"
KAFKA_CACHE="${KAFKA_CACHE:-$KAFKA_REPO_ROOT/.cache/kafka-$KAFKA_VERSION}"
KAFKA_LIB="$KAFKA_CACHE/lib"
KAFKA_STATE="${KAFKA_STATE:-$KAFKA_REPO_ROOT/.cache/kafka-run/state.env}"
# 4.0 replaced reload4j by log4j2 (KIP-653); the config files differ
case "$KAFKA_VERSION" in 0.*|1.*|2.*|3.*) KAFKA_LOG4J2=0 ;; *) KAFKA_LOG4J2=1 ;; esac
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

# JVM flag pointing log4j (reload4j, 3.x) or log4j2 (4.x) at a config file.
# usage: kafka_log4j_opt FILE_WITHOUT_SUFFIX   (FILE.properties for reload4j, FILE.log4j2.properties for log4j2)
kafka_log4j_opt() {
  if [ "$KAFKA_LOG4J2" = 1 ]; then echo "-Dlog4j2.configurationFile=file:$1.log4j2.properties"
  else echo "-Dlog4j.configuration=file:$1.properties"; fi
}

# log config for command-line tools: warnings to stderr only. Prints the JVM flag.
kafka_tools_log4j() {
  local f="$KAFKA_CACHE/tools-log4j"
  mkdir -p "$KAFKA_CACHE"
  if [ "$KAFKA_LOG4J2" = 1 ] && [ ! -f "$f.log4j2.properties" ]; then
    cat > "$f.log4j2.properties" <<'PROPS'
status = error
appender.stderr.type = Console
appender.stderr.name = STDERR
appender.stderr.target = SYSTEM_ERR
appender.stderr.layout.type = PatternLayout
appender.stderr.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = WARN
rootLogger.appenderRef.stderr.ref = STDERR
PROPS
  elif [ "$KAFKA_LOG4J2" = 0 ] && [ ! -f "$f.properties" ]; then
    cat > "$f.properties" <<'PROPS'
log4j.rootLogger=WARN, stderr
log4j.appender.stderr=org.apache.log4j.ConsoleAppender
log4j.appender.stderr.layout=org.apache.log4j.PatternLayout
log4j.appender.stderr.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.appender.stderr.Target=System.err
PROPS
  fi
  kafka_log4j_opt "$f"
}

# run a Java main class from the Kafka classpath as a command-line tool
kafka_run_tool() {
  local cls="$1"; shift
  local cp; cp="$(kafka_classpath)" || return 1
  # shellcheck disable=SC2086
  java $KAFKA_TOOL_HEAP $KAFKA_JAVA_OPTS "$(kafka_tools_log4j)" -cp "$cp" "$cls" "$@"
}

# the class of kafka-dump-log.sh: Scala kafka.tools.DumpLogSegments in the core jar up to 4.2,
# Java org.apache.kafka.tools.DumpLogSegments in kafka-tools from 4.3 (KAFKA-14524 series)
kafka_dump_log_class() {
  # (no pipe into grep -q: with pipefail its early exit fails the pipeline at random)
  if unzip -l "$KAFKA_LIB/kafka-tools-$KAFKA_VERSION.jar" org/apache/kafka/tools/DumpLogSegments.class >/dev/null 2>&1; then
    echo org.apache.kafka.tools.DumpLogSegments
  else
    echo kafka.tools.DumpLogSegments
  fi
}

# Wait until the JVM $1 logged "Kafka Server started" in $2 more than $3 times (default 0: the log may hold the
# lines of earlier runs of the same node); give up when it exits or after $KAFKA_START_TIMEOUT s (default 120),
# killing it. $4 names it in the messages. Returns 1 on failure.
kafka_await_started() {
  local pid="$1" log="$2" before="${3:-0}" what="${4:-broker}" start timeout n
  timeout="${KAFKA_START_TIMEOUT:-120}"
  start=$(date +%s)
  while :; do
    n=0
    if [ -f "$log" ]; then n="$(grep -c "Kafka Server started" "$log" || true)"; fi
    [ "$n" -gt "$before" ] && return 0
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "$what exited during startup; last log lines:" >&2
      tail -n 40 "$log" "$(dirname "$log")/stdout.log" >&2 2>/dev/null || true
      return 1
    fi
    if [ $(( $(date +%s) - start )) -ge "$timeout" ]; then
      echo "$what did not start within ${timeout}s; stopping it" >&2
      tail -n 40 "$log" >&2 2>/dev/null || true
      kill "$pid" 2>/dev/null || true
      return 1
    fi
    sleep 0.2
  done
}

# The server log config of a broker or controller JVM in dir $1 (both formats: reload4j for 3.x, log4j2 for 4.x,
# picked by kafka_log4j_opt): INFO to $1/server.log (appended, so a restarted node keeps its earlier lines; the JVM
# needs -Dkafka.logs.dir=$1), state changes and requests at WARN.
kafka_write_server_log_config() {
  local d="$1"
  cat > "$d/log4j.properties" <<'PROPS'
log4j.rootLogger=INFO, file
log4j.appender.file=org.apache.log4j.FileAppender
log4j.appender.file.File=${kafka.logs.dir}/server.log
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.log.LogCleaner=INFO
log4j.logger.org.apache.kafka.controller=INFO
log4j.logger.state.change.logger=WARN
log4j.logger.kafka.request.logger=WARN
PROPS
  cat > "$d/log4j.log4j2.properties" <<PROPS
status = error
appender.file.type = File
appender.file.name = FILE
appender.file.fileName = $d/server.log
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.file.ref = FILE
logger.sc.name = state.change.logger
logger.sc.level = WARN
logger.req.name = kafka.request.logger
logger.req.level = WARN
PROPS
}
