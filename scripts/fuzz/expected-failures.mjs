// Failures the harness knows about and expects today, each with the reason and the fix that will remove
// it. They live in the framer/decoder/analysis/findings code, restructured in issue #14's second wave:
// that wave empties these lists. An entry that passes makes the run fail ("remove it from the list"),
// so a fix is proven by deleting its line.
//
// Keys: `<class>:<run label>/<check>`, check one of crash, time, rss, writes, expect.

/** The fast tier (npm run test:fuzz): small inputs, thousands of runs. */
export const FAST = {}

/** The big tier (npm run test:big): the sizes of the issue. */
export const BIG = {}

/** Finding codes still printed in --json without a location (file + position, or partition + offsets). */
export const UNLOCATED_CODES = []
