// The 80-column rule measured as a user sees it: the paths the user typed are theirs, of any length (a
// checkout in a long home directory), so each line is measured without them (a path longer than a line gets a
// line of its own, format/wrap.ts); what tsdump adds must fit.
import * as path from 'node:path'

/** the lines of `text` longer than `width` once every typed path (as typed and resolved) is taken out */
export function linesOver(text: string, typed: readonly string[], width = 80): string[] {
  const paths = [...new Set(typed.flatMap((p) => [p, path.resolve(p)]))].sort((a, b) => b.length - a.length)
  return text.split('\n').filter((line) => paths.reduce((l, p) => l.replaceAll(p, ''), line).length > width)
}

/** `text` as a shell reads it: a line ending in ` \` continues on the next (format/wrap.ts commandLines) */
export function shellJoined(text: string): string {
  return text.replace(/ \\\n\s*/g, ' ')
}
