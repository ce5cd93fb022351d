#!/usr/bin/env bash
# tsdump export of a large segment: peak RSS and time (/usr/bin/time -v), beside `tsdump dump --deep-iteration`
# to /dev/null on the same file, and DuckDB's time for a query over the export (bench/RESULTS.md, "export").
# usage: bash bench/export.sh [size (default 1GiB)] [work dir outside the repo (default /tmp/tsdump-bench-export)]
set -euo pipefail
size=${1:-1GiB}
work=${2:-/tmp/tsdump-bench-export}
repo=$(cd "$(dirname "$0")/.." && pwd)
seg="$work/bench-txn-$size-0"
[ -f "$seg/00000000000000000000.log" ] || node "$repo/bench/make-segments.mjs" --out "$work" --size "$size" --only txn
rm -rf "$work/out"
measure () { /usr/bin/time -v "$@" 2> "$work/time.txt" > "$work/stdout.txt"
  grep -E 'User time|System time|Elapsed|Maximum resident' "$work/time.txt" | sed 's/^\s*/    /'; }
echo "input: $(stat -c %s "$seg/00000000000000000000.log") bytes"
echo "tsdump export (parquet):"; measure node "$repo/bin/tsdump.js" export "$seg" -o "$work/out"; cat "$work/stdout.txt"
du -sb "$work/out" | sed 's/^/    output bytes: /'
echo "tsdump dump --deep-iteration > /dev/null:"; measure node "$repo/bin/tsdump.js" dump --deep-iteration "$seg"
echo "DuckDB (@duckdb/node-api), visible records per outcome over the export:"
cd "$repo" && node --input-type=module -e "
import { DuckDBInstance } from '@duckdb/node-api'
const c = await (await DuckDBInstance.create(':memory:')).connect()
const q = \"select transactionOutcome, count(*) filter (where visibleReadCommitted) rc, count(*) n from read_parquet('$work/out/**/*.parquet') group by 1 order by 1\"
const t0 = performance.now(); const r = await c.runAndReadAll(q); const ms = performance.now() - t0
console.log('    ' + JSON.stringify(r.getRowObjectsJS(), (k, v) => typeof v === 'bigint' ? Number(v) : v))
console.log('    query time: ' + ms.toFixed(0) + ' ms')"
