// `tsdump lso` on the open-txn fixture against what the live broker said while the transaction was open:
// ListOffsets (LSO, HW) and `kafka-transactions.sh describe-producers` (stored in expected.json).
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { FIXTURES } from '../support/paths.js'

interface ProducerRow {
  ProducerId: string
  ProducerEpoch: string
  LatestCoordinatorEpoch: string
  CurrentTransactionStartOffset: string
}
interface Expected {
  partitions: Array<{ topic: string; partition: number; highWatermark: number; lastStableOffset: number }>
  producers?: Array<{ topic: string; partition: number; rows: ProducerRow[] }>
}

const dir = path.join(FIXTURES, 'open-txn')
const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Expected

describe('lso on the open-txn fixture', () => {
  it('names the producer the broker reports as holding the LSO, with the abort commands it would accept', async () => {
    const r = await runCli(['lso', '--json', '--bootstrap-server', 'broker:9092', path.join(dir, 'logs')])
    const out = JSON.parse(r.stdout) as {
      partitions: Array<{
        topic: string
        partition: number
        highWatermark: number
        lastStableOffset: number
        blocking: {
          producerId: number
          producerEpoch: number
          coordinatorEpoch: number | null
          firstOffset: number
          commands: string[]
        } | null
      }>
    }
    const part = expected.partitions.find((p) => p.lastStableOffset < p.highWatermark)!
    const got = out.partitions.find((p) => p.topic === part.topic && p.partition === part.partition)!
    expect(got.lastStableOffset).toBe(part.lastStableOffset)
    expect(got.highWatermark).toBe(part.highWatermark)
    const rows = expected.producers!.find((p) => p.topic === part.topic && p.partition === part.partition)!.rows
    const open = rows.filter((x) => x.CurrentTransactionStartOffset !== 'None')
    expect(open).toHaveLength(1)
    const row = open[0]!
    expect(got.blocking!.producerId).toBe(Number(row.ProducerId))
    expect(got.blocking!.producerEpoch).toBe(Number(row.ProducerEpoch))
    expect(got.blocking!.firstOffset).toBe(Number(row.CurrentTransactionStartOffset))
    expect(got.blocking!.coordinatorEpoch).toBe(Number(row.LatestCoordinatorEpoch))
    // kafka-transactions.sh replaces a negative coordinator epoch by 0 (TransactionsCommand.AbortTransactionCommand)
    const coordinatorEpoch = Math.max(0, Number(row.LatestCoordinatorEpoch))
    expect(got.blocking!.commands).toContain(
      `kafka-transactions.sh --bootstrap-server broker:9092 abort --topic ${part.topic} --partition ${part.partition} --start-offset ${row.CurrentTransactionStartOffset}`,
    )
    expect(got.blocking!.commands).toContain(
      `kafka-transactions.sh --bootstrap-server broker:9092 abort --topic ${part.topic} --partition ${part.partition}` +
        ` --producer-id ${row.ProducerId} --producer-epoch ${row.ProducerEpoch} --coordinator-epoch ${coordinatorEpoch}`,
    )
  })
})
