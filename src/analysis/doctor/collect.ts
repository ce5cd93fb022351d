// Doctor's one list: the findings of every analysis, each once. The same fault reported by several commands
// (reconcile and lso share the partition scan; cleanup repeats it) has the same code and place: a file and byte
// position, or else a broker's partition and offsets. The first report is kept, the others named in reportedBy.
import type { DoctorFigures, DoctorFinding, DoctorLocation, DoctorRemedy, FindingLike } from './types.js'
import { compareDoctorFindings, harmOf } from './rank.js'

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

/** The key two reports of one fault share. */
/** the hanging rule's findings (analysis/hanging.ts), which lso, transactions, cleanup and report each report */
const TRANSACTION_VERDICTS: ReadonlySet<string> = new Set([
  'TXN_HANGING',
  'TXN_COORDINATOR_OVERDUE',
  'TXN_COORDINATOR_UNKNOWN',
])

export function doctorKey(
  code: string,
  loc: Pick<DoctorLocation, 'broker' | 'partition' | 'file' | 'position' | 'firstOffset' | 'lastOffset'>,
  message: string,
): string {
  // a verdict on a transaction is about the transaction, wherever a command placed it (lso by its offsets,
  // transactions at its first batch): one per broker, partition and first offset
  if (TRANSACTION_VERDICTS.has(code) && loc.partition !== null && loc.firstOffset !== null)
    return `${code}\u0000${loc.broker ?? ''}\u0000${loc.partition}\u0000${loc.firstOffset}`
  if (loc.file !== null && loc.position !== null) return `${code}\u0000${loc.file}\u0000${loc.position}`
  // placed nowhere (a note about the paths as a whole): its words tell it apart
  if (loc.file === null && loc.partition === null) return `${code}\u0000\u0000${message}`
  return `${code}\u0000${loc.broker ?? ''}\u0000${loc.file ?? ''}\u0000${loc.partition ?? ''}\u0000${loc.firstOffset ?? ''}\u0000${loc.lastOffset ?? ''}`
}

export class DoctorCollector {
  private readonly byKey = new Map<string, DoctorFinding>()

  /**
   * @param brokerOf the broker of a file or partition directory path (null when the paths are not brokers' log dirs)
   * @param remedyOf the remedy the collector gives when the context has none of its own
   */
  constructor(
    private readonly brokerOf: (path: string) => string | null,
    private readonly remedyOf: (f: FindingLike, loc: DoctorLocation, command: string) => DoctorRemedy,
  ) {}

  add(f: FindingLike, ctx: FindingContext): void {
    const location: DoctorLocation = {
      broker: ctx.broker !== undefined ? ctx.broker : f.file !== undefined ? this.brokerOf(f.file) : null,
      partition: f.partition ?? ctx.partition ?? (f.file !== undefined ? partitionOfFile(f.file) : null),
      file: f.file ?? null,
      position: f.position ?? null,
      firstOffset: f.firstOffset ?? null,
      lastOffset: f.lastOffset ?? null,
    }
    const key = doctorKey(f.code, location, f.message)
    const seen = this.byKey.get(key)
    if (seen !== undefined) {
      if (!seen.reportedBy.includes(ctx.command)) seen.reportedBy.push(ctx.command)
      // a later report may know more of the same fault (figures, the fix lso prints)
      seen.figures = { ...ctx.figures, ...seen.figures }
      if (seen.remedy.fix.length === 0 && ctx.remedy?.fix !== undefined) seen.remedy.fix = ctx.remedy.fix
      return
    }
    const figures: DoctorFigures = { ...ctx.figures }
    const given = this.remedyOf(f, location, ctx.command)
    const remedy: DoctorRemedy = { fix: ctx.remedy?.fix ?? given.fix, look: ctx.remedy?.look ?? given.look }
    this.byKey.set(key, {
      code: f.code,
      severity: f.severity,
      ...harmOf(f.code),
      message: f.message,
      location,
      figures,
      remedy,
      reportedBy: [ctx.command],
      finding: f,
    })
  }

  /** the one TXN_HANGING of a partition's producer transaction from `firstOffset`, if one was added */
  has(code: string, broker: string | null, partition: string, firstOffset: bigint): boolean {
    for (const d of this.byKey.values()) {
      if (
        d.code === code &&
        d.location.broker === broker &&
        d.location.partition === partition &&
        d.location.firstOffset === firstOffset
      )
        return true
    }
    return false
  }

  /** every finding once, in the documented order */
  ranked(): DoctorFinding[] {
    // each finding's sort key made once, not twice per comparison (tens of thousands of findings: GC was most of doctor)
    const keyed = [...this.byKey.values()].map((d) => ({
      d,
      k: { ...d.location, rank: d.rank, severity: d.severity, code: d.code },
    }))
    return keyed.sort((a, b) => compareDoctorFindings(a.k, b.k)).map((x) => x.d)
  }
}
