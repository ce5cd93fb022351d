// Several brokers' log directories hold copies of one partition (replicas). `transactions` reads each
// partition once: from the copy with the newest leader epoch (leader-epoch-checkpoint), then the highest log
// end offset, the copy a leader election would keep (Kafka's replica truncation to the leader's epoch, KIP-101),
// and says which copy it used. Copies whose ended transactions disagree below both log ends are a finding.
import { finding } from '../analysis/findings.js'
import type { Finding } from '../analysis/findings.js'
import type { PartitionRun } from '../analysis/transaction-join/types.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import { newestLeaderEpoch } from '../io/checkpoints.js'
import type { PartitionDir } from '../io/discover.js'
import { scanTransactionRuns } from './transaction-runs.js'

export interface ChosenCopy {
  dir: PartitionDir
  label: string
  runs: PartitionRun[]
  findings: Finding[]
}

const ended = (rs: readonly PartitionRun[], below: bigint): string[] =>
  rs
    .filter((r) => r.marker !== null && r.marker.offset < below)
    .map((r) => `${r.producerId}/${r.firstOffset}/${r.marker!.offset}/${r.marker!.type}/${r.records}`)
    .sort()

/**
 * every partition's runs, each partition read from one copy, a partition at a time. With `onRun`, a partition in
 * one log directory hands its runs out as they end (its ChosenCopy's runs are then empty); copies in several are
 * compared, so their runs are held until the partition's end and then handed out.
 */
export function* scanNewestCopies(
  partitions: readonly PartitionDir[],
  checkpoints: Map<string, OffsetCheckpoint | null>,
  resync = true,
  onRun?: (r: PartitionRun) => void,
): Generator<ChosenCopy> {
  const byLabel = new Map<string, PartitionDir[]>()
  for (const d of partitions) {
    const k = d.topic === null ? d.path : `${d.topic}-${d.partition}`
    let g = byLabel.get(k)
    if (g === undefined) {
      g = []
      byLabel.set(k, g)
    }
    g.push(d)
  }
  for (const [label, dirs] of byLabel) {
    if (onRun !== undefined && dirs.length === 1) {
      const s = scanTransactionRuns(dirs[0]!, checkpoints, resync, onRun)
      yield { dir: dirs[0]!, label: s.label, runs: [], findings: [...s.findings] }
      continue
    }
    const scans = dirs.map((dir) => ({
      dir,
      epoch: newestLeaderEpoch(dir.path),
      ...scanTransactionRuns(dir, checkpoints, resync),
    }))
    scans.sort(
      (a, b) => b.epoch - a.epoch || (a.logEndOffset < b.logEndOffset ? 1 : a.logEndOffset > b.logEndOffset ? -1 : 0),
    )
    const best = scans[0]!
    const findings = [...best.findings]
    if (scans.length > 1) {
      const others = scans.slice(1)
      // about the partition: its offsets in the copy read
      findings.push({
        ...finding(
          'PARTITION_COPY_CHOSEN',
          `${label} is in ${scans.length} log directories: read from ${best.dir.path} (leader epoch ${best.epoch}, log end ${best.logEndOffset}); ` +
            `not from ${others.map((o) => `${o.dir.path} (leader epoch ${o.epoch}, log end ${o.logEndOffset})`).join(', ')}`,
          {
            firstOffset: best.logStartOffset,
            lastOffset: best.logEndOffset > best.logStartOffset ? best.logEndOffset - 1n : best.logStartOffset,
          },
        ),
        partition: label,
      })
      for (const o of others) {
        const below = o.logEndOffset < best.logEndOffset ? o.logEndOffset : best.logEndOffset
        const a = ended(best.runs, below)
        const b = ended(o.runs, below)
        if (a.length !== b.length || a.some((x, i) => x !== b[i])) {
          const d = b.find((x) => !a.includes(x)) ?? a.find((x) => !b.includes(x))!
          // at the run that differs, in the copy that has it, with the offsets of that transaction (its first offset to its marker)
          const [pid, first, marker] = d.split('/')
          // in the copy not used (the one whose run differs), else in the one used
          const same = (r: PartitionRun): boolean => String(r.producerId) === pid && String(r.firstOffset) === first
          const run = o.runs.find(same) ?? best.runs.find(same)
          const f = finding(
            'PARTITION_COPIES_DIFFER',
            `${label}: the copies in ${best.dir.path} and ${o.dir.path} end different transactions below offset ${below} ` +
              `(first difference: producer/first offset/marker/outcome/records ${d}); the first is used`,
            {
              ...(run !== undefined
                ? { file: run.file, position: run.position }
                : { file: o.dir.files.find((f) => f.kind === 'log')?.path ?? o.dir.path, position: 0 }),
              firstOffset: BigInt(first!),
              lastOffset: BigInt(marker!),
            },
          )
          f.partition = label
          findings.push(f)
        }
      }
    }
    if (onRun !== undefined) for (const r of best.runs) onRun(r)
    yield { dir: best.dir, label: best.label, runs: onRun === undefined ? best.runs : [], findings }
  }
}
