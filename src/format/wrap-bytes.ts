// wrap.ts' word wrap written straight into a Writer's buffer: the lines wrapWords gives, each after its indent and
// ending in a newline, with no string made per line (transactions prints a few wrapped lines per transaction, and
// their slices, no-break spaces replaced, joined and encoded were a fifth of its garbage at 100,000 transactions).
// Only ASCII text (with no-break spaces) is written here; anything else is wrapped as text by the caller.
import { fitsOneLine } from './wrap.js'
import type { Writer } from './writer.js'

const NO_BREAK = 0xa0
const SPACE = 32
const NEWLINE = 10

/** whether every character is ASCII or a no-break space (one byte each here) */
function plain(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0x80 && c !== NO_BREAK) return false
  }
  return true
}

/** text[from, to) at pos, no-break spaces as spaces */
function put(buf: Buffer, pos: number, text: string, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i)
    buf[pos++] = c === NO_BREAK ? SPACE : c
  }
  return pos
}

/**
 * wrapWords(text, indent, width) written to `w`, its first line after `first` in place of `indent` (the indent
 * still counted in its width, as hanging text is): true, or false with nothing written when the text is not
 * plain ASCII or has spaces at its ends or two together (wrap.ts takes its words apart then)
 */
export function writeWrapped(w: Writer, text: string, first: string, indent: string, width: number): boolean {
  if (!plain(text) || !plain(first) || !plain(indent)) return false
  const one = fitsOneLine(text, indent.length, width)
  if (!one && text.length > 0) {
    if (text.charCodeAt(0) === SPACE || text.charCodeAt(text.length - 1) === SPACE || text.includes('  ')) return false
  }
  // at most a line per word, each with the longer indent and a newline
  const most = text.length + (text.length / 2 + 2) * (Math.max(first.length, indent.length) + 1)
  let pos = w.reserve(most)
  const buf = w.buffer
  if (one) {
    pos = put(buf, pos, first, 0, first.length)
    pos = put(buf, pos, text, 0, text.length)
    buf[pos++] = NEWLINE
    w.commit(pos)
    return true
  }
  // wrapWords' loop: a line is a slice of the text, ended before the word that would pass the width
  let from = 0
  let to = -1
  let lines = 0
  const line = (a: number, b: number): void => {
    const p = lines++ === 0 ? first : indent
    pos = put(buf, pos, p, 0, p.length)
    pos = put(buf, pos, text, a, b)
    buf[pos++] = NEWLINE
  }
  for (let i = 0; i < text.length; ) {
    let j = text.indexOf(' ', i)
    if (j < 0) j = text.length
    if (to >= 0 && indent.length + (to - from) + 1 + (j - i) > width) {
      line(from, to)
      from = i
    } else if (to < 0) from = i
    to = j
    i = j + 1
  }
  if (to >= 0) line(from, to)
  w.commit(pos)
  return true
}
