// A broker log directory (one log.dirs entry) as `tsdump replicas` takes it: who the broker is
// (meta.properties node.id, else the directory's name) and its partition directories. Anything else given
// in its place (a partition directory, a file, a directory with neither meta.properties nor partitions) is
// refused with a sentence saying what it is.
import * as fs from 'node:fs'
import * as path from 'node:path'
import type { PartitionDir } from './discover.js'
import { describeFsError, discover } from './discover.js'
import { describeFileType } from './input-error.js'
import type { FileProblem } from './partition-files.js'
import { parseProperties, readOptionalFile } from './partition-files.js'
import { classify, parsePartitionDirName } from './segment-names.js'

export interface BrokerLogDir {
  path: string
  /** node.id (KRaft) or broker.id (ZooKeeper) from meta.properties; null without one */
  nodeId: string | null
  /** meta.properties present but unreadable */
  metaProblem: FileProblem | null
  /** partition directories (`<topic>-<partition>`) holding .log files */
  partitions: PartitionDir[]
  /** what under it could not be read (a partition directory without read permission): the path and why */
  problems: FileProblem[]
}

export type OpenedLogDir = { dir: BrokerLogDir; error: null } | { dir: null; error: string }

export function openBrokerLogDir(p: string): OpenedLogDir {
  let st: fs.Stats
  try {
    st = fs.statSync(p)
  } catch (e) {
    return { dir: null, error: describeFsError(e) }
  }
  if (!st.isDirectory())
    return {
      dir: null,
      error: `${st.isFile() ? 'a file' : describeFileType(st)}, not a broker log directory (a log.dirs entry: the directory holding meta.properties and the <topic>-<partition> directories)`,
    }
  let names: string[]
  try {
    names = fs.readdirSync(p)
  } catch (e) {
    return { dir: null, error: describeFsError(e) }
  }
  if (
    names.some((n) => {
      const c = classify(n)
      return !('skip' in c) && c.kind === 'log'
    })
  ) {
    return {
      dir: null,
      error:
        'it holds .log files itself, as a partition directory does: not a broker log directory (give the directory above it, one per broker)',
    }
  }
  // only the broker's id is kept of the file
  const meta = readOptionalFile(
    p,
    'meta.properties',
    (src) => parseProperties(src, (k) => k === 'node.id' || k === 'broker.id').properties,
  )
  const props = meta.value
  const nodeId = props?.get('node.id') ?? props?.get('broker.id') ?? null
  // a directory is a partition's only when it holds segments: a name like `broker-1` alone proves nothing
  const found = names.some((n) => parsePartitionDirName(n) !== null) ? discover([p]) : null
  const partitions =
    found === null ? [] : found.partitions.filter((x) => x.topic !== null && x.files.some((f) => f.kind === 'log'))
  const problems = (found?.problems ?? []).map((x) => ({ file: x.path, position: 0, message: x.message }))
  if (meta.value === null && meta.problem === null && partitions.length === 0) {
    return {
      dir: null,
      error:
        'not a broker log directory: no meta.properties and no <topic>-<partition> directories with .log segments in it',
    }
  }
  return { dir: { path: p, nodeId, metaProblem: meta.problem, partitions, problems }, error: null }
}

/** The name a broker goes by in the output: its node id, else its directory's name. */
export function brokerName(d: BrokerLogDir): string {
  return d.nodeId ?? path.basename(path.resolve(d.path))
}
