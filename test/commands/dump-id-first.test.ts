// dump --transactional-id reads the id's records as it dumps the __transaction_state partitions among its paths,
// first, their text held until their turn (src/commands/dump/id-first.ts, held-output.ts). The truth: the same
// dump with --producer-id of the id's one producer (fixtures/broker/orders/expected.json: tx-rw-1 wrote as producer
// 1), which reads no coordinator record to resolve anything, must print the same bytes.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { crc32c } from '../../src/bytes/crc32c.js'
import { HeldOutput } from '../../src/commands/dump/held-output.js'
import type { CommandContext } from '../../src/commands/context.js'
import { StringWriter } from '../../src/format/writer.js'
import { FIXTURES } from '../support/paths.js'
import { runCli } from '../support/run-cli.js'

const ORDERS = path.join(FIXTURES, 'orders/logs')
const STATE_LOG = '__transaction_state-2/00000000000000000000.log'
/** v2 batch header: producerId at byte 43, the CRC-32C at 17 over the bytes from 21 (DefaultRecordBatch) */
const PRODUCER_ID_AT = 43
const CRC_AT = 17
const CRC_FROM = 21

describe('dump --transactional-id: the coordinator partitions dumped in the read that resolves the id', () => {
  for (const flags of [[], ['--json'], ['--deep-iteration', '--transaction-log-decoder']]) {
    it(`prints what --producer-id 1 prints (${flags.join(' ') || 'text'})`, async () => {
      const byId = await runCli(['dump', '--no-progress', ...flags, '--transactional-id', 'tx-rw-1', ORDERS])
      const byProducer = await runCli(['dump', '--no-progress', ...flags, '--producer-id', '1', ORDERS])
      expect(byId.stdout).toContain('__transaction_state-2')
      expect(byId).toEqual(byProducer)
    })
  }

  it('dumps a coordinator batch that carries the id producer id again in its turn, as --producer-id does', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-id-first-'))
    try {
      const logs = path.join(root, 'logs')
      fs.cpSync(ORDERS, logs, { recursive: true })
      // kafka-dump-log's text of this segment (fixtures/broker/orders/dump-4.4.0) has its first batch at position 0,
      // producerId -1, size 116: it becomes producer 1's, its CRC made again so that only the producer changed
      const file = path.join(logs, STATE_LOG)
      const b = fs.readFileSync(file)
      b.writeBigInt64BE(1n, PRODUCER_ID_AT)
      b.writeUInt32BE(crc32c(b.subarray(CRC_FROM, 116)), CRC_AT)
      fs.writeFileSync(file, b)
      const byId = await runCli(['dump', '--no-progress', '--transactional-id', 'tx-rw-1', logs])
      const byProducer = await runCli(['dump', '--no-progress', '--producer-id', '1', logs])
      expect(byId).toEqual(byProducer)
      const state = byId.stdout.slice(byId.stdout.indexOf(`Dumping ${file}`))
      expect(state).toMatch(/^baseOffset: 0 lastOffset: 0 .* producerId: 1 /m)
    } finally {
      fs.rmSync(root, { recursive: true, force: true })
    }
  })

  for (const flags of [[], ['--json']]) {
    it(`an id with no record is a usage error, nothing else written (${flags.join(' ') || 'text'})`, async () => {
      const r = await runCli(['dump', '--no-progress', ...flags, '--transactional-id', 'no-such-id', ORDERS])
      expect(r.code).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr).toMatch(/no-such-id/)
      expect(r.stderr).not.toMatch(/Dumping/)
    })
  }
})

describe('HeldOutput', () => {
  it('writes back what it held, characters whole across its chunks, in the order asked', () => {
    const stdout = new StringWriter()
    const stderr = new StringWriter()
    const ctx: CommandContext = { stdout, stderr, colorLevel: 0, stderrIsTTY: false, env: {}, now: () => 0 }
    const held = new HeldOutput(ctx)
    try {
      // 3-byte and 4-byte UTF-8 characters, more than one 64 KiB chunk of them
      const long = 'ä€😀'.repeat(20_000)
      held.ctx.stdout.write('before\n')
      held.hold()
      held.ctx.stdout.write(long)
      const at = held.ctx.stdout.reserve(3)
      held.ctx.stdout.buffer.write('xyz', at)
      held.ctx.stdout.commit(at + 3)
      held.ctx.stderr.write('held finding\n')
      const part = held.release()
      held.ctx.stdout.write('between\n')
      expect(stdout.text).toBe('before\nbetween\n')
      expect(stderr.text).toBe('')
      held.write(part)
      expect(stdout.text).toBe(`before\nbetween\n${long}xyz`)
      expect(stderr.text).toBe('held finding\n')
    } finally {
      held.close()
    }
  })
})
