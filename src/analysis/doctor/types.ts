// `tsdump doctor`'s result: every finding of the analyses it ran, once, ranked by harm (rank.ts), with where,
// how much and what to do.
import type { Finding, Severity } from '../findings.js'
import type { JoinedTransaction } from '../transaction-join/types.js'
import type { HarmRank } from './rank.js'

/** A finding as the commands report it (a Finding), or as doctor words what a result says outside its findings. */
export interface FindingLike {
  code: string
  severity: Severity
  message: string
  file?: string
  position?: number
  partition?: string
  firstOffset?: bigint
  lastOffset?: bigint
}

export interface DoctorLocation {
  /** the broker whose log directory holds it (meta.properties node.id, else the directory's name); null when about several */
  broker: string | null
  /** `topic-partition` */
  partition: string | null
  file: string | null
  position: number | null
  firstOffset: bigint | null
  lastOffset: bigint | null
}

/** How much and since when, where the analysis knows. */
export interface DoctorFigures {
  /** records concerned (a transaction's, a copy's past its divergence point) */
  records?: number
  /** of those, below the copy's high watermark: acknowledged */
  recordsAcknowledged?: number
  /** records read_committed consumers wait for behind it */
  recordsWaiting?: number
  /** offsets concerned (lastOffset - firstOffset + 1) */
  offsets?: bigint
  /** minutes it has been open (find-hanging's duration) */
  minutes?: number
  /** epoch ms it began or was last written */
  since?: bigint
}

export interface DoctorRemedy {
  /** commands that fix it (kafka-transactions.sh abort ...), as the command that reports it prints them */
  fix: string[]
  /** the tsdump commands that look deeper */
  look: string[]
}

export interface DoctorFinding {
  code: string
  severity: Severity
  rank: HarmRank
  category: string
  message: string
  location: DoctorLocation
  figures: DoctorFigures
  remedy: DoctorRemedy
  /** the commands whose results hold it (reconcile, lso, transactions, cleanup, replicas, remote) */
  reportedBy: string[]
  /** the finding as the first of them reported it */
  finding: FindingLike
}

/**
 * One code's findings of one severity on one broker, when there are more than collect.ts' LISTED_UP_TO of them:
 * counted, the first few shown, and the command that lists them all.
 */
export interface DoctorGroup {
  code: string
  severity: Severity
  rank: HarmRank
  category: string
  /** the broker whose log directory holds them (null: the paths are one broker, or not brokers' log dirs) */
  broker: string | null
  /** how many findings (each once) */
  count: number
  /** how many partitions they are in */
  partitions: number
  /** the first of them in the documented order (collect.ts' GROUP_EXAMPLES) */
  examples: DoctorFinding[]
  /** `look`: the tsdump command that lists them all */
  remedy: DoctorRemedy
  reportedBy: string[]
}

export interface DoctorBroker {
  name: string | null
  path: string
}

export interface DoctorSummary {
  brokers: DoctorBroker[]
  partitions: number
  segments: number
  bytes: number
  /** the data's time window: the earliest first batch's timestamp, the newest batch timestamp (epoch ms) */
  firstTimestamp: bigint | null
  newestTimestamp: bigint | null
  nowMs: number
  nowGiven: boolean
  maxTransactionTimeoutMinutes: number
  /** the analyses run, in order */
  checked: string[]
  remoteStorage: string | null
  counts: Record<Severity, number>
  /** findings per rank, every rank listed */
  ranks: Array<{ rank: HarmRank; category: string; count: number }>
}

export interface DoctorResult {
  summary: DoctorSummary
  /** the findings listed one by one (every finding of a code with few of them), in the order of harm */
  findings: DoctorFinding[]
  /** the codes with many findings, one entry each, in the order of harm (placed at their first example) */
  groups: DoctorGroup[]
  /** paths given that could not be read at all (UNREADABLE ...); when every path is, nothing was analysed */
  unusable: Finding[]
}

/** what the transactions analysis gave doctor besides its findings, bounded: counts and the first ones */
export interface DoctorTransactions {
  count: number
  outcomes: Record<string, number>
  first: JoinedTransaction[]
}
