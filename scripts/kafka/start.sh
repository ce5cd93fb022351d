#!/usr/bin/env bash
# Start a single-node KRaft Kafka (broker+controller) on 127.0.0.1 with a fresh log dir.
#
# usage: start.sh [--dir DIR] [--prop key=value]...
#   --dir DIR        work dir (default: a new mktemp dir). DIR/data = log.dirs, DIR/meta = metadata.log.dir
#   --prop k=v       extra/override server property (repeatable); also $KAFKA_EXTRA_PROPS (one k=v per line)
# KAFKA_VERSION selects the release (scripts/kafka/install.sh must have installed it).
#   --restart        start the stopped broker of --dir again: same server.properties (with --prop applied on top),
#                    same ports and log dirs, no format; server.log of the previous run is kept as server.log.<n>
#   --dynamic-quorum KIP-853 dynamic controller quorum: controller.quorum.bootstrap.servers instead of
#                    controller.quorum.voters, formatted with `kafka-storage format --standalone` (kraft.version 1;
#                    writes __cluster_metadata-0/00000000000000000000-0000000000.checkpoint with the voter set)
# Writes $KAFKA_STATE (shell-sourceable: KAFKA_PORT, KAFKA_PID, KAFKA_DIR, KAFKA_LOG_DIR, KAFKA_BOOTSTRAP)
# and prints the same lines on stdout. Waits until the broker serves (max $KAFKA_START_TIMEOUT s, default 120).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"

dir=""
props=()
dynamic_quorum=0
restart=0
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="$2"; shift 2 ;;
    --prop) props+=("$2"); shift 2 ;;
    --dynamic-quorum) dynamic_quorum=1; shift ;;
    --restart) restart=1; shift ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
if [ -n "${KAFKA_EXTRA_PROPS:-}" ]; then
  while IFS= read -r line; do [ -n "$line" ] && props+=("$line"); done <<< "$KAFKA_EXTRA_PROPS"
fi

if [ -f "$KAFKA_STATE" ]; then
  # shellcheck disable=SC1090
  old_pid="$(. "$KAFKA_STATE"; echo "${KAFKA_PID:-}")"
  if [ -n "$old_pid" ] && kill -0 "$old_pid" 2>/dev/null; then
    echo "a broker from $KAFKA_STATE is still running (pid $old_pid); run stop.sh first or set KAFKA_STATE" >&2
    exit 1
  fi
fi

cp="$(kafka_classpath)"
if [ "$restart" = 1 ]; then
  [ -n "$dir" ] && [ -f "$dir/server.properties" ] || { echo "--restart needs --dir of a broker started before" >&2; exit 2; }
  port="$(sed -n 's/^listeners=PLAINTEXT:\/\/127.0.0.1:\([0-9]*\),.*/\1/p' "$dir/server.properties")"
  cport="$(sed -n 's/.*CONTROLLER:\/\/127.0.0.1:\([0-9]*\)$/\1/p' "$dir/server.properties")"
  n=1; while [ -e "$dir/server.log.$n" ]; do n=$((n + 1)); done
  [ -f "$dir/server.log" ] && mv "$dir/server.log" "$dir/server.log.$n"
else
if [ -z "$dir" ]; then dir="$(mktemp -d "${TMPDIR:-/tmp}/tsdump-kafka.XXXXXX")"; fi
rm -rf "$dir/data" "$dir/meta"
mkdir -p "$dir/data" "$dir/meta"

free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}
port="$(free_port)"
cport="$(free_port)"
while [ "$cport" = "$port" ]; do cport="$(free_port)"; done

# fixed cluster id keeps meta.properties stable between runs ("tsdump-fixtures!" base64url)
cluster_id="${KAFKA_CLUSTER_ID:-dHNkdW1wLWZpeHR1cmVzIQ}"

if [ "$dynamic_quorum" = 1 ]; then
  quorum_prop="controller.quorum.bootstrap.servers=127.0.0.1:$cport"
  format_args=(--standalone)
else
  quorum_prop="controller.quorum.voters=1@127.0.0.1:$cport"
  format_args=()
fi

cat > "$dir/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
$quorum_prop
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$cport
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$dir/data
metadata.log.dir=$dir/meta
num.partitions=1
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=3
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=3
transaction.max.timeout.ms=900000
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
num.network.threads=2
num.io.threads=2
background.threads=2
num.recovery.threads.per.data.dir=1
log.cleaner.threads=1
log.cleaner.dedupe.buffer.size=4194304
log.cleaner.io.buffer.size=65536
socket.send.buffer.bytes=-1
socket.receive.buffer.bytes=-1
PROPS
fi
for p in "${props[@]+"${props[@]}"}"; do
  key="${p%%=*}"
  # later definitions win in java.util.Properties, but drop the old line to keep the file readable
  grep -v "^${key}=" "$dir/server.properties" > "$dir/server.properties.tmp" || true
  mv "$dir/server.properties.tmp" "$dir/server.properties"
  echo "$p" >> "$dir/server.properties"
done

if [ "$restart" = 0 ]; then
  kafka_write_server_log_config "$dir"

# kafka-storage format
# shellcheck disable=SC2086
java $KAFKA_TOOL_HEAP $KAFKA_JAVA_OPTS "$(kafka_tools_log4j)" -cp "$cp" \
  kafka.tools.StorageTool format -t "$cluster_id" -c "$dir/server.properties" --ignore-formatted "${format_args[@]+"${format_args[@]}"}" \
  > "$dir/format.out" 2>&1 || { cat "$dir/format.out" >&2; exit 1; }
fi

# shellcheck disable=SC2086
nohup java $KAFKA_BROKER_HEAP $KAFKA_JAVA_OPTS \
  -Dkafka.logs.dir="$dir" "$(kafka_log4j_opt "$dir/log4j")" \
  -cp "$cp" kafka.Kafka "$dir/server.properties" \
  > "$dir/stdout.log" 2>&1 < /dev/null &
pid=$!

mkdir -p "$(dirname "$KAFKA_STATE")"
cat > "$KAFKA_STATE" <<STATE
KAFKA_PORT=$port
KAFKA_CONTROLLER_PORT=$cport
KAFKA_PID=$pid
KAFKA_DIR=$dir
KAFKA_LOG_DIR=$dir/data
KAFKA_BOOTSTRAP=127.0.0.1:$port
STATE

start=$(date +%s)
kafka_await_started "$pid" "$dir/server.log" 0 broker || exit 1
# listener accepts connections?
node -e '
const [h,p]=process.argv[1].split(":");const net=require("net");
let n=0;(function tryc(){const s=net.connect(+p,h,()=>{s.end();process.exit(0)});s.on("error",()=>{if(++n>100)process.exit(1);setTimeout(tryc,100)})})()' "127.0.0.1:$port"
cat "$KAFKA_STATE"
echo "KAFKA_START_SECONDS=$(( $(date +%s) - start ))" >&2
