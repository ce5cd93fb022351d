// `tsdump replicas` checks each copy's batch CRCs: replication compares no CRC, so two copies' stored CRCs can agree
// while one copy's bytes are damaged. A payload byte of one batch is flipped in one broker's copy of the
// replicas-clean fixture (three brokers, every copy identical; the batch's position from kafka-dump-log's stored
// text), the leader's and a follower's in turn.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { REPO_ROOT } from '../support/paths.js'

const CLEAN = path.join(REPO_ROOT, 'fixtures/broker-4.4/replicas-clean')
const TP = 'clean-0'
const SEG = '00000000000000000000.log'
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-replicas-crc-'))
afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true })
})

interface Finding {
  code: string
  file?: string
  position?: number
  message: string
}
interface ReplicasJson {
  partitions: Array<{ topic: string; partition: number; leader: number; findings: Finding[] }>
}

/** the second batch of broker-1's copy as Kafka's kafka-dump-log printed it */
function secondBatch(): { position: number; size: number; baseOffset: number } {
  const text = fs.readFileSync(path.join(CLEAN, 'dump', 'broker-1', TP, `${SEG}.shallow.txt`), 'utf8')
  const l = text.split('\n').filter((x) => x.startsWith('baseOffset:'))[1]!
  return {
    position: Number(/ position: (\d+)/.exec(l)![1]),
    size: Number(/ size: (\d+)/.exec(l)![1]),
    baseOffset: Number(/^baseOffset: (\d+)/.exec(l)![1]),
  }
}

describe("replicas verifies each copy's batch CRCs", () => {
  const brokers = ['broker-1', 'broker-2', 'broker-3']
  it('the undamaged copies agree (the comparison this test damages)', async () => {
    const r = await runCli(['replicas', ...brokers.map((b) => path.join(CLEAN, b))])
    expect(r.stdout).toContain('every copy agrees with its leader')
    expect(r.code).toBe(0)
  })

  for (const broker of ['leader', 'broker-1']) {
    it(`a payload byte flipped in ${broker === 'leader' ? "the leader's copy" : "a follower's copy"} is a finding at its file and position`, async () => {
      const dir = path.join(work, broker)
      for (const b of brokers) fs.cpSync(path.join(CLEAN, b), path.join(dir, b), { recursive: true })
      const before = JSON.parse(
        (await runCli(['replicas', '--json', ...brokers.map((b) => path.join(dir, b))])).stdout,
      ) as ReplicasJson
      const leader = before.partitions.find((p) => `${p.topic}-${p.partition}` === TP)!.leader
      const victim = broker === 'leader' ? `broker-${leader}` : broker
      const b = secondBatch()
      const file = path.join(dir, victim, TP, SEG)
      const bytes = fs.readFileSync(file)
      bytes[b.position + b.size - 1] ^= 0x5a
      fs.writeFileSync(file, bytes)
      const text = await runCli(['replicas', ...brokers.map((x) => path.join(dir, x))])
      expect(text.code).toBe(1)
      expect(text.stdout).not.toContain('every copy agrees')
      const json = JSON.parse(
        (await runCli(['replicas', '--json', ...brokers.map((x) => path.join(dir, x))])).stdout,
      ) as ReplicasJson
      const found = json.partitions.find((p) => `${p.topic}-${p.partition}` === TP)!.findings
      const damaged = found.filter((f) => f.code === 'REPLICA_COPY_DAMAGED')
      expect(damaged.map((f) => [f.file, f.position])).toEqual([[file, b.position]])
      const others = brokers.filter((x) => x !== victim).map((x) => x.replace('broker-', ''))
      expect(damaged[0]!.message).toContain(`offsets ${b.baseOffset}-`)
      expect(damaged[0]!.message).toContain(`brokers ${others.join(', ')} hold it intact`)
      if (broker === 'leader') expect(damaged[0]!.message).toContain("(the leader's)")
      expect(found.filter((f) => f.code === 'CRC_MISMATCH').map((f) => [f.file, f.position])).toEqual([
        [file, b.position],
      ])
      // the other partitions are untouched
      for (const p of json.partitions.filter((x) => `${x.topic}-${x.partition}` !== TP))
        expect(p.findings.filter((f) => f.code === 'REPLICA_COPY_DAMAGED')).toEqual([])
    })
  }
})
