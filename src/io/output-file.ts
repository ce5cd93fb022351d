// The one file tsdump writes: a command's output named with -o (e.g. `report -o report.html`).
// It refuses to overwrite any file that is being read, so the inputs stay untouched.
import * as fs from 'node:fs'
import * as path from 'node:path'

function realOrResolved(p: string): string {
  try {
    return fs.realpathSync(p)
  } catch {
    return path.resolve(p)
  }
}

/** true when `output` names the same file as one of `inputs` (after following symbolic links) */
export function isInputFile(output: string, inputs: readonly string[]): boolean {
  const out = realOrResolved(output)
  return inputs.some((i) => realOrResolved(i) === out)
}

/**
 * Write `pieces` to `file` (created or replaced) as they come, none held after its write; returns the bytes written.
 * @throws the fs error (ENOENT, EACCES ...)
 */
export function writeOutputPieces(file: string, pieces: Iterable<string>): number {
  const fd = fs.openSync(file, 'w')
  let bytes = 0
  try {
    for (const p of pieces) {
      const b = Buffer.from(p, 'utf8')
      // a write may take part of it (as writeFileSync, go on until all is written)
      for (let at = 0; at < b.length; ) at += fs.writeSync(fd, b, at)
      bytes += b.length
    }
  } finally {
    fs.closeSync(fd)
  }
  return bytes
}
