// Failures the harness knows about and expects today, each with the reason and the fix that will remove
// it. They live in the framer/decoder/analysis/findings code, restructured in issue #14's second wave:
// that wave empties these lists. An entry that passes makes the run fail ("remove it from the list"),
// so a fix is proven by deleting its line.
//
// Keys: `<class>:<run label>/<check>`, check one of crash, time, rss, writes, expect.

/** The fast tier (npm run test:fuzz): small inputs, thousands of runs. */
export const FAST = {}

/** The big tier (npm run test:big): the sizes of the issue. */
const whole = 'a batch larger than the window is read whole (CRC, decompression, record decode): streaming batch'
export const BIG = {
  'huge-batch:print-data-log/rss': `512 MiB batch: ${whole}, and the value is decoded as one string`,
  'huge-batch:json-deep/rss': `512 MiB batch: ${whole}`,
  'many-records:deep/rss': `10 M records: ${whole}; records decoded into a list`,
  'gzip-batch:deep/rss': '250 MB gzip batch decompressed in one piece: streaming decompression',
  'decompression-bomb:deep/rss': 'the 256 MiB decompression budget is itself above the 128 MiB promise: streaming decompression',
  // inner messages are decoded one at a time now (hostile2); what is left is the value itself
  'legacy-huge-wrapper:deep/rss': '7.7 M inner messages: the 250 MiB decompressed value of the wrapper is held whole: streaming decompression',
}

/** Finding codes still printed in --json without a location (file + position, or partition + offsets). */
export const UNLOCATED_CODES = []
