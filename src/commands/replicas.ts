// `tsdump replicas`: the copies of each partition found in two or more broker log directories, compared as
// replication compares them (analysis/replicas/), with what each copy holds past the point it diverges.
import * as path from 'node:path'
import type { Finding } from '../analysis/findings.js'
import { EXIT_USAGE, finding } from '../analysis/findings.js'
import type { PartitionComparison } from '../analysis/replicas/compare.js'
import { printReplicasJson } from '../format/replicas-json.js'
import { printReplicasText } from '../format/replicas-text.js'
import type { BrokerLogDir } from '../io/broker-dir.js'
import { brokerName, openBrokerLogDir } from '../io/broker-dir.js'
import type { PartitionDir } from '../io/discover.js'
import { comparePartitionDirNames } from '../io/segment-names.js'
import { LogDirCheckpoints } from '../scan/replica-copy.js'
import type { ReplicasInternals } from '../scan/replica-lockstep.js'
import { compareCopies } from '../scan/replica-lockstep.js'
import type { CommandContext } from './context.js'
import { partitionExitCode, writeUnusable } from './partition-command.js'

/** replicas()'s options (the library) */
export interface ReplicasOptions {
  /** records listed (offset and key) per copy past its divergence point */
  listRecords?: number
}

/** `tsdump replicas`'s: the library's and the command line's */
export interface ReplicasCommandOptions extends ReplicasOptions {
  paths: string[]
  format?: 'text' | 'json'
  color?: boolean
  /** no line cut or broker name shortened at 80 columns */
  wide?: boolean
}

export interface ReplicasResult {
  unusable: Finding[]
  logDirs: Array<{ path: string; broker: string }>
  /** each partition's comparison, with its own findings */
  partitions: PartitionComparison[]
  /** what under the log directories could not be read (UNREADABLE): said, and the rest compared */
  findings: Finding[]
}

const DEFAULT_LISTED = 1000

/** Names for the brokers: the node id, or the directory's name; `<id>#<n>` (its place on the command line) when two directories have the same. */
function names(dirs: BrokerLogDir[]): string[] {
  const plain = dirs.map(brokerName)
  return plain.map((n, i) => (plain.filter((x) => x === n).length > 1 ? `${n}#${i + 1}` : n))
}

/**
 * The copies of each partition under two or more brokers' log directories `paths`, compared as replication compares
 * them: each copy read once, the copies of a partition side by side (scan/replica-lockstep.ts).
 */
export function replicas(
  paths: string[],
  opts: ReplicasOptions = {},
  internals: ReplicasInternals = {},
): ReplicasResult {
  const unusable: Finding[] = []
  if (paths.length < 2)
    unusable.push(
      finding('UNREADABLE', 'tsdump replicas compares two or more broker log directories (one per broker)', {
        file: paths[0] ?? '.',
      }),
    )
  const dirs: BrokerLogDir[] = []
  for (const p of paths) {
    const o = openBrokerLogDir(p)
    if (o.error !== null) unusable.push(finding('UNREADABLE', o.error, { file: p }))
    else dirs.push(o.dir)
  }
  if (unusable.length > 0) return { unusable, logDirs: [], partitions: [], findings: [] }
  const brokers = names(dirs)
  const groups = new Map<string, Array<{ broker: string; logDir: string; dir: PartitionDir }>>()
  dirs.forEach((d, i) => {
    for (const part of d.partitions) {
      // `-delete` and `-future` directories are not the partition's current copy
      const label = `${part.topic}-${part.partition}`
      if (path.basename(path.resolve(part.path)) !== label) continue
      const g = groups.get(label) ?? []
      g.push({ broker: brokers[i]!, logDir: d.path, dir: part })
      groups.set(label, g)
    }
  })
  const cps = new LogDirCheckpoints()
  const listed = opts.listRecords ?? DEFAULT_LISTED
  const partitions = [...groups.keys()]
    .sort(comparePartitionDirNames)
    .map((label) => compareCopies(groups.get(label)!, cps, listed, internals))
  const unreadable = dirs.flatMap((d) =>
    d.problems.map((x) => finding('UNREADABLE', x.message, { file: x.file, position: x.position })),
  )
  return {
    unusable,
    logDirs: dirs.map((d, i) => ({ path: d.path, broker: brokers[i]! })),
    partitions,
    findings: unreadable,
  }
}

export async function runReplicas(opts: ReplicasCommandOptions, ctx: CommandContext): Promise<number> {
  const r = replicas(opts.paths, opts.listRecords !== undefined ? { listRecords: opts.listRecords } : {})
  writeUnusable(r.unusable, ctx)
  if (r.unusable.length > 0) return EXIT_USAGE
  const print = opts.format === 'json' ? printReplicasJson : printReplicasText
  print(r, ctx, { colorLevel: opts.color === false ? 0 : ctx.colorLevel, wide: opts.wide === true })
  // something was read: a file among them that could not be is a finding, exit 1 at most (2 is for nothing read)
  writeUnusable(r.findings, ctx)
  return partitionExitCode([], [...r.partitions.flatMap((p) => p.findings), ...r.findings])
}
