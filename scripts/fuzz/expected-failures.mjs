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
export const BIG = {
}

/** Finding codes still printed in --json without a location (file + position, or partition + offsets). */
export const UNLOCATED_CODES = [
  // partition-level findings: need `partition` and the offsets as --json fields
  'CONSUMER_VIEW_DIFFERS', 'TXNINDEX_MISSING_ENTRY', 'HIGH_WATERMARK_BEYOND_LOG_END', 'TXNINDEX_NOT_CHECKED', 'LEGACY_ENTRIES',
  // file-level findings: need a position (0 for the whole file)
  'SNAPSHOT_INVALID', 'NO_SEGMENT', 'NAME_NOT_OFFSET',
]
