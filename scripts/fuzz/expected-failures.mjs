// Failures the harness knows about and expects today, each with the reason and the fix that will remove
// it. They live in the framer/decoder/analysis/findings code, restructured in issue #14's second wave:
// that wave empties these lists. An entry that passes makes the run fail ("remove it from the list"),
// so a fix is proven by deleting its line.
//
// Keys: `<class>:<run label>/<check>`, check one of crash, time, rss, writes, expect.

/** The fast tier (npm run test:fuzz): small inputs, thousands of runs. */
export const FAST = {
  // legacy wrappers: inner messages are decoded but their CRC and order are not findings (decode/legacy.ts)
  'legacy-inner-bad-crc:deep/expect': 'inner bad CRC prints isValid: false but no CRC_MISMATCH finding, exit 0',
  'legacy-descending-inner:deep/expect': 'descending inner offsets exit 0',
  // the one exit-code rule (findings catalogue): warnings must exit 1 in every command
  ...Object.fromEntries(['reconcile', 'reconcile---json', 'txns', 'txns---json', 'lso', 'lso---json']
    .map((l) => [`warnings-exit:${l}/expect`, 'reconcile, txns and lso exit 0 after a warning finding (SNAPSHOT_INVALID)'])),
}

/** The big tier (npm run test:big): the sizes of the issue. */
const whole = 'a batch larger than the window is read whole (CRC, decompression, record decode): streaming batch'
export const BIG = {
  'huge-batch:shallow/rss': `512 MiB batch: ${whole}`,
  'huge-batch:print-data-log/rss': `512 MiB batch: ${whole}, and the value is decoded as one string`,
  'huge-batch:json-deep/rss': `512 MiB batch: ${whole}`,
  'many-records:deep/rss': `10 M records: ${whole}; records decoded into a list`,
  'gzip-batch:deep/rss': '250 MB gzip batch decompressed in one piece: streaming decompression',
  'decompression-bomb:deep/rss': 'the 256 MiB decompression budget is itself above the 128 MiB promise: streaming decompression',
  'small-transactions:txns/rss': '1 GiB of small transactions: txns keeps one record per transaction',
  'small-transactions:txns---json/rss': '1 GiB of small transactions: txns keeps one record per transaction',
  'many-producers:txns/rss': '1 M producer ids: txns keeps per-producer state and runs',
  'many-producers:txns---json/rss': '1 M producer ids: txns keeps per-producer state and runs',
  'bad-crc-batches:dump/rss': '1 M CRC findings kept until exit: findings written as they occur, counts kept',
  'bad-crc-batches:json/rss': '1 M CRC findings kept until exit: findings written as they occur, counts kept',
  'resync:dump/time': 'resync CRC-checks a 1 MiB candidate at every third byte: bound the work per skipped byte',
  'timeindex-beyond-log:verify/time': 'every .timeindex entry past the log end rescans the log from 0',
  // 200 k: 14 s CPU, 125 MiB (passes, barely); 400 k: 50 s CPU, 150 MiB; 1 M: killed after 180 s
  'offset-gaps-400k:deep/rss': 'the non-consecutive offsets list grows (with unshift), unbounded',
  'offset-gaps-1m:deep/time': 'the non-consecutive offsets list grows with unshift: quadratic',
  'legacy-big-wrapper:deep/rss': '250,000 inner messages of a legacy wrapper held at once',
  'legacy-huge-wrapper:deep/rss': '7.7 M inner messages of a legacy wrapper held at once',
  'index-mismatches:verify-index-only/rss': '200,000 index mismatches kept (and unshifted) for the Kafka-style list',
  'legacy-inner-bad-crc:deep/expect': FAST['legacy-inner-bad-crc:deep/expect'],
  'legacy-descending-inner:deep/expect': FAST['legacy-descending-inner:deep/expect'],
  ...Object.fromEntries(Object.entries(FAST).filter(([k]) => k.startsWith('warnings-exit:'))),
}

/** Finding codes still printed in --json without a location (file + position, or partition + offsets). */
export const UNLOCATED_CODES = [
  // partition-level findings: need `partition` and the offsets as --json fields
  'CONSUMER_VIEW_DIFFERS', 'TXNINDEX_MISSING_ENTRY', 'HIGH_WATERMARK_BEYOND_LOG_END', 'TXNINDEX_NOT_CHECKED', 'LEGACY_ENTRIES',
  // file-level findings: need a position (0 for the whole file)
  'SNAPSHOT_INVALID', 'NO_SEGMENT', 'NAME_NOT_OFFSET',
]
