// Where doctor's findings are: which of the given paths are brokers' log directories and what each is called, and
// the directories of the partitions whose findings doctor lists, found once the run is over.
import * as path from 'node:path'
import type { DoctorBroker } from '../../analysis/doctor/types.js'
import { brokerName, openBrokerLogDir } from '../../io/broker-dir.js'
import type { PartitionDir } from '../../io/discover.js'

/**
 * The given paths that are brokers' log directories, each with the name it goes by (as `tsdump replicas` names them),
 * and whether two of them hold the same partition (replicas compares them then): their partitions are not kept
 */
export function brokersOf(paths: readonly string[]): {
  brokers: Array<DoctorBroker & { logDir: boolean }>
  shared: boolean
} {
  const opened = paths.map((p) => ({ p, o: openBrokerLogDir(p) }))
  const plain = opened.map(({ p, o }) =>
    o.dir === null ? null : paths.length === 1 ? o.dir.nodeId : brokerName(o.dir),
  )
  // a partition directory's name in two log dirs
  const inOne = new Map<string, number>()
  let shared = false
  opened.forEach(({ o }, i) => {
    for (const d of o.dir?.partitions ?? []) {
      const l = path.basename(path.resolve(d.path))
      const at = inOne.get(l)
      if (at === undefined) inOne.set(l, i)
      else if (at !== i) shared = true
    }
  })
  const brokers = opened.map(({ p, o }, i) => {
    const n = plain[i] ?? null
    const name = n !== null && plain.filter((x) => x === n).length > 1 ? `${n}#${i + 1}` : n
    return { name, path: p, logDir: o.dir !== null }
  })
  return { brokers, shared }
}

/** the directories of the partitions `labels`, each in the order the scan handed them on (the model's) */
export function lookDirs(listed: readonly PartitionDir[], labels: ReadonlySet<string>): Map<string, string[]> {
  const out = new Map<string, string[]>()
  if (labels.size === 0) return out
  for (const d of listed) {
    const label = d.topic !== null ? `${d.topic}-${d.partition}` : d.path
    if (labels.has(label)) out.set(label, [...(out.get(label) ?? []), d.path])
  }
  return out
}
