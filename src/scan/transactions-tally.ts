// doctor's way through the transactions: what `transactions` lists, tallied without the listing. Each bucket is
// joined as transactions' is (analysis/transaction-join/bucket-join.ts, a share of its producer ids at a time) and
// its transactions counted as they come; nothing is put in the listed order but what depends on it. A transaction
// is in a share's sorted list at its place in the listed order: when it began, producer id, epoch, and on a tie the
// order of the join (a producer id's transactions are all in one share), which the count of transactions met so
// far keeps, since buckets and shares are joined in the order the merge breaks ties by. So:
//  - the transactions with findings (few: a healthy log has none) are the only ones written to sorted runs and
//    merged (scan/joined-runs.ts), for their findings in the listed order (doctor keeps the first of a fault, and
//    ties of its ranking keep the order they came in);
//  - the exactly-once check takes each producer at its first transaction's place (ExactlyOnceTally's places); past
//    MAX_CHECKED_PRODUCERS producers which are checked depends on the order itself: then nothing is tallied here
//    (null), and the buckets, kept, are joined again by transactions' own ordered stream. Without commits made
//    outside transactions (commitsOutside) it has nothing to find and is not run;
//  - the outcomes are named in the order of their first transaction, and the first `keep` transactions (the report's)
//    are the `keep` smallest places, held in a sorted array;
//  - with no transaction to keep, no filter and no exactly-once check, a bucket the join would find nothing in
//    (Collected.quiet, analysis/transaction-join/quiet-buckets.ts) is not read back nor joined: its transactions,
//    one per coordinator episode there, are counted by the outcome their coordinator wrote.
// What `transactions` prints besides (the id families, the Flink and Kafka Streams attribution, the producers
// checked) has no finding, and doctor does not print it.
import type { Finding } from '../analysis/findings.js'
import type { Ordered } from '../analysis/transaction-join/bucket-join.js'
import { joinBucket } from '../analysis/transaction-join/bucket-join.js'
import { ExactlyOnceTally, MAX_CHECKED_PRODUCERS, commitsOutside } from '../analysis/transaction-join/exactly-once.js'
import type { JoinedTransaction } from '../analysis/transaction-join/types.js'
import { JoinedRuns } from './joined-runs.js'
import type { Collected } from './transactions-collect.js'
import type { JoinInput } from './transactions-stream.js'
import { insertAt } from '../bytes/sorted-search.js'

/** what doctor takes of the transactions */
export interface TransactionsTally {
  count: number
  /** how many ended each way, the outcomes in the order the listed order first meets them */
  outcomes: Record<string, number>
  /** the first `keep` transactions in the listed order */
  first: JoinedTransaction[]
  /** the transactions with findings, in the listed order (read once) */
  withFindings: Iterable<JoinedTransaction>
  /** the findings not of one transaction: the pass's, then the exactly-once check's */
  findings: Finding[]
}

/** a transaction's place in the listed order: when it began (none last), producer id, epoch, then as joined */
interface Place {
  key: bigint | null
  pid: bigint
  epoch: number
  seq: number
}

function before(a: Place, b: Place): boolean {
  return placedBefore(a.key, a.pid, a.epoch, a.seq, b)
}

/** before() of a place given by its parts: most transactions are compared and never placed */
function placedBefore(key: bigint | null, pid: bigint, epoch: number, seq: number, b: Place): boolean {
  if (key !== b.key) {
    if (key === null) return false
    if (b.key === null) return true
    return key < b.key
  }
  if (pid !== b.pid) return pid < b.pid
  if (epoch !== b.epoch) return epoch < b.epoch
  return seq < b.seq
}

/**
 * The collected buckets joined one at a time and tallied (the buckets kept: the caller closes the spill); null when
 * more producers than the exactly-once check takes make the listed order decide which it checks.
 */
export function tallyTransactions(
  c: Collected,
  inp: JoinInput,
  keep = 0,
  maxProducers = MAX_CHECKED_PRODUCERS,
): TransactionsTally | null {
  const { buckets, spill, files } = c
  const { filter } = inp
  const ctx = {
    scanned: c.scanned,
    damaged: c.damaged,
    groups: c.groups,
    states: c.states,
    nowMs: inp.nowMs,
    maxTransactionTimeoutMs: inp.maxTransactionTimeoutMinutes * 60_000,
    ...(filter !== undefined ? { filter } : {}),
    ...(inp.selects !== undefined ? { selects: inp.selects } : {}),
  }
  // both of the exactly-once check's findings compare transactions with commits made outside any: with none it
  // has nothing to find, and is not run (nor, past its producers, does it make the listed order decide)
  const eos = commitsOutside(c.plain.values()).length > 0 ? new ExactlyOnceTally<Place>(maxProducers, before) : null
  const firstOutcome = new Map<string, Place>()
  const counts = new Map<string, number>()
  const first: Array<{ p: Place; t: JoinedTransaction }> = []
  const runs = spill === null ? null : new JoinedRuns(spill, files)
  let whole: Ordered[] = []
  let seq = 0
  // with nothing to list and no exactly-once check, a bucket the join would find nothing in is counted, not joined
  const quiet = eos === null && keep === 0 && filter === undefined && inp.selects === undefined ? c.quiet : null
  const quietOutcomes = { committed: 0, aborted: 0 }
  buckets.flush()
  for (let b = 0; b < buckets.n; b++) {
    if (quiet !== null && quiet.quiet(b)) {
      quietOutcomes.committed += quiet.committed[b]!
      quietOutcomes.aborted += quiet.aborted[b]!
      continue
    }
    for (const input of buckets.take(b, true)) {
      const sorted = joinBucket(input, ctx)
      const found: Ordered[] = []
      for (const o of sorted) {
        const t = o.t
        const n = seq++
        // a place made only for what keeps one
        const place = (): Place => ({ key: o.key, pid: t.producerId, epoch: t.producerEpoch, seq: n })
        if (eos !== null) {
          eos.add(t, place())
          // (the partial runs left behind are past the ones transactions' stream writes: it reads only its own)
          if (!eos.complete) return null
        }
        counts.set(t.outcome, (counts.get(t.outcome) ?? 0) + 1)
        const f = firstOutcome.get(t.outcome)
        if (f === undefined || placedBefore(o.key, t.producerId, t.producerEpoch, n, f))
          firstOutcome.set(t.outcome, place())
        if (
          keep > 0 &&
          (first.length < keep || placedBefore(o.key, t.producerId, t.producerEpoch, n, first[first.length - 1]!.p))
        ) {
          insertPlaced(first, { p: place(), t })
          if (first.length > keep) first.pop()
        }
        if (t.findings.length > 0) found.push(o)
      }
      if (runs === null) whole = found
      else if (found.length > 0) runs.addShare(found)
    }
    runs?.endBucket()
  }
  const e = eos === null ? { findings: [] } : eos.finish(c.plain.values())
  const outcomes: Record<string, number> = {}
  for (const [o] of [...firstOutcome].sort((x, y) => (before(x[1], y[1]) ? -1 : 1))) outcomes[o] = counts.get(o)!
  // (the quiet buckets' outcomes after those of the joined ones: nothing listed them in order)
  for (const [o, n] of Object.entries(quietOutcomes)) if (n > 0) outcomes[o] = (outcomes[o] ?? 0) + n
  return {
    count: seq + quietOutcomes.committed + quietOutcomes.aborted,
    outcomes,
    first: first.map((x) => x.t),
    withFindings: runs === null ? whole.map((o) => o.t) : runs.merged(),
    findings: [...c.findings, ...e.findings],
  }
}

/** `x` placed in the sorted `l` */
function insertPlaced<T extends { p: Place }>(l: T[], x: T): void {
  insertAt(l, x, (y) => before(y.p, x.p))
}
