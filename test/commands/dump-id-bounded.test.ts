// dump --transactional-id in the modes that read part of a coordinator segment (--start-offset, --end-offset,
// --max-bytes) or frame it by other rules (--compat, --no-resync, --max-batch-bytes): the dump's read gives the id's
// records in the part it reads, the rest is read after it for the id alone (src/scan/transaction-log-part.ts). The
// truth: the same dump of one data partition, whose coordinator partition lies beside it and is read whole for the id
// (scan/transaction-log-scan.ts, another reader), prints the same bytes for that partition.
// The copy of the 4.4.0 fixture makes the id's producer ids lie in the parts a bounded dump does not read: rpw-0's
// records at offset 0 (position 0, before the .index entry --start-offset 30 seeks to, 4193) and at offset 20
// (position 3041, past --end-offset 12, past --max-bytes 2500, after the first batch above --max-batch-bytes 150 and
// after the damage below) name producers 13 and 2, whose batches tx-out-0 holds at offsets 34-36 and 9-14
// (positions from kafka-dump-log's text, fixtures/broker-4.4/transactions/dump).
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { crc32c } from '../../src/bytes/crc32c.js'
import { readLog } from '../../src/decode/log-reader.js'
import { decodeRecords } from '../../src/decode/records.js'
import { BufferSource } from '../../src/io/buffer-source.js'
import { FIXTURES_44 } from '../support/paths.js'
import { runCli } from '../support/run-cli.js'

const STATE_LOG = '__transaction_state-0/00000000000000000000.log'
const DATA = 'tx-out-0'
/** v2 batch header: the CRC-32C at 17 over the bytes from 21 (DefaultRecordBatch); a coordinator value's producer id at 2 */
const CRC_AT = 17
const CRC_FROM = 21
const VALUE_PRODUCER_ID_AT = 2
/** kafka-dump-log's positions of rpw-0's records at offsets 0 and 20 in __transaction_state-0 */
const RENAMED: Array<[position: number, producerId: bigint]> = [
  [0, 13n],
  [3041, 2n],
]
/** bytes of 0xFF written inside the batch at position 1490 (offset 10): the damage --compat and --no-resync stop at */
const DAMAGE_AT = 1500

let root: string
let logs: string
let damaged: string

/** the batch at `position` of `file` with its one record's value naming `producerId`, its CRC made again */
function rename(file: string, position: number, producerId: bigint): void {
  const b = fs.readFileSync(file)
  const ev = readLog(new BufferSource(b), { from: position, verifyCrc: false }).next().value!
  if (ev.kind !== 'batch') throw new Error(`no batch at ${position}`)
  const rec = decodeRecords(ev.header, ev.bytes).next().value!
  const valueAt = position + (rec.value!.byteOffset - ev.bytes.byteOffset)
  b.writeBigInt64BE(producerId, valueAt + VALUE_PRODUCER_ID_AT)
  const size = ev.bytes.length
  b.writeUInt32BE(crc32c(b.subarray(position + CRC_FROM, position + size)), position + CRC_AT)
  fs.writeFileSync(file, b)
}

/** the blocks of `stdout` of the files of partition `dir` ("Dumping <file>" to the next "Dumping") */
function blocksOf(stdout: string, dir: string): string {
  return stdout
    .split(/^(?=Dumping )/m)
    .filter((b) => b.startsWith(`Dumping ${dir}${path.sep}`))
    .join('')
}

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-id-bounded-'))
  logs = path.join(root, 'logs')
  fs.cpSync(path.join(FIXTURES_44, 'transactions/logs'), logs, { recursive: true })
  for (const [at, id] of RENAMED) rename(path.join(logs, STATE_LOG), at, id)
  damaged = path.join(root, 'damaged')
  fs.cpSync(logs, damaged, { recursive: true })
  const f = path.join(damaged, STATE_LOG)
  const b = fs.readFileSync(f)
  b.fill(0xff, DAMAGE_AT, DAMAGE_AT + 40)
  fs.writeFileSync(f, b)
})

afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

const MODES: Array<{ flags: string[]; shows: bigint; damaged?: true }> = [
  { flags: ['--start-offset', '30'], shows: 13n },
  { flags: ['--start-offset', '30', '--end-offset', '36'], shows: 13n },
  { flags: ['--end-offset', '12'], shows: 2n },
  { flags: ['--start-offset', '9', '--end-offset', '12'], shows: 2n },
  { flags: ['--max-bytes', '2500'], shows: 2n },
  { flags: ['--max-batch-bytes', '150'], shows: 2n },
  { flags: ['--compat'], shows: 2n, damaged: true },
  { flags: ['--no-resync'], shows: 2n, damaged: true },
  { flags: ['--compat', '--end-offset', '20'], shows: 2n, damaged: true },
  { flags: ['--no-resync', '--max-bytes', '3000'], shows: 2n, damaged: true },
  // the dump resumes after the damage: its frames after it taken once a whole read from before it resumes there too
  { flags: ['--max-bytes', '5000'], shows: 2n, damaged: true },
  { flags: ['--max-batch-bytes', '150'], shows: 2n, damaged: true },
  { flags: ['--deep-iteration', '--end-offset', '12'], shows: 2n },
]

describe('dump --transactional-id reading part of the coordinator segment: the id resolved from the whole of it', () => {
  for (const m of MODES) {
    it(`${m.flags.join(' ')}${m.damaged === true ? ' (a damaged coordinator segment)' : ''}`, async () => {
      const dir = m.damaged === true ? damaged : logs
      const args = ['dump', '--no-progress', '--transactional-id', 'rpw-0', ...m.flags]
      const alone = await runCli([...args, path.join(dir, DATA)])
      // the renamed record counts: its producer's batches are dumped
      expect(alone.stdout).toMatch(new RegExp(`producerId: ${m.shows} `))
      const all = await runCli([...args, dir])
      // the damage is the coordinator segment's finding, in the dump that reads it
      expect(all.code).toBe(m.damaged === true ? 1 : alone.code)
      expect(blocksOf(all.stdout, path.join(dir, DATA))).toBe(alone.stdout)
      expect(all.stdout).toContain(`Dumping ${path.join(dir, STATE_LOG)}`)
    })
  }
})
