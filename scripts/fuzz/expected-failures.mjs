// Failures the harness knows about and expects today, each with the reason and the fix that will remove
// it. They live in the framer/decoder/analysis/findings code, restructured in issue #14's second wave:
// that wave empties these lists. An entry that passes makes the run fail ("remove it from the list"),
// so a fix is proven by deleting its line.
//
// Keys: `<class>:<run label>/<check>`, check one of crash, time, rss, writes, expect.

/** The fast tier (npm run test:fuzz): small inputs, thousands of runs. */
export const FAST = {}

/** The big tier (npm run test:big): the sizes of the issue. */
export const BIG = {
  'bad-crc-batches:dump/rss': '1 M CRC findings kept until exit: findings written as they occur, counts kept',
  'bad-crc-batches:json/rss': '1 M CRC findings kept until exit: findings written as they occur, counts kept',
  // the per-entry work is linear now (2.3 s CPU, was 21 s); the 200,000 INDEX_MISMATCH findings themselves stay in memory
  'index-mismatches:verify-index-only/rss': '200,000 INDEX_MISMATCH findings kept until exit (164 MiB): findings written as they occur, counts kept',
}

/** Finding codes still printed in --json without a location (file + position, or partition + offsets). */
export const UNLOCATED_CODES = []
