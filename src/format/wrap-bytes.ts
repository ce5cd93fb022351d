// wrap.ts' word wrap written straight into a Writer's buffer: the lines wrapWords gives, each after its indent and
// ending in a newline, with no string made per line (transactions prints a few wrapped lines per transaction, and
// their slices, no-break spaces replaced, joined and encoded were a fifth of its garbage at 100,000 transactions).
// Only ASCII text (with no-break spaces) is written here; anything else is wrapped as text by the caller.
import { putAscii } from './ascii.js'
import { fitsOneLine } from './wrap.js'
import type { Writer } from './writer.js'

const NO_BREAK = 0xa0
const SPACE = 32
const NEWLINE = 10
/** a character other than ASCII and the no-break space */
const NOT_PLAIN = /[^\u0000-\u007f\u00a0]/

/** the text as Latin-1 bytes (one per character, no-break spaces 0xa0), reused from one text to the next */
let scratch = Buffer.allocUnsafe(1024)

/** bytes [from, to) of `src` at pos of `buf`, no-break spaces as spaces */
function put(buf: Buffer, pos: number, src: Buffer, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    const c = src[i]!
    buf[pos++] = c === NO_BREAK ? SPACE : c
  }
  return pos
}

/**
 * wrapWords(text, indent, width) written to `w`, its first line after `first` in place of `indent` (the indent
 * still counted in its width, as hanging text is): true, or false with nothing written when the text is not
 * plain ASCII or has spaces at its ends or two together (wrap.ts takes its words apart then). `first` and `indent`
 * are ASCII.
 */
export function writeWrapped(w: Writer, text: string, first: string, indent: string, width: number): boolean {
  if (NOT_PLAIN.test(text)) return false
  const n = text.length
  const one = fitsOneLine(text, indent.length, width)
  if (!one && n > 0) {
    if (text.charCodeAt(0) === SPACE || text.charCodeAt(n - 1) === SPACE || text.includes('  ')) return false
  }
  if (scratch.length < n) scratch = Buffer.allocUnsafe(2 * n)
  const src = scratch as Buffer & Latin1Writable
  // one native write of the whole text (a character a byte: checked above), then the lines cut from its bytes
  src.latin1Write(text, 0, n)
  // at most a line per word, each with the longer indent and a newline
  let pos = w.reserve(n + (n / 2 + 2) * (Math.max(first.length, indent.length) + 1))
  const buf = w.buffer
  if (one) {
    pos = put(buf, putAscii(buf, pos, first), src, 0, n)
    buf[pos++] = NEWLINE
    w.commit(pos)
    return true
  }
  // wrapWords' loop: a line is a slice of the text, ended before the word that would pass the width
  let from = 0
  let to = -1
  let lines = 0
  for (let i = 0; i < n; ) {
    let j = src.indexOf(SPACE, i)
    if (j < 0 || j > n) j = n
    if (to >= 0 && indent.length + (to - from) + 1 + (j - i) > width) {
      pos = put(buf, putAscii(buf, pos, lines++ === 0 ? first : indent), src, from, to)
      buf[pos++] = NEWLINE
      from = i
    } else if (to < 0) from = i
    to = j
    i = j + 1
  }
  if (to >= 0) {
    pos = put(buf, putAscii(buf, pos, lines === 0 ? first : indent), src, from, to)
    buf[pos++] = NEWLINE
  }
  w.commit(pos)
  return true
}

/** Buffer's own Latin-1 write, without Buffer#write's argument normalisation (as cli/fd-writer.ts uses utf8Write) */
interface Latin1Writable {
  latin1Write(s: string, offset: number, length: number): number
}
