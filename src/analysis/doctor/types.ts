// `tsdump doctor`'s result: every finding of the analyses it ran, once, ranked by harm (rank.ts), with where,
// how much and what to do.
import type { Finding, Severity } from '../findings.js'
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
  findings: DoctorFinding[]
  /** paths given that could not be read at all (UNREADABLE ...); when every path is, nothing was analysed */
  unusable: Finding[]
}
