// An open transaction whose coordinator's records could not all be read: its owner's newest __transaction_state
// record, or the one listing the partition, may lie in the lost bytes, so neither HANGING nor COORDINATOR OVERDUE can
// be told and no abort is advised (an ABORT while the coordinator commits would split the transaction). Damage is
// written into copies at the batch positions of Kafka 4.4.0's kafka-dump-log text stored beside the fixture; the
// truth of the undamaged copy is the broker's describeTransactions (open-0: Ongoing on tx-out-1, expected.json).
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { FIXTURES_44 } from '../support/paths.js'

interface Described {
  transactionalId: string
  state: string
  transactionTimeoutMs: number
  transactionStartTimeMs: number
}
const dir = path.join(FIXTURES_44, 'transactions')
const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8')) as {
  describeTransactions: Described[]
}
const open = expected.describeTransactions.find((d) => d.transactionalId === 'open-0')!
const now = open.transactionStartTimeMs + open.transactionTimeoutMs + 60 * 60_000
const SEGMENT = '00000000000000000000.log'
/** the batches of __transaction_state-2 as kafka-dump-log printed them, with the transactional id of each record */
const batches = fs
  .readFileSync(path.join(dir, 'dump', '__transaction_state-2', `${SEGMENT}.txnlog.txt`), 'utf8')
  .split('\n')
  .flatMap((l, i, all) =>
    l.startsWith('baseOffset:')
      ? [
          {
            position: Number(/ position: (\d+)/.exec(l)![1]),
            size: Number(/ size: (\d+)/.exec(l)![1]),
            next: all[i + 1] ?? '',
          },
        ]
      : [],
  )
const openRecords = batches.filter((b) => b.next.includes('"transactionalId":"open-0"'))
const ongoingListing = openRecords.filter(
  (b) => b.next.includes('"transactionStatus":"Ongoing"') && b.next.includes('"topic":"tx-out","partitionIds":[1'),
)

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-coord-unknown-'))
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true })
})

/** a copy of tx-out-1 and __transaction_state-2 with `damage` applied to the coordinator's segment */
function copyWith(name: string, damage: (file: string) => void): string[] {
  const root = path.join(tmp, name)
  for (const p of ['tx-out-1', '__transaction_state-2'])
    fs.cpSync(path.join(dir, 'logs', p), path.join(root, p), { recursive: true })
  damage(path.join(root, '__transaction_state-2', SEGMENT))
  return [path.join(root, 'tx-out-1'), path.join(root, '__transaction_state-2')]
}
function fill(file: string, from: number, to: number): void {
  const fd = fs.openSync(file, 'r+')
  try {
    fs.writeSync(fd, Buffer.alloc(to - from, 0xff), 0, to - from, from)
  } finally {
    fs.closeSync(fd)
  }
}

async function lsoOn(
  paths: string[],
): Promise<{ text: string; stderr: string; code: number; blocking: Record<string, unknown> }> {
  const text = await runCli(['lso', '--now', String(now), ...paths])
  const json = await runCli(['lso', '--now', String(now), '--json', ...paths])
  const blocking = (JSON.parse(json.stdout) as { partitions: Array<{ blocking: Record<string, unknown> }> })
    .partitions[0]!.blocking
  return { text: text.stdout.replace(/\s+/g, ' '), stderr: text.stderr.replace(/\s+/g, ' '), code: text.code, blocking }
}

describe('an open transaction whose coordinator records could not all be read', () => {
  it('the fixture holds what the test needs: open-0 Ongoing on tx-out-1, its records the last of the segment', () => {
    expect(open.state).toBe('Ongoing')
    expect(ongoingListing.length).toBeGreaterThan(0)
    const last = batches[batches.length - 1]!
    expect(fs.statSync(path.join(dir, 'logs', '__transaction_state-2', SEGMENT)).size).toBe(last.position + last.size)
  })

  it('undamaged: its coordinator is overdue, with the abort commands (the verdict the damage must not produce)', async () => {
    const r = await lsoOn(copyWith('intact', () => {}))
    expect(r.blocking).toMatchObject({ overdue: true, hanging: false })
    expect((r.blocking.commands as string[]).length).toBe(2)
  })

  it('the records listing the partition lost: unknown, not HANGING, no abort command', async () => {
    const first = ongoingListing[0]!
    const size = fs.statSync(path.join(dir, 'logs', '__transaction_state-2', SEGMENT)).size
    const r = await lsoOn(
      copyWith('owner-lost', (f) => {
        fill(f, first.position, size)
      }),
    )
    expect(r.blocking).toMatchObject({ hanging: false, overdue: false, commands: [] })
    expect(r.blocking.coordinatorUnknownPast).toMatchObject({ position: first.position })
    expect(r.stderr).toContain('[TXN_COORDINATOR_UNKNOWN]')
    expect(r.stderr).not.toContain('[TXN_HANGING]')
    expect(r.text).toContain('TXN_COORDINATOR_UNKNOWN')
    expect(r.text).not.toMatch(/to abort it|abort --topic/)
    expect(r.text).toContain('no abort advice')
    expect(r.code).toBe(1)
    const tx = await runCli([
      'transactions',
      '--now',
      String(now),
      ...copyWith('owner-lost-tx', (f) => {
        fill(f, first.position, size)
      }),
    ])
    expect(tx.stdout.replace(/\s+/g, ' ')).toContain('TXN_COORDINATOR_UNKNOWN')
    expect(tx.stdout + tx.stderr).not.toContain('[TXN_HANGING]')
  })

  it("the records after the owner's newest lost: its newer state is unknown, so not overdue, no abort command", async () => {
    const last = batches[batches.length - 1]!
    const r = await lsoOn(
      copyWith('tail-lost', (f) => {
        fs.truncateSync(f, last.position + Math.floor(last.size / 2))
      }),
    )
    expect(last.next).toContain('"transactionalId":"open-0"')
    expect(r.blocking).toMatchObject({ hanging: false, overdue: false, commands: [] })
    expect(r.stderr).toContain('[TXN_COORDINATOR_UNKNOWN]')
    expect(r.stderr).not.toContain('[TXN_COORDINATOR_OVERDUE]')
  })
})
