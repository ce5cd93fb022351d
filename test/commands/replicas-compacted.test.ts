// Compacted partitions in tsdump replicas: below the cleaned point each broker's cleaner has rewritten its own
// copy (fixtures/broker-4.4/replicas-clean clean-compact-0: brokers 1 and 2 cleaned, broker 3's cleaner slept),
// so the copies are compared by offset, key and value. Truth: kafka-dump-log --deep-iteration --print-data-log
// of each copy (the fixture's dump/), and a record changed in a copy (its batch CRC recomputed, so that only the
// comparison can notice).
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { crc32c } from '../../src/bytes/crc32c.js'
import { runCli } from '../support/run-cli.js'
import { REPO_ROOT } from '../support/paths.js'

const CLEAN = path.join(REPO_ROOT, 'fixtures/broker-4.4/replicas-clean')
const TP = 'clean-compact-0'

/** offset -> `key payload` as kafka-dump-log printed them, every segment of the copy */
function dumped(broker: string): Map<number, string> {
  const dir = path.join(CLEAN, 'dump', broker, TP)
  const out = new Map<number, string>()
  for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.log.data.txt'))) {
    for (const m of fs
      .readFileSync(path.join(dir, f), 'utf8')
      .matchAll(/^\| offset: (\d+) .* key: (\S*) payload: (.*)$/gm))
      out.set(Number(m[1]), `${m[2]} ${m[3]}`)
  }
  return out
}

interface Out {
  partitions: Array<{
    topic: string
    partition: number
    cleanedTo: number | null
    replicas: Array<{
      broker: number
      isLeader: boolean
      divergenceOffset: number | null
      recordsComparedBelowCleanedPoint: number | null
    }>
    findings: Array<{ code: string; message: string }>
  }>
}

async function run(cwd: string): Promise<{ code: number; p: Out['partitions'][number] }> {
  const r = await runCli(['replicas', '--json', 'broker-1', 'broker-2', 'broker-3'], { cwd })
  return { code: r.code, p: (JSON.parse(r.stdout) as Out).partitions.find((x) => `${x.topic}-${x.partition}` === TP)! }
}

describe('tsdump replicas on a compacted partition', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-replicas-compact-'))
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

  it('compares the offsets both copies hold below the cleaned point, as many as kafka-dump-log shows, and says so', async () => {
    const { code, p } = await run(CLEAN)
    expect(code).toBe(0)
    const leader = p.replicas.find((r) => r.isLeader)!
    const theirs = dumped(`broker-${leader.broker}`)
    for (const r of p.replicas.filter((x) => !x.isLeader)) {
      const mine = dumped(`broker-${r.broker}`)
      const both = [...mine.keys()].filter((o) => o < p.cleanedTo! && theirs.has(o))
      // the truth agrees on every offset both hold (else this fixture would not be clean)
      for (const o of both) expect(mine.get(o), `offset ${o}`).toBe(theirs.get(o))
      expect(both.length).toBeGreaterThan(0)
      expect(r.recordsComparedBelowCleanedPoint, `broker ${r.broker}`).toBe(both.length)
      expect(r.divergenceOffset).toBeNull()
    }
    expect(p.findings.find((f) => f.code === 'REPLICA_COMPACTED')!.message).toContain('compared by key and value')
  })

  it('a record changed below the cleaned point (a valid CRC) is REPLICA_RECORDS_DIFFER at its offset', async () => {
    for (const b of ['broker-1', 'broker-2', 'broker-3'])
      fs.cpSync(path.join(CLEAN, b), path.join(tmp, b), { recursive: true })
    const seg = path.join(tmp, 'broker-1', TP, '00000000000000000000.log')
    const buf = fs.readFileSync(seg)
    // the first value "v2x-kN" found in the segment: change its last character, then recompute its batch's CRC-32C
    const at = buf.indexOf(Buffer.from('-k0'))
    expect(at).toBeGreaterThan(0)
    let pos = 0
    while (pos + 12 + buf.readInt32BE(pos + 8) <= at) pos += 12 + buf.readInt32BE(pos + 8)
    const offset = Number(buf.readBigInt64BE(pos))
    buf[at + 2] = '9'.charCodeAt(0)
    const end = pos + 12 + buf.readInt32BE(pos + 8)
    buf.writeUInt32BE(crc32c(buf.subarray(pos + 21, end)) >>> 0, pos + 17)
    fs.writeFileSync(seg, buf)
    const { code, p } = await run(tmp)
    expect(code).toBe(1)
    const f = p.findings.find((x) => x.code === 'REPLICA_RECORDS_DIFFER')
    expect(f, JSON.stringify(p.findings)).toBeDefined()
    expect(f!.message).toContain('another value')
    const r1 = p.replicas.find((r) => r.broker === 1)!
    expect(r1.divergenceOffset).toBeGreaterThanOrEqual(offset)
    expect(p.findings.map((x) => x.code)).not.toContain('CRC_MISMATCH')
  })
})
