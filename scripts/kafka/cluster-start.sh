#!/usr/bin/env bash
# Start a multi-broker KRaft cluster on 127.0.0.1: one controller JVM (process.roles=controller, node.id 0) and N
# broker JVMs (process.roles=broker, node.id 1..N), each with its own dir, log dir and free ports
# (layout: cluster-lib.sh). The release is $KAFKA_VERSION (scripts/kafka/install.sh must have installed it).
#
# usage: cluster-start.sh --dir DIR [--brokers N] [--prop k=v]... [--controller-prop k=v]... [--node-prop ID:k=v]...
#          formats a new cluster in DIR (node dirs inside it are wiped first) and starts every node
#        cluster-start.sh --dir DIR --node ID
#          starts node ID of that cluster again, with its log dir as it was left (same ports and config)
#   --brokers N          broker count (default 3); replication factors of the internal topics = min(3, N)
#   --prop k=v           server property for every node (repeatable; later wins), e.g. min.insync.replicas=1
#   --controller-prop    server property for the controller only
#   --node-prop ID:k=v   server property for node ID only (e.g. a broker whose log cleaner runs on another schedule)
# Prints the cluster's env file (CLUSTER_BOOTSTRAP, CLUSTER_NODE_<id>_PORT, ...) on stdout; the time taken on stderr.
# Stop with cluster-stop.sh --dir DIR [--node ID].
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/cluster-lib.sh"

CLUSTER_DIR=""
brokers=3
node=""
props=()
cprops=()
nprops=()
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) CLUSTER_DIR="$2"; shift 2 ;;
    --brokers) brokers="$2"; shift 2 ;;
    --node) node="$2"; shift 2 ;;
    --prop) props+=("$2"); shift 2 ;;
    --controller-prop) cprops+=("$2"); shift 2 ;;
    --node-prop) nprops+=("$2"); shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
[ -n "$CLUSTER_DIR" ] || { echo "--dir is required" >&2; exit 2; }
t0=$(date +%s)

if [ -n "$node" ]; then
  [ -f "$CLUSTER_DIR/cluster.env" ] || { echo "no cluster in $CLUSTER_DIR (cluster.env missing)" >&2; exit 1; }
  cluster_launch_node "$node"
  cat "$CLUSTER_DIR/cluster.env"
  echo "CLUSTER_START_SECONDS=$(( $(date +%s) - t0 ))" >&2
  exit 0
fi

for d in "$CLUSTER_DIR"/node-*; do
  if [ -f "$d/pid" ] && kill -0 "$(cat "$d/pid")" 2>/dev/null; then
    echo "$d is still running (pid $(cat "$d/pid")); run cluster-stop.sh --dir $CLUSTER_DIR first" >&2; exit 1
  fi
done
mkdir -p "$CLUSTER_DIR"
rm -rf "$CLUSTER_DIR"/node-* "$CLUSTER_DIR/cluster.env"
cp="$(kafka_classpath)"
rf=$(( brokers < 3 ? brokers : 3 ))
# fixed cluster id keeps meta.properties stable between runs (as start.sh: "tsdump-fixtures!" base64url)
cluster_id="${KAFKA_CLUSTER_ID:-dHNkdW1wLWZpeHR1cmVzIQ}"

ports=()
while [ "${#ports[@]}" -le "$brokers" ]; do
  p="$(cluster_free_port)"
  case " ${ports[*]-} " in *" $p "*) ;; *) ports+=("$p") ;; esac
done
cport="${ports[0]}"
bootstrap=""
{
  echo "CLUSTER_DIR=$CLUSTER_DIR"
  echo "CLUSTER_ID=$cluster_id"
  echo "CLUSTER_KAFKA_VERSION=$KAFKA_VERSION"
  echo "CLUSTER_BROKERS=$brokers"
  echo "CLUSTER_CONTROLLER_PORT=$cport"
  echo "CLUSTER_NODE_0_PORT=$cport"
  for id in $(seq 1 "$brokers"); do
    echo "CLUSTER_NODE_${id}_PORT=${ports[$id]}"
    echo "CLUSTER_NODE_${id}_LOG_DIR=$(cluster_node_dir "$id")/data"
    bootstrap="${bootstrap:+$bootstrap,}127.0.0.1:${ports[$id]}"
  done
  echo "CLUSTER_BOOTSTRAP=$bootstrap"
} > "$CLUSTER_DIR/cluster.env"

common_props() {
  cat <<PROPS
controller.quorum.voters=0@127.0.0.1:$cport
controller.listener.names=CONTROLLER
num.network.threads=2
num.io.threads=2
background.threads=2
socket.send.buffer.bytes=-1
socket.receive.buffer.bytes=-1
min.insync.replicas=1
PROPS
}

d="$(cluster_node_dir 0)"
mkdir -p "$d/meta"
{
  echo "process.roles=controller"
  echo "node.id=0"
  echo "listeners=CONTROLLER://127.0.0.1:$cport"
  echo "listener.security.protocol.map=CONTROLLER:PLAINTEXT"
  echo "log.dirs=$d/meta"
  # topic-creation defaults belong to the controller role in KRaft (4.4 warns when a broker has them)
  echo "num.partitions=1"
  echo "default.replication.factor=$rf"
  common_props
} > "$d/server.properties"
cluster_apply_props "$d/server.properties" "${props[@]+"${props[@]}"}" "${cprops[@]+"${cprops[@]}"}"
kafka_write_server_log_config "$d"

for id in $(seq 1 "$brokers"); do
  d="$(cluster_node_dir "$id")"
  mkdir -p "$d/data" "$d/meta"
  {
    echo "process.roles=broker"
    echo "node.id=$id"
    echo "listeners=PLAINTEXT://127.0.0.1:${ports[$id]}"
    echo "advertised.listeners=PLAINTEXT://127.0.0.1:${ports[$id]}"
    echo "inter.broker.listener.name=PLAINTEXT"
    echo "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT"
    echo "log.dirs=$d/data"
    echo "metadata.log.dir=$d/meta"
    common_props
    # test-sized, replicated: the internal topics have one partition each, on every broker (up to 3)
    cat <<PROPS
offsets.topic.replication.factor=$rf
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=$rf
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=1
transaction.max.timeout.ms=900000
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
auto.leader.rebalance.enable=false
num.recovery.threads.per.data.dir=1
num.replica.fetchers=1
replica.fetch.wait.max.ms=200
log.cleaner.threads=1
log.cleaner.dedupe.buffer.size=4194304
log.cleaner.io.buffer.size=65536
PROPS
  } > "$d/server.properties"
  cluster_apply_props "$d/server.properties" "${props[@]+"${props[@]}"}"
  for np in "${nprops[@]+"${nprops[@]}"}"; do
    if [ "${np%%:*}" = "$id" ]; then cluster_apply_props "$d/server.properties" "${np#*:}"; fi
  done
  kafka_write_server_log_config "$d"
done

# kafka-storage format, every node at once (one tool JVM each)
pids=()
for id in $(seq 0 "$brokers"); do
  d="$(cluster_node_dir "$id")"
  # shellcheck disable=SC2086
  java $KAFKA_TOOL_HEAP $KAFKA_JAVA_OPTS "$(kafka_tools_log4j)" -cp "$cp" \
    kafka.tools.StorageTool format -t "$cluster_id" -c "$d/server.properties" --ignore-formatted > "$d/format.out" 2>&1 &
  pids+=($!)
done
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || { cat "$(cluster_node_dir "$i")/format.out" >&2; exit 1; }
done

cluster_launch_node 0
pids=()
for id in $(seq 1 "$brokers"); do cluster_launch_node "$id" & pids+=($!); done
failed=0
for p in "${pids[@]}"; do wait "$p" || failed=1; done
if [ "$failed" = 1 ]; then
  echo "a broker did not start; stopping the cluster" >&2
  for id in $(seq "$brokers" -1 0); do cluster_stop_node "$id" || true; done
  exit 1
fi
cat "$CLUSTER_DIR/cluster.env"
echo "CLUSTER_START_SECONDS=$(( $(date +%s) - t0 ))" >&2
