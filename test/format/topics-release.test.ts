// Internal-topic formatters against each Kafka release's own kafka-dump-log, on the real broker files:
// 3.9.1's outputs are committed beside the fixtures; 4.0.2-4.4.0's are made by
// `KAFKA_VERSION=<v> scripts/kafka/install.sh && KAFKA_VERSION=<v> scripts/kafka/dump-decoders.sh`
// into .cache/dump-<v>/ (skipped with the reason when absent). Every key/payload must be identical.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readLog } from '../../src/decode/log-reader.js'
import { decodeRecords } from '../../src/decode/records.js'
import type { KafkaRelease } from '../../src/decode/protocol/types.js'
import { formatClusterMetadataRecord } from '../../src/format/topics/cluster-metadata-text.js'
import { formatOffsetsRecord } from '../../src/format/topics/consumer-offsets-text.js'
import type { FormattedRecord } from '../../src/format/topics/formatted-record.js'
import { formatTransactionLogRecord } from '../../src/format/topics/transaction-state-text.js'
import { BufferSource } from '../../src/io/buffer-source.js'
import { expectedTails, formattedTail } from '../support/record-tails.js'

const ROOT = path.resolve(__dirname, '../..')
const FIXTURES = path.join(ROOT, 'fixtures', 'broker')
const RELEASES: Array<[KafkaRelease, string]> = [
  ['3.9', FIXTURES],
  ['4.0', '.cache/dump-4.0.2'],
  ['4.1', '.cache/dump-4.1.2'],
  ['4.2', '.cache/dump-4.2.2'],
  ['4.3', '.cache/dump-4.3.1'],
  ['4.4', '.cache/dump-4.4.0'],
]

interface Dump {
  scenario: string
  mode: string
  file: string
  stdout: string
}

function dumps(): Dump[] {
  const out: Dump[] = []
  if (!fs.existsSync(FIXTURES)) return out
  for (const scenario of fs.readdirSync(FIXTURES).sort()) {
    const m = path.join(FIXTURES, scenario, 'manifest.json')
    if (!fs.existsSync(m)) continue
    const manifest = JSON.parse(fs.readFileSync(m, 'utf8')) as {
      dumps?: Array<{ mode: string; cwd: string; command: string; stdout: string }>
    }
    for (const d of manifest.dumps ?? []) {
      if (!['offsets', 'txnlog', 'metadata', 'metadata-skip'].includes(d.mode)) continue
      const file = d.command.split(' ').at(-1)!
      out.push({ scenario, mode: d.mode, file: path.join(FIXTURES, scenario, d.cwd, file), stdout: d.stdout })
    }
  }
  return out
}

function format(
  mode: string,
  release: KafkaRelease,
  key: Buffer | null,
  value: Buffer | null,
  offset: bigint,
): FormattedRecord {
  if (mode === 'offsets') return formatOffsetsRecord(key, value, offset, release)
  if (mode === 'txnlog') return formatTransactionLogRecord(key, value, offset, release)
  return formatClusterMetadataRecord(value, offset, release)
}

const all = dumps()
let compared = 0
describe('internal-topic text equals kafka-dump-log of each release', () => {
  it('has decoder dumps to compare', () => {
    expect(all.length).toBeGreaterThan(0)
  })
  for (const [release, dir] of RELEASES) {
    const base = path.isAbsolute(dir) ? dir : path.join(ROOT, dir)
    const present = fs.existsSync(base)
    if (!present) console.log(`skipping Kafka ${release} decoder comparisons: no ${dir} (see this file's header)`)
    describe(`Kafka ${release}`, () => {
      for (const d of all) {
        it.skipIf(!present)(`${d.scenario} ${d.mode} ${path.basename(d.file)}`, () => {
          const expected = expectedTails(fs.readFileSync(path.join(base, d.scenario, d.stdout), 'utf8'))
          const got: string[] = []
          for (const ev of readLog(new BufferSource(fs.readFileSync(d.file), d.file))) {
            if (ev.kind !== 'batch' || ev.header.isControl) continue
            for (const rec of decodeRecords(ev.header, ev.bytes)) {
              got.push(formattedTail(format(d.mode, release, rec.key, rec.value, rec.offset)))
            }
          }
          expect(got.length).toBe(expected.length)
          expect(got).toEqual(expected)
          compared += got.length
        })
      }
    })
  }
  // runs last: the comparisons above were not vacuous (a bootstrap checkpoint alone has no data records)
  it('compared records', () => {
    expect(compared).toBeGreaterThan(100)
  })
})
