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
  // one buffer for every piece, grown to the largest: a buffer made per piece (90 MB of a page in 20,000 sections)
  // is memory outside V8's heap that only its collections give back
  let buf = Buffer.allocUnsafe(256 * 1024)
  try {
    for (const p of pieces) {
      // a UTF-16 unit is at most 3 bytes of UTF-8
      if (p.length * 3 > buf.length) buf = Buffer.allocUnsafe(p.length * 3)
      const n = buf.write(p, 0, 'utf8')
      // a write may take part of it (as writeFileSync, go on until all is written)
      for (let at = 0; at < n; ) at += fs.writeSync(fd, buf, at, n - at)
      bytes += n
    }
  } finally {
    fs.closeSync(fd)
  }
  return bytes
}
