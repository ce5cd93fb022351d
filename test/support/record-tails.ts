// The key/payload part of kafka-dump-log's data record lines, and tsdump's formatter output in the
// same shape, so tests can compare the two line for line.
import type { FormattedRecord } from '../../src/format/topics/formatted-record.js'

/** after `headerKeys: [...] `, or after the `|` / space that --skip-record-metadata leaves */
export function expectedTails(text: string): string[] {
  return text
    .split('\n')
    .filter((l) => / (key|payload): /.test(l) && !l.startsWith('baseOffset'))
    .map((l) => l.replace(/^\| offset: .*? headerKeys: \[[^\]]*\] /, '').replace(/^\|? ?/, ''))
}

export function formattedTail(f: FormattedRecord): string {
  const key = f.error ?? f.key
  return [key === undefined ? undefined : `key: ${key}`, f.payload === undefined ? undefined : `payload: ${f.payload}`]
    .filter((x) => x !== undefined)
    .join(' ')
}
