// Several brokers' log directories hold copies of one partition (replicas). `transactions` uses one of them: the
// copy with the newest leader epoch (leader-epoch-checkpoint), then the highest log end offset, the copy a leader
// election would keep (Kafka's replica truncation to the leader's epoch, KIP-101), and says which copy it used.
// Copies whose ended transactions disagree below both log ends are a finding.
import { finding } from '../analysis/findings.js'
import type { Finding } from '../analysis/findings.js'
import type { PartitionRun } from '../analysis/transaction-join/types.js'
import { newestLeaderEpoch } from '../io/checkpoints.js'
import type { PartitionDir } from '../io/discover.js'

/** one copy as its scan left it: its runs (ended and open) and its findings */
export interface ScannedCopy {
  dir: PartitionDir
  runs: readonly PartitionRun[]
  findings: readonly Finding[]
  logStartOffset: bigint
  logEndOffset: bigint
}

const ended = (rs: readonly PartitionRun[], below: bigint): string[] =>
  rs
    .filter((r) => r.marker !== null && r.marker.offset < below)
    .map((r) => `${r.producerId}/${r.firstOffset}/${r.marker!.offset}/${r.marker!.type}/${r.records}`)
    .sort()

/** the copy used of partition `label` and its findings (the copy's own, which copy was chosen, how the others differ) */
export function chooseCopy<C extends ScannedCopy>(
  label: string,
  copies: readonly C[],
): { best: C; findings: Finding[] } {
  const scans = copies.map((c) => ({ c, epoch: newestLeaderEpoch(c.dir.path) }))
  scans.sort(
    (a, b) =>
      b.epoch - a.epoch || (a.c.logEndOffset < b.c.logEndOffset ? 1 : a.c.logEndOffset > b.c.logEndOffset ? -1 : 0),
  )
  const best = scans[0]!
  const findings = [...best.c.findings]
  if (scans.length === 1) return { best: best.c, findings }
  const others = scans.slice(1)
  // about the partition: its offsets in the copy read
  findings.push({
    ...finding(
      'PARTITION_COPY_CHOSEN',
      `${label} is in ${scans.length} log directories: read from ${best.c.dir.path} (leader epoch ${best.epoch}, log end ${best.c.logEndOffset}); ` +
        `not from ${others.map((o) => `${o.c.dir.path} (leader epoch ${o.epoch}, log end ${o.c.logEndOffset})`).join(', ')}`,
      {
        firstOffset: best.c.logStartOffset,
        lastOffset: best.c.logEndOffset > best.c.logStartOffset ? best.c.logEndOffset - 1n : best.c.logStartOffset,
      },
    ),
    partition: label,
  })
  for (const { c: o } of others) {
    const below = o.logEndOffset < best.c.logEndOffset ? o.logEndOffset : best.c.logEndOffset
    const a = ended(best.c.runs, below)
    const b = ended(o.runs, below)
    if (a.length !== b.length || a.some((x, i) => x !== b[i])) {
      const d = b.find((x) => !a.includes(x)) ?? a.find((x) => !b.includes(x))!
      // at the run that differs, in the copy that has it, with the offsets of that transaction (its first offset to its marker)
      const [pid, first, marker] = d.split('/')
      // in the copy not used (the one whose run differs), else in the one used
      const same = (r: PartitionRun): boolean => String(r.producerId) === pid && String(r.firstOffset) === first
      const run = o.runs.find(same) ?? best.c.runs.find(same)
      const f = finding(
        'PARTITION_COPIES_DIFFER',
        `${label}: the copies in ${best.c.dir.path} and ${o.dir.path} end different transactions below offset ${below} ` +
          `(first difference: producer/first offset/marker/outcome/records ${d}); the first is used`,
        {
          ...(run !== undefined
            ? { file: run.file, position: run.position }
            : { file: o.dir.files.find((x) => x.kind === 'log')?.path ?? o.dir.path, position: 0 }),
          firstOffset: BigInt(first!),
          lastOffset: BigInt(marker!),
        },
      )
      f.partition = label
      findings.push(f)
    }
  }
  return { best: best.c, findings }
}
