# Functions of the multi-broker KRaft cluster scripts (cluster-start.sh, cluster-stop.sh, cluster-fits.sh);
# sourced, not executed. One controller JVM (process.roles=controller, node.id 0) and N broker JVMs
# (process.roles=broker, node.id 1..N) on 127.0.0.1, each in its own dir under the cluster dir:
#   CLUSTER_DIR/cluster.env          ports and dirs (shell-sourceable), written once by cluster-start.sh
#   CLUSTER_DIR/node-<id>/           server.properties, log4j config, server.log, stdout.log, pid
#   CLUSTER_DIR/node-<id>/data       log.dirs of a broker (partition dirs, meta.properties, *-checkpoint files)
#   CLUSTER_DIR/node-<id>/meta       metadata.log.dir (__cluster_metadata-0), so data/ holds only data partitions
# A node keeps its ports for the cluster's life, so a stopped broker can be started again with its log dir as it
# left it (scripts/fixtures/cluster.mjs stops and starts single brokers that way).
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"

# Brokers get a smaller heap than start.sh's single node: three of them and a controller share the machine.
CLUSTER_BROKER_HEAP="${CLUSTER_BROKER_HEAP:--Xmx384m -Xms64m}"
CLUSTER_CONTROLLER_HEAP="${CLUSTER_CONTROLLER_HEAP:--Xmx192m -Xms32m}"

cluster_node_dir() { echo "$CLUSTER_DIR/node-$1"; }


cluster_free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

cluster_port_free() {
  node -e 'const s=require("net").createServer();s.on("error",()=>process.exit(1));s.listen(+process.argv[1],"127.0.0.1",()=>s.close())' "$1"
}

# Append k=v lines to a properties file, replacing an earlier line of the same key.
cluster_apply_props() {
  local file="$1"; shift
  local p key
  for p in "$@"; do
    key="${p%%=*}"
    grep -v "^${key}=" "$file" > "$file.tmp" || true
    mv "$file.tmp" "$file"
    echo "$p" >> "$file"
  done
}

# Start the JVM of node $1 (formatted before) in the background and wait for a new "Kafka Server started" line
# (a broker logs it once it is unfenced: BrokerServer waits for the controller's heartbeat answer first).
cluster_launch_node() {
  local id="$1" d cp heap before pid start
  d="$(cluster_node_dir "$id")"
  cp="$(kafka_classpath)"
  if [ "$id" = 0 ]; then heap="$CLUSTER_CONTROLLER_HEAP"; else heap="$CLUSTER_BROKER_HEAP"; fi
  if [ -f "$d/pid" ] && kill -0 "$(cat "$d/pid")" 2>/dev/null; then
    echo "node $id is already running (pid $(cat "$d/pid"))" >&2; return 1
  fi
  # shellcheck disable=SC1091
  . "$CLUSTER_DIR/cluster.env"
  local port_var="CLUSTER_NODE_${id}_PORT"
  if ! cluster_port_free "${!port_var}"; then
    echo "node $id: port ${!port_var} is taken by another process; cannot restart the node on it" >&2; return 1
  fi
  before=0
  if [ -f "$d/server.log" ]; then before="$(grep -c "Kafka Server started" "$d/server.log" || true)"; fi
  # shellcheck disable=SC2086
  nohup java $heap $KAFKA_JAVA_OPTS -Dkafka.logs.dir="$d" "$(kafka_log4j_opt "$d/log4j")" \
    -cp "$cp" kafka.Kafka "$d/server.properties" >> "$d/stdout.log" 2>&1 < /dev/null &
  pid=$!
  echo "$pid" > "$d/pid"
  start=$(date +%s)
  kafka_await_started "$pid" "$d/server.log" "$before" "node $id" || return 1
  echo "node $id started (pid $pid) in $(( $(date +%s) - start )) s" >&2
}

# SIGTERM node $1 and wait for its controlled shutdown (checkpoints, producer snapshots, trimmed indexes).
# Returns 1 if it had to be SIGKILLed.
cluster_stop_node() {
  local id="$1" d pid timeout
  d="$(cluster_node_dir "$id")"
  [ -f "$d/pid" ] || { echo "node $id: no pid file" >&2; return 0; }
  pid="$(cat "$d/pid")"
  if ! kill -0 "$pid" 2>/dev/null; then echo "node $id (pid $pid) not running" >&2; rm -f "$d/pid"; return 0; fi
  kill -TERM "$pid"
  timeout="${KAFKA_STOP_TIMEOUT:-90}"
  for _ in $(seq 1 $(( timeout * 5 ))); do
    if ! kill -0 "$pid" 2>/dev/null; then rm -f "$d/pid"; echo "node $id (pid $pid) stopped" >&2; return 0; fi
    sleep 0.2
  done
  echo "node $id (pid $pid) did not stop within ${timeout}s; sending SIGKILL" >&2
  kill -KILL "$pid" 2>/dev/null || true
  rm -f "$d/pid"
  return 1
}
