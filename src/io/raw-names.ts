// File names are bytes. Kafka names are ASCII, but a directory may hold names that are not valid UTF-8
// (or that contain control characters); decoding them to a JS string loses bytes, and opening the
// decoded string then fails with "no such file". discover() keeps the original bytes here, keyed by the
// escaped name it shows (`\xff` per undecodable byte), and every open in io/ goes through fsPath().
import * as path from 'node:path'

const RAW = new Map<string, Buffer>()
const fatal = new TextDecoder('utf-8', { fatal: true })

// C0 controls and DEL would break line-based output (a newline in a name forges a line)
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/

function hex(b: number): string {
  return `\\x${b.toString(16).padStart(2, '0')}`
}

/** The printable form of a raw name: valid UTF-8 as is, every other byte (and controls) as `\xNN`. */
export function escapeName(raw: Buffer): string {
  let s: string | undefined
  try {
    s = fatal.decode(raw)
  } catch {
    s = undefined
  }
  if (s !== undefined && !CONTROL.test(s)) return s
  let out = ''
  for (let i = 0; i < raw.length; ) {
    const b = raw[i]!
    const len = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0
    let ch: string | undefined
    if (len > 0 && i + len <= raw.length) {
      try {
        ch = fatal.decode(raw.subarray(i, i + len))
      } catch {
        ch = undefined
      }
    }
    if (ch === undefined || CONTROL.test(ch)) {
      out += hex(b)
      i++
    } else {
      out += ch
      i += len
    }
  }
  return out
}

/**
 * The display path of `name` inside `dir` (itself a display path), remembering the raw bytes when the
 * name does not survive decoding.
 */
export function joinName(dir: string, name: Buffer): string {
  const shown = escapeName(name)
  const display = path.join(dir, shown)
  const rawDir = fsPath(dir)
  if (shown !== name.toString('utf8') || typeof rawDir !== 'string') {
    const d = typeof rawDir === 'string' ? Buffer.from(rawDir, 'utf8') : rawDir
    RAW.set(display, Buffer.concat([d, Buffer.from(path.sep), name]))
  }
  return display
}

/** What to hand to node:fs for a display path: the remembered bytes, else the string itself. */
export function fsPath(display: string): string | Buffer {
  const exact = RAW.get(display)
  if (exact !== undefined) return exact
  if (RAW.size === 0) return display
  // a file derived from a remembered directory (a companion .log of an index, a .txnindex beside it)
  const dir = path.dirname(display)
  if (dir === display) return display
  const rawDir = fsPath(dir)
  if (typeof rawDir === 'string') return display
  return Buffer.concat([rawDir, Buffer.from(path.sep + path.basename(display), 'utf8')])
}
