// The one stderr line format of a finding, shared by every command:
//   tsdump: <severity>: <file>: position <byte>: <message> [<CODE>]
import type { Finding } from '../analysis/findings.js'

export function formatFinding (f: Finding): string {
  const where = f.file === undefined ? '' : f.position === undefined ? `${f.file}: ` : `${f.file}: position ${f.position}: `
  return `tsdump: ${f.severity}: ${where}${f.message} [${f.code}]`
}
