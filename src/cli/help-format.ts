// Help fits the terminal: its width where the help goes to a terminal, 80 columns otherwise (a pipe, a file,
// a test). Commander wraps option descriptions to a width it is given, but not when the longest option leaves
// the description under 40 columns (a 41-column --remote-storage term did, at 80), and never the text added
// after the options (examples, notes): options longer than TERM_CAP get a line of their own, and every line
// written is wrapped at the same width (an example's command broken with a shell continuation, its comment
// moved under it).
import type { Command, Help } from 'commander'

/** widest option column kept beside its description when the width is short */
const TERM_CAP = 28

/** commander's item, with a capped term column so that descriptions always wrap */
function formatItem(term: string, termWidth: number, description: string, helper: Help): string {
  if (description === '') return `  ${term}`
  const width = helper.helpWidth ?? 80
  const tw = width - termWidth - 4 >= 40 ? termWidth : Math.min(termWidth, TERM_CAP)
  const pad = `\n${' '.repeat(tw + 4)}`
  const text = helper.boxWrap(description, Math.max(width - tw - 4, 20)).replace(/\n/g, pad)
  return term.length <= tw ? `  ${term.padEnd(tw)}  ${text}` : `  ${term}${pad}${text}`
}

/** a shell command's words: a quoted string with spaces is one word (a line cannot be broken inside it) */
const shellWords = (command: string): string[] => command.match(/(?:'[^']*'|"[^"]*"|[^\s'"])+/g) ?? []

/** words of `text` into lines of at most `width`, the first after `first`, the others after `rest` */
function fill(text: string | string[], width: number, first: string, rest: string, join = ''): string[] {
  const out: string[] = []
  let line = first
  let empty = true
  for (const word of (typeof text === 'string' ? text.split(' ') : text).filter((w) => w !== '')) {
    if (!empty && line.length + 1 + word.length + join.length > width) {
      out.push(line + join)
      line = rest
      empty = true
    }
    line += (empty ? '' : ' ') + word
    empty = false
  }
  out.push(line)
  return out
}

/** one line of help at most `width` columns (a word longer than the width stays whole) */
export function wrapHelpLine(line: string, width: number): string {
  if (line.length <= width) return line
  const indent = /^ */.exec(line)![0]
  const example = /^( *\$ )(.*?)(?: {2,}(# .*))?$/.exec(line)
  if (example !== null) {
    // a command stays runnable when pasted: broken with ` \`; its comment on lines of its own
    const [, prompt, command, comment] = example as unknown as [string, string, string, string | undefined]
    const lines = fill(shellWords(command), width, prompt, `${indent}    `, ' \\')
    const last = lines.length - 1
    lines[last] = lines[last]!.replace(/ \\$/, '')
    if (comment !== undefined) lines.push(...fill(comment.slice(2), width, `${indent}    # `, `${indent}    # `))
    return lines.join('\n')
  }
  // a term and its description (two spaces or more between them, in the first half): continuation lines
  // start under the description
  const item = ITEM.exec(line)
  if (item !== null && item[1]!.length <= width / 2)
    return fill(item[2]!, width, item[1]!, ' '.repeat(item[1]!.length)).join('\n')
  return fill(line.slice(indent.length), width, indent, indent).join('\n')
}

/** a term and its description: two spaces or more between them */
const ITEM = /^( *\S+(?: \S+)*? {2,})(\S.*)$/
const isProse = (line: string): boolean => line.trim() !== '' && !/^ *\$ /.test(line) && ITEM.exec(line) === null

/**
 * every line of `text` at most `width` columns. A paragraph of prose (lines of words, no example, no
 * term-and-description) with a line too long is filled again as a whole, so that it does not come out ragged.
 */
export function wrapHelpText(text: string, width: number): string {
  const lines = text.split('\n')
  const out: string[] = []
  let i = 0
  while (i < lines.length) {
    const line = lines[i]!
    const item = ITEM.exec(line)
    let j = i + 1
    if (item !== null && item[1]!.length <= width / 2) {
      // a term and its description, continued on lines indented to the description
      const col = item[1]!.length
      while (j < lines.length && /^ */.exec(lines[j]!)![0].length === col && lines[j]!.trim() !== '') j++
      const group = lines.slice(i, j)
      if (group.some((l) => l.length > width))
        out.push(
          ...fill(group.map((l, k) => (k === 0 ? item[2]! : l.trim())).join(' '), width, item[1]!, ' '.repeat(col)),
        )
      else out.push(...group)
    } else if (isProse(line)) {
      while (j < lines.length && isProse(lines[j]!) && ITEM.exec(lines[j]!) === null) j++
      const para = lines.slice(i, j)
      const indent = /^ */.exec(line)![0]
      if (para.some((l) => l.length > width))
        out.push(...fill(para.map((l) => l.trim()).join(' '), width, indent, indent))
      else out.push(...para)
    } else {
      out.push(wrapHelpLine(line, width))
    }
    i = j
  }
  return out.join('\n')
}

/**
 * Help and usage text of `cmd` at `width()` columns for stdout and `errWidth()` for stderr (asked when help is
 * written, not at start-up: a terminal's width needs its stream).
 */
export function fitHelp(
  cmd: Command,
  out: {
    stdout: (s: string) => void
    stderr: (s: string) => void
    outputError: (s: string, write: (s: string) => void) => void
  },
  width: () => number,
  errWidth: () => number,
): Command {
  return cmd.configureHelp({ formatItem, minWidthToWrap: 20 }).configureOutput({
    writeOut: (s) => out.stdout(wrapHelpText(s, width())),
    writeErr: (s) => out.stderr(wrapHelpText(s, errWidth())),
    // an error is one line, as every finding is (scripts match it): not wrapped
    outputError: (s) => out.outputError(s, out.stderr),
    getOutHelpWidth: width,
    getErrHelpWidth: errWidth,
  })
}
