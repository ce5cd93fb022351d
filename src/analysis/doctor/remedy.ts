// The next tsdump command to look deeper at a finding: the one that reports it on the least input that shows it
// (a file for damage, a partition directory for a partition's finding, the paths for a join across them).
// The fixes themselves (kafka-transactions.sh abort ...) come from the command that prints them (lso, cleanup).
import type { DoctorLocation, DoctorRemedy, FindingLike } from './types.js'

export interface RemedyEnv {
  /** the paths doctor was given */
  paths: readonly string[]
  /** --remote-storage, if given */
  remote: string | null
  /** the directory of a broker's copy of a partition, when one was read */
  partitionDir: (broker: string | null, partition: string) => string | null
}

/** a path or value as a POSIX shell word */
export function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`
}

const words = (ps: readonly string[]): string => ps.map(shellWord).join(' ')

const INDEX_FILE = /\.(index|timeindex)$/
const SEGMENT_FILE = /\.(log|checkpoint)$/

/** the tsdump command that shows a file's own finding */
function fileLook(file: string): string {
  if (INDEX_FILE.test(file)) return `tsdump dump --verify-index-only ${shellWord(file)}`
  if (SEGMENT_FILE.test(file)) return `tsdump dump --deep-iteration ${shellWord(file)}`
  return `tsdump dump ${shellWord(file)}`
}

/** The tsdump command to look deeper; `fix` stays empty here (the context gives lso's and cleanup's commands). */
export function remedyFor(f: FindingLike, loc: DoctorLocation, command: string, env: RemedyEnv): DoctorRemedy {
  const all = words(env.paths)
  const remote = env.remote === null ? '' : `--remote-storage ${shellWord(env.remote)} `
  const dir = loc.partition === null ? null : env.partitionDir(loc.broker, loc.partition)
  const on = dir ?? all
  const look = (s: string): DoctorRemedy => ({ fix: [], look: [s] })
  const c = f.code
  if (c.startsWith('REPLICA_')) return look(`tsdump replicas ${all}`)
  if (c === 'REMOTE_NOT_READ')
    return look(`tsdump reconcile --remote-storage <DIR> ${shellWord(dir ?? env.paths[0] ?? '.')}`)
  if (c.startsWith('REMOTE_'))
    return look(env.remote === null ? `tsdump remote --remote-storage <DIR> ${all}` : `tsdump remote ${remote}${all}`)
  if (
    c.startsWith('EOS_') ||
    c.startsWith('TXN_') ||
    c === 'PARTITION_COPIES_DIFFER' ||
    c === 'PARTITION_COPY_CHOSEN'
  ) {
    if (c === 'TXN_HANGING' || c === 'TXN_COORDINATOR_OVERDUE' || c === 'TXN_COORDINATOR_UNKNOWN')
      return look(`tsdump lso ${remote}${on}`)
    return look(`tsdump transactions ${remote}${all}`)
  }
  if (c === 'CLEANUP_POLICY_UNKNOWN') return look(`tsdump cleanup --config cleanup.policy=<delete|compact> ${on}`)
  if (c.startsWith('CLEANER_') || command === 'cleanup') return look(`tsdump cleanup ${on}`)
  if (loc.file !== null && loc.position !== null) return look(fileLook(loc.file))
  return look(`tsdump ${command === 'lso' ? 'lso' : 'reconcile'} ${remote}${on}`)
}
