// The oracle of the filter tests: kafka-dump-log's own text of a fixture partition (stored beside it by the
// fixture generator), parsed into batches and records in log order. The expected output of a filtered dump is
// picked from these lines by the rule the README states, never from tsdump's output.
import * as fs from 'node:fs'
import * as path from 'node:path'

export interface OracleRecord {
  line: string
  offset: bigint
  timestamp: bigint
}
export interface OracleBatch {
  line: string
  baseOffset: bigint
  lastOffset: bigint
  producerId: bigint
  /** the batch line's CreateTime: the batch's maxTimestamp */
  maxTimestamp: bigint
  records: OracleRecord[]
}

/** every `<segment>.log.<mode>.txt` of `dumpDir` (mode deep: batch and record lines), segments in offset order */
export function oracleBatches(dumpDir: string, mode: 'deep' | 'shallow' = 'deep'): OracleBatch[] {
  const files = fs
    .readdirSync(dumpDir)
    .filter((n) => n.endsWith(`.log.${mode}.txt`))
    .sort()
  const out: OracleBatch[] = []
  for (const f of files) {
    for (const line of fs.readFileSync(path.join(dumpDir, f), 'utf8').split('\n')) {
      const b = /^baseOffset: (\d+) lastOffset: (\d+) .* producerId: (-?\d+) .* CreateTime: (-?\d+) /.exec(line)
      if (b !== null) {
        out.push({
          line,
          baseOffset: BigInt(b[1]!),
          lastOffset: BigInt(b[2]!),
          producerId: BigInt(b[3]!),
          maxTimestamp: BigInt(b[4]!),
          records: [],
        })
        continue
      }
      const r = /^\| offset: (\d+) CreateTime: (-?\d+) /.exec(line)
      if (r !== null) out[out.length - 1]!.records.push({ line, offset: BigInt(r[1]!), timestamp: BigInt(r[2]!) })
    }
  }
  return out
}

/** batch and record lines of a dump's stdout (what the oracle's lines are compared with) */
export function entryLines(stdout: string): string[] {
  return stdout.split('\n').filter((l) => l.startsWith('baseOffset: ') || l.startsWith('| offset: '))
}
