// The directory and size questions the commands ask beside reading files: which names a directory holds,
// how large a file is. Here so that every file-system access of tsdump goes through io/ (the commands and
// the scan never import node:fs); both answer "nothing" instead of throwing, because the read that follows
// (FileSource, discover) is the one that reports an unreadable path as a finding.
import * as fs from 'node:fs'
import { fsPath } from './raw-names.js'

/** The names in directory `dir` (display path), or none when it cannot be listed. */
export function namesIn(dir: string): string[] {
  try {
    return fs.readdirSync(fsPath(dir))
  } catch {
    return []
  }
}

/**
 * The size of the file at `file`, or undefined when it cannot be stat'ed. The display path as it is, not
 * fsPath's raw bytes: the callers size work for worker threads, which have no raw-name table and open files
 * by this path, so a name only fsPath resolves must stay on the main thread (undefined keeps it there).
 */
export function sizeOf(file: string): number | undefined {
  try {
    return fs.statSync(file).size
  } catch {
    return undefined
  }
}
