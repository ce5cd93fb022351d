// wrapWords (format/wrap.ts) against the rule written out plainly: the text's words (split at spaces, empty ones
// dropped) put greedily on lines of at most `width` characters after the indent, a word longer than a line alone
// on its own, no-break spaces written as spaces.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { wrapWords } from '../../src/format/wrap.js'

function plainly(text: string, indent: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ').filter((w) => w !== '')) {
    if (line !== '' && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line)
      line = word
    } else line = line === '' ? word : `${line} ${word}`
  }
  if (line !== '') lines.push(indent + line)
  return lines.map((l) => l.replaceAll('\u00a0', ' '))
}

describe('wrapWords', () => {
  it('puts the words on lines greedily, whatever the spaces between them', () => {
    const word = fc.stringMatching(/^[a-z\u00a0.,]{0,14}$/)
    fc.assert(
      fc.property(
        fc.array(fc.tuple(word, fc.constantFrom(' ', ' ', ' ', '  ', '')), { maxLength: 30 }),
        fc.constantFrom('', '  ', '    '),
        fc.integer({ min: 4, max: 90 }),
        (parts, indent, width) => {
          const text = parts.map(([w, s]) => w + s).join('')
          expect(wrapWords(text, indent, width)).toEqual(plainly(text, indent, width))
        },
      ),
    )
  })

  it('keeps a word longer than the line whole', () => {
    expect(wrapWords('a verylongtransactionalid b', '  ', 10)).toEqual(['  a', '  verylongtransactionalid', '  b'])
    expect(wrapWords('in\u00a06.8\u00a0min of it', '', 8)).toEqual(['in 6.8 min', 'of it'])
  })
})
