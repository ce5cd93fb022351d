// Prose lines of the text output kept within the 80 columns the tables keep (format/table.ts).
import { TABLE_WIDTH } from './table.js'

/**
 * `text` cut between words into lines of at most `width` characters, each starting with `indent`; a word longer
 * than a line (a transactional id, a timestamp) is never cut, it gets a line of its own. A no-break space (U+00A0)
 * holds two words together ("in 6.8 min") and is written as a space.
 */
export function wrapWords(text: string, indent: string, width = TABLE_WIDTH): string[] {
  // a text that fits on its line as it is (most of them): one line, no words taken apart
  if (fitsOneLine(text, indent.length, width)) return [indent + spaced(text)]
  const irregular = irregularSpaces(text)
  if (irregular) return wrapSplit(text, indent, width)
  // one space between words: each line is a slice of the text (no word made a string of its own)
  const lines: string[] = []
  let from = 0
  let to = -1
  for (let i = 0; i < text.length; ) {
    let j = text.indexOf(' ', i)
    if (j < 0) j = text.length
    if (to >= 0 && indent.length + (to - from) + 1 + (j - i) > width) {
      lines.push(indent + spaced(text.slice(from, to)))
      from = i
    } else if (to < 0) from = i
    to = j
    i = j + 1
  }
  if (to >= 0) lines.push(indent + spaced(text.slice(from, to)))
  return lines
}

/**
 * whether wrapWords(text, indent, width) is the one line indent + spaced(text): a text that fits after an indent of
 * `indent` characters, with single spaces between its words and none at its ends
 */
export function fitsOneLine(text: string, indent: number, width: number): boolean {
  return indent + text.length <= width && text !== '' && !irregularSpaces(text)
}

/** spaces at its ends or two together (what /^ | $| {2}/ finds, without a regular expression's run per line) */
function irregularSpaces(text: string): boolean {
  return text.charCodeAt(0) === 32 || text.charCodeAt(text.length - 1) === 32 || text.includes('  ')
}

/** a no-break space written as a space */
export const spaced = (s: string): string => (s.includes('\u00a0') ? s.replaceAll('\u00a0', ' ') : s)

/** wrapWords of a text with spaces at its ends or several between words: its words taken apart */
function wrapSplit(text: string, indent: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ').filter((w) => w !== '')) {
    if (line !== '' && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line)
      line = word
    } else {
      line = line === '' ? word : `${line} ${word}`
    }
  }
  if (line !== '') lines.push(indent + line)
  return lines.map(spaced)
}

/**
 * A shell command within `width` columns: cut between arguments (an option stays with its value), each line but the
 * last ending in ` \` (a shell continuation) and the next indented two more, so that the lines pasted into a shell
 * are still the one command. With `--wide` (width Infinity) it stays on one line.
 */
export function commandLines(cmd: string, indent: string, width = TABLE_WIDTH): string[] {
  const held = cmd.replace(/ (--[a-z][a-z-]*) (?!-)/g, ' $1\u00a0')
  const w = wrapWords(held, `${indent}  `, width - 2).map((l, i) => (i === 0 ? `${indent}${l.trimStart()}` : l))
  return w.map((l, i) => (i < w.length - 1 ? `${l} \\` : l))
}
