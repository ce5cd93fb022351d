#!/usr/bin/env bash
# Stop a cluster started by cluster-start.sh: every broker (highest node id first, one at a time: each controlled
# shutdown moves its leaderships to the brokers still up), then the controller; or one node with --node ID.
# usage: cluster-stop.sh --dir DIR [--node ID]
# Exit 0 if every node stopped cleanly or was not running, 1 if one had to be SIGKILLed.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/cluster-lib.sh"

CLUSTER_DIR=""
node=""
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) CLUSTER_DIR="$2"; shift 2 ;;
    --node) node="$2"; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
[ -n "$CLUSTER_DIR" ] || { echo "--dir is required" >&2; exit 2; }
[ -f "$CLUSTER_DIR/cluster.env" ] || { echo "no cluster in $CLUSTER_DIR"; exit 0; }
# shellcheck disable=SC1091
. "$CLUSTER_DIR/cluster.env"

if [ -n "$node" ]; then cluster_stop_node "$node"; exit $?; fi
status=0
for id in $(seq "$CLUSTER_BROKERS" -1 1); do cluster_stop_node "$id" || status=1; done
cluster_stop_node 0 || status=1
exit "$status"
