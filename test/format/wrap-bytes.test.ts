// format/wrap-bytes.ts writeWrapped against the rule written out plainly (as test/format/wrap-words.test.ts states
// it): the text's words (split at spaces) put greedily on lines of at most `width` characters after the indent, a
// word longer than a line alone on its own, no-break spaces written as spaces; the first line after `first` in
// place of the indent, still counted in the width. A text it does not write (not ASCII, spaces at its ends or two
// together) it says so and leaves the output as it was.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { writeWrapped } from '../../src/format/wrap-bytes.js'
import { StringWriter } from '../../src/format/writer.js'

function plainly(text: string, first: string, indent: string, width: number): string {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ').filter((w) => w !== '')) {
    if (line !== '' && indent.length + line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line === '' ? word : `${line} ${word}`
  }
  if (line !== '') lines.push(line)
  return lines.map((l, i) => `${i === 0 ? first : indent}${l.replaceAll('\u00a0', ' ')}\n`).join('')
}

const word = fc.stringMatching(/^[a-z0-9:,()>.\u00a0-]{1,14}$/)
const regular = fc.array(word, { minLength: 1, maxLength: 30 }).map((ws) => ws.join(' '))

describe('writeWrapped', () => {
  it('writes the lines of the plain rule for ASCII text with single spaces', () => {
    fc.assert(
      fc.property(
        regular,
        fc.constantFrom('  ', '  ! ', ''),
        fc.constantFrom('    ', '  '),
        fc.integer({ min: 4, max: 120 }),
        (text, first, indent, width) => {
          const w = new StringWriter()
          expect(writeWrapped(w, text, first, indent, width)).toBe(true)
          expect(w.text).toBe(plainly(text, first, indent, width))
        },
      ),
      { numRuns: 3000 },
    )
  })

  it('leaves text that is not plain ASCII, or irregularly spaced and too long for a line, to the caller', () => {
    for (const [text, width] of [
      ['caf\u00e9 au lait', 80],
      ['a \u2192 b', 80],
      [' leading space and more words', 10],
      ['two  spaces and more words', 10],
      ['trailing space and more words ', 10],
    ] as const) {
      const w = new StringWriter()
      expect(writeWrapped(w, text, '  ', '    ', width)).toBe(false)
      expect(w.text).toBe('')
    }
  })

  it('writes an empty text as no line', () => {
    const w = new StringWriter()
    expect(writeWrapped(w, '', '  ', '    ', 80)).toBe(true)
    expect(w.text).toBe('')
  })
})
