// The one stderr line format of a finding, shared by every command:
//   tsdump: <severity>: <file>: position <byte>: <message> [<CODE>]
import type { Finding } from '../analysis/findings.js'

//   (a partition-level finding: `tsdump: <severity>: <topic-partition>: offsets <first>..<last>: <message> [<CODE>]`)
export function formatFinding (f: Finding): string {
  const where = f.file !== undefined ? (f.position === undefined ? `${f.file}: ` : `${f.file}: position ${f.position}: `)
    : f.partition !== undefined ? `${f.partition}: ${f.firstOffset !== undefined ? `offsets ${f.firstOffset}..${f.lastOffset ?? f.firstOffset}: ` : ''}` : ''
  return `tsdump: ${f.severity}: ${where}${f.message} [${f.code}]`
}
