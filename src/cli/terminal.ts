// Whether a file descriptor is a terminal. node:tty loads net and the stream modules (3-6 ms of every
// start-up, bench/RESULTS-startup.md), and so does reading process.stdout.isTTY, which builds the stream:
// output into a pipe or a file is told apart by fstat, and only a character device (a terminal, /dev/null)
// is asked of node:tty.
import * as fs from 'node:fs'
import { createRequire } from 'node:module'
import type * as Tty from 'node:tty'

/** what tty.isatty(fd) answers; false for a closed descriptor, as isatty */
export function isTerminal(fd: number): boolean {
  try {
    if (!fs.fstatSync(fd).isCharacterDevice()) return false
  } catch {
    return false
  }
  return (createRequire(import.meta.url)('node:tty') as typeof Tty).isatty(fd)
}
