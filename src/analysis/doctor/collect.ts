// Doctor's one list: the findings of every analysis, each once. The same fault reported by several commands
// (reconcile and lso share the partition scan; cleanup repeats it) has the same code and place: a file and byte
// position, or else a broker's partition and offsets. The first report is kept, the others named in reportedBy.
//
// Bounded at any count: the findings of one code, severity and broker (a group) are counted, and only the first
// LISTED_UP_TO of them in the documented order are kept (a sorted list, each new one placed or dropped as it
// comes); what was seen is remembered as a 64-bit hash (key-set.ts). A group of at most LISTED_UP_TO findings is
// listed one by one, as every fixture's are; a larger one is one entry with its count, its first GROUP_EXAMPLES
// and the command that lists them all (50,000 coordinator mismatches are one line, not 50,000 objects sorted).
// Nothing is kept per partition either: a group's partitions are counted as 64-bit hashes, and the command that
// looks deeper at a kept finding is made once the run is over, for the findings still kept then.
import type { Severity } from '../findings.js'
import { KeySet } from './key-set.js'
import type { RankedPlace } from './rank.js'
import { compareDoctorFindings, HARM_CATEGORIES, harmOf } from './rank.js'
import type { HarmRank } from './rank.js'
import type { DoctorFigures, DoctorFinding, DoctorGroup, DoctorLocation, DoctorRemedy, FindingLike } from './types.js'
import { insertAt } from '../../bytes/sorted-search.js'

/** a group of at most this many findings is listed one by one */
export const LISTED_UP_TO = 20
/** a larger group shows its first this many, in the documented order */
export const GROUP_EXAMPLES = 5

/** What the result around a finding tells of it that the finding itself does not. */
export interface FindingContext {
  command: string
  /** the broker whose copy it is about, when the result knows */
  broker?: string | null
  /** the partition the result lists it under */
  partition?: string | null
  figures?: DoctorFigures
  remedy?: Partial<DoctorRemedy>
}

/** the partition directory name a file is in (`…/orders-11-0/00000000000000000000.log` → orders-11-0) */
export function partitionOfFile(file: string): string | null {
  const parts = file.split(/[\\/]/)
  const dir = parts[parts.length - 2]
  return dir !== undefined && /^.+-\d+$/.test(dir) ? dir : null
}

/** the hanging rule's findings (analysis/hanging.ts), which lso, transactions, cleanup and report each report */
const TRANSACTION_VERDICTS: ReadonlySet<string> = new Set([
  'TXN_HANGING',
  'TXN_COORDINATOR_OVERDUE',
  'TXN_COORDINATOR_UNKNOWN',
])

type KeyPlace = Pick<DoctorLocation, 'broker' | 'partition' | 'file' | 'position' | 'firstOffset' | 'lastOffset'>

/** The key two reports of one fault share. */
export function doctorKey(code: string, loc: KeyPlace, message: string): string {
  // a verdict on a transaction is about the transaction, wherever a command placed it (lso by its offsets,
  // transactions at its first batch): one per broker, partition and first offset
  if (TRANSACTION_VERDICTS.has(code) && loc.partition !== null && loc.firstOffset !== null)
    return `${code}\u0000${loc.broker ?? ''}\u0000${loc.partition}\u0000${loc.firstOffset}`
  if (loc.file !== null && loc.position !== null) return `${code}\u0000${loc.file}\u0000${loc.position}`
  // placed nowhere (a note about the paths as a whole): its words tell it apart
  if (loc.file === null && loc.partition === null) return `${code}\u0000\u0000${message}`
  return `${code}\u0000${loc.broker ?? ''}\u0000${loc.file ?? ''}\u0000${loc.partition ?? ''}\u0000${loc.firstOffset ?? ''}\u0000${loc.lastOffset ?? ''}`
}

/** what the order reads of a finding */
export function placeOf(d: Pick<DoctorFinding, 'location' | 'rank' | 'severity' | 'code'>): RankedPlace {
  return { ...d.location, rank: d.rank, severity: d.severity, code: d.code }
}

interface Kept {
  d: DoctorFinding
  k: RankedPlace
  key: string
  /** the command that reported it first, whose look it gets when its context gave none (made at the end: lookOf) */
  by: string
  /** its context gave its look */
  looked: boolean
}

/** one code's findings of one severity on one broker: counted, the first LISTED_UP_TO kept in order */
interface Bucket {
  code: string
  severity: Severity
  broker: string | null
  rank: HarmRank
  count: number
  kept: Kept[]
  /** the partitions its findings are in, as hashes */
  partitions: KeySet
  reportedBy: string[]
}

/** What the collector hands over: the findings listed one by one and the groups, each in the documented order. */
export interface Collected {
  findings: DoctorFinding[]
  groups: DoctorGroup[]
  counts: Record<Severity, number>
  ranks: Array<{ rank: HarmRank; category: string; count: number }>
}

export class DoctorCollector {
  private readonly seen = new KeySet()
  private readonly buckets = new Map<string, Bucket>()

  /**
   * @param brokerOf the broker of a file or partition directory path (null when the paths are not brokers' log dirs)
   * @param lookOf the commands that look deeper, when the context has none of its own (asked by collected(), for
   * the findings kept then)
   */
  constructor(
    private readonly brokerOf: (path: string) => string | null,
    private readonly lookOf: (f: FindingLike, loc: DoctorLocation, command: string) => string[],
  ) {}

  /**
   * `f` reported again by `ctx.command`, if its fault was seen already: then what add() would do with it is done
   * now (the command named among those that report it: the same whenever it is told), and true is returned; false
   * when it is new, and not added. A report the caller would otherwise keep until add()'s turn comes.
   */
  addSeen(f: FindingLike, ctx: FindingContext): boolean {
    const location = this.locationOf(f, ctx)
    if (!this.seen.has(doctorKey(f.code, location, f.message))) return false
    this.add(f, ctx)
    return true
  }

  add(f: FindingLike, ctx: FindingContext): void {
    const location = this.locationOf(f, ctx)
    const key = doctorKey(f.code, location, f.message)
    const b = this.bucketOf(f.code, f.severity, location.broker)
    addReporter(b.reportedBy, ctx.command)
    if (!this.seen.add(key)) {
      const seen = b.kept.find((x) => x.key === key)?.d
      if (seen === undefined) return
      addReporter(seen.reportedBy, ctx.command)
      // a later report may know more of the same fault (figures, the fix lso prints)
      seen.figures = { ...ctx.figures, ...seen.figures }
      if (seen.remedy.fix.length === 0 && ctx.remedy?.fix !== undefined) seen.remedy.fix = ctx.remedy.fix
      return
    }
    b.count++
    if (location.partition !== null) b.partitions.add(location.partition)
    const k: RankedPlace = { ...location, rank: b.rank, severity: f.severity, code: f.code }
    const last = b.kept[b.kept.length - 1]
    // past the kept ones: counted only (nothing built, nothing held)
    if (b.kept.length >= LISTED_UP_TO && last !== undefined && compareDoctorFindings(k, last.k) >= 0) return
    const look = ctx.remedy?.look
    const d: DoctorFinding = {
      code: f.code,
      severity: f.severity,
      ...harmOf(f.code),
      message: f.message,
      location,
      figures: { ...ctx.figures },
      remedy: { fix: ctx.remedy?.fix ?? [], look: look ?? [] },
      reportedBy: [ctx.command],
      finding: f,
    }
    insertSorted(b.kept, { d, k, key, by: ctx.command, looked: look !== undefined })
    if (b.kept.length > LISTED_UP_TO) b.kept.pop()
  }

  private locationOf(f: FindingLike, ctx: FindingContext): DoctorLocation {
    return {
      broker: ctx.broker !== undefined ? ctx.broker : f.file !== undefined ? this.brokerOf(f.file) : null,
      partition: f.partition ?? ctx.partition ?? (f.file !== undefined ? partitionOfFile(f.file) : null),
      file: f.file ?? null,
      position: f.position ?? null,
      firstOffset: f.firstOffset ?? null,
      lastOffset: f.lastOffset ?? null,
    }
  }

  /** the partitions of the kept findings whose look is still to be made (collected() asks lookOf for them) */
  partitionsToLook(): Set<string> {
    const out = new Set<string>()
    for (const b of this.buckets.values())
      for (const x of b.kept) if (!x.looked && x.d.location.partition !== null) out.add(x.d.location.partition)
    return out
  }

  /** every finding once, in the documented order: the small groups one by one, the large ones as groups */
  collected(): Collected {
    const listed: Kept[] = []
    const large: Bucket[] = []
    const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 }
    const perRank = new Map<HarmRank, number>()
    for (const b of this.buckets.values())
      for (const x of b.kept) {
        if (x.looked) continue
        x.d.remedy.look = this.lookOf(x.d.finding, x.d.location, x.by)
        x.looked = true
      }
    for (const b of this.buckets.values()) {
      counts[b.severity] += b.count
      perRank.set(b.rank, (perRank.get(b.rank) ?? 0) + b.count)
      if (b.count === 0) continue
      if (b.count <= LISTED_UP_TO) listed.push(...b.kept)
      else large.push(b)
    }
    listed.sort((a, b) => compareDoctorFindings(a.k, b.k))
    large.sort((a, b) => compareDoctorFindings(a.kept[0]!.k, b.kept[0]!.k))
    const ranks = ([1, 2, 3, 4, 5] as HarmRank[]).map((rank) => ({
      rank,
      category: HARM_CATEGORIES[rank],
      count: perRank.get(rank) ?? 0,
    }))
    return { findings: listed.map((x) => x.d), groups: large.map((b) => this.group(b)), counts, ranks }
  }

  private group(b: Bucket): DoctorGroup {
    const first = b.kept[0]!.d
    // the command that lists them all: the one that looks deeper, over every path rather than one place
    const everywhere: DoctorLocation = {
      broker: b.broker,
      partition: null,
      file: null,
      position: null,
      firstOffset: null,
      lastOffset: null,
    }
    const look = this.lookOf(first.finding, everywhere, first.reportedBy[0]!)
    return {
      code: b.code,
      severity: b.severity,
      rank: b.rank,
      category: HARM_CATEGORIES[b.rank],
      broker: b.broker,
      count: b.count,
      partitions: b.partitions.size,
      examples: b.kept.slice(0, GROUP_EXAMPLES).map((x) => x.d),
      remedy: { fix: [], look },
      reportedBy: b.reportedBy,
    }
  }

  private bucketOf(code: string, severity: Severity, broker: string | null): Bucket {
    const id = `${code}\u0000${severity}\u0000${broker ?? ''}`
    let b = this.buckets.get(id)
    if (b === undefined) {
      const partitions = new KeySet()
      b = { code, severity, broker, rank: harmOf(code).rank, count: 0, kept: [], partitions, reportedBy: [] }
      this.buckets.set(id, b)
    }
    return b
  }
}

/**
 * The commands in the order doctor runs them: who reported a fault is listed in this order, whichever told it first
 * (doctor gives a partition's reconcile, lso and cleanup findings as its scan ends, and the transactions' after all)
 */
const COMMAND_ORDER = ['reconcile', 'lso', 'transactions', 'cleanup', 'replicas', 'remote']

/** `command` placed among `list` in COMMAND_ORDER, once */
function addReporter(list: string[], command: string): void {
  if (list.includes(command)) return
  const rank = (x: string): number => {
    const i = COMMAND_ORDER.indexOf(x)
    return i < 0 ? COMMAND_ORDER.length : i
  }
  const at = list.findIndex((x) => rank(x) > rank(command))
  if (at < 0) list.push(command)
  else list.splice(at, 0, command)
}

/** `x` placed in the sorted `kept` (binary search: the first place whose finding comes after it) */
function insertSorted(kept: Kept[], x: Kept): void {
  insertAt(kept, x, (y) => compareDoctorFindings(y.k, x.k) <= 0)
}

/** a finding listed on its own, or a group, in the one order */
export type DoctorEntry = { kind: 'finding'; finding: DoctorFinding } | { kind: 'group'; group: DoctorGroup }

/**
 * The findings listed one by one and the groups merged into the documented order, a group at its first example:
 * what doctor's text and the report's page list, in this order.
 */
export function rankedEntries(r: {
  findings: readonly DoctorFinding[]
  groups: readonly DoctorGroup[]
}): DoctorEntry[] {
  const out: DoctorEntry[] = []
  let i = 0
  let j = 0
  while (i < r.findings.length || j < r.groups.length) {
    const f = r.findings[i]
    const g = r.groups[j]
    if (f !== undefined && (g === undefined || compareDoctorFindings(placeOf(f), placeOf(g.examples[0]!)) <= 0)) {
      out.push({ kind: 'finding', finding: f })
      i++
    } else {
      out.push({ kind: 'group', group: g! })
      j++
    }
  }
  return out
}
