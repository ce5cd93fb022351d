// Producer snapshots in the partition analysis: the one older than the first batch seeds the
// transactions already open when the log starts (segments before it were deleted); every later one is
// compared, when the scan passes its offset, with the transactions the log has open there.
import type { Finding } from './findings.js'
import { finding } from './findings.js'
import type { I64 } from '../bytes/int64.js'
import { i64, toBigInt } from '../bytes/int64.js'
import { pickSeedSnapshot } from './transactions.js'
import type { SnapshotInput, SnapshotProducer } from './partition-input.js'

interface SnapshotCheck {
  s: SnapshotInput
  findings: Finding[] | null
}

export interface Seed {
  snapshot: SnapshotInput | null
  /** producers with a transaction open before the first offset, by its first offset */
  open: SnapshotProducer[]
  finding: Finding | null
}

/** The snapshot that seeds the analysis of a log whose first batch is at `firstOffset`. */
export function seedFromSnapshots(snapshots: readonly SnapshotInput[], firstOffset: I64): Seed {
  const seed = pickSeedSnapshot(snapshots, toBigInt(firstOffset))
  if (seed === null) return { snapshot: null, open: [], finding: null }
  const open = seed.open.filter((p) => p.currentTxnFirstOffset !== null && p.currentTxnFirstOffset < firstOffset)
  open.sort((a, b) => (a.currentTxnFirstOffset! < b.currentTxnFirstOffset! ? -1 : 1))
  const f =
    seed.offset < firstOffset && open.length > 0
      ? finding(
          'SNAPSHOT_BEFORE_FIRST_BATCH',
          `producer snapshot at ${seed.offset} predates the first batch (${firstOffset}): a transaction it lists as open may have ended in between`,
          { file: seed.file },
        )
      : null
  return { snapshot: seed, open, finding: f }
}

/** The later snapshots, checked in offset order as the scan passes them. */
export class SnapshotChecks {
  private readonly all: SnapshotCheck[]
  private queue: SnapshotCheck[] = []
  private qi = 0

  constructor(snapshots: readonly SnapshotInput[]) {
    this.all = snapshots.map((s) => ({ s, findings: null }))
  }

  /** the scan starts at `firstOffset`: snapshots after it will be checked */
  start(firstOffset: I64): void {
    this.queue = this.all
      .filter((c) => c.s.offset > firstOffset)
      .sort((a, b) => (a.s.offset < b.s.offset ? -1 : a.s.offset > b.s.offset ? 1 : 0))
  }

  /** the scan reached `offset` with `open` (producer -> first offset of its open transaction) */
  passTo(offset: I64, open: () => ReadonlyMap<I64, I64>): void {
    while (this.qi < this.queue.length && this.queue[this.qi]!.s.offset <= offset)
      this.check(this.queue[this.qi++]!, open())
  }

  /** A producer snapshot at offset n lists the transactions open at n: compare with ours (those open now). */
  private check(c: SnapshotCheck, ours: ReadonlyMap<I64, I64>): void {
    const s = c.s
    const out: Finding[] = []
    const theirs = new Map(
      s.open
        .filter((p) => p.currentTxnFirstOffset !== null)
        .map((p) => [i64(p.producerId), i64(p.currentTxnFirstOffset!)]),
    )
    const at = { file: s.file }
    for (const [pid, first] of theirs) {
      const mine = ours.get(pid)
      if (mine !== first) {
        out.push(
          finding(
            'SNAPSHOT_TXN_MISMATCH',
            `producer snapshot at ${s.offset} says producer ${pid} has a transaction open since ${first}; the log says ${mine === undefined ? 'none is open' : `it is open since ${mine}`}`,
            at,
          ),
        )
      }
    }
    for (const [pid, first] of ours) {
      if (!theirs.has(pid)) {
        out.push(
          finding(
            'SNAPSHOT_TXN_MISMATCH',
            `the log has producer ${pid}'s transaction open since ${first} at offset ${s.offset}, the producer snapshot there lists none (marker removed by compaction?)`,
            at,
          ),
        )
      }
    }
    c.findings = out
  }

  /** findings of the snapshots checked, in the order the snapshots were given */
  findings(): Finding[] {
    return this.all.flatMap((c) => c.findings ?? [])
  }
}
