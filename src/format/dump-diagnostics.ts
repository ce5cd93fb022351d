// The stderr blocks of a dump's end: what kafka-dump-log prints after all files (DumpLogSegments.main),
// and tsdump's own list of offset gaps.
import type { TextVariant } from './kafka-versions.js'
import type { DumpDiagnostics } from './printer.js'
import type { Writer } from './writer.js'

export function writeKafkaDiagnostics(
  e: Writer,
  s: DumpDiagnostics,
  v: Pick<TextVariant, 'timeIndexNotFoundNamesFile'>,
): void {
  for (const [f, l] of s.indexMismatches) {
    e.write(`Mismatches in :${f}\n`)
    for (const [a, b] of l) e.write(`  Index offset: ${a}, log offset: ${b}\n`)
  }
  for (const [f, l] of s.timeMismatches) {
    e.write(`Found timestamp mismatch in :${f}\n`)
    for (const [a, b] of l) e.write(`  Index timestamp: ${a}, log timestamp: ${b}\n`)
  }
  for (const [f, l] of s.timeOutOfOrder) {
    e.write(`Found out of order timestamp in :${f}\n`)
    for (const [a, b] of l) e.write(`  Index timestamp: ${a}, Previously indexed timestamp: ${b}\n`)
  }
  for (const [f, l] of s.timeNotFound) {
    e.write(
      v.timeIndexNotFoundNamesFile
        ? `The following indexed offsets are not found in :${f}\n`
        : 'The following indexed offsets are not found in the log.\n',
    )
    for (const [a, b] of l) e.write(`Indexed offset: ${a}, found log offset: ${b}\n`)
  }
  writeNonConsecutive(e, s)
}

export function writeNonConsecutive(e: Writer, s: DumpDiagnostics): void {
  for (const [f, l] of s.nonConsecutive) {
    e.write(`Non-consecutive offsets in ${f}\n`)
    for (const [a, b] of l) e.write(`  ${a} is followed by ${b}\n`)
    if (l.dropped > 0) e.write(`  ... and ${l.dropped} earlier pairs, not listed (the newest ${l.kept} are)\n`)
  }
}
