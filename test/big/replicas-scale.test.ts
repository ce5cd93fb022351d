// `replicas` at scale, held to 128 MiB peak RSS as the big tier holds every command: three brokers' copies of one
// partition of 1,000,000 small batches, and of 1 GiB of 20-record batches each (bench/make-replicas.mjs: broker-1
// leads, broker-2 is its byte copy, broker-3 stayed at epoch 0 for the last 2,000 batches and wrote other records
// there, as an unclean leader would). Each copy is read once, the three side by side; the answer is checked
// against the generator's own layout. Inputs made under the temp directory and deleted after.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { rmrf, tmp } from '../hostile/support.js'
import { runWithPeakRss } from './peak-rss.js'
import { replicasNearEnd } from '../../bench/make-replicas.mjs'

const dir = tmp('tsdump-big-replicas-')
afterAll(() => rmrf(dir))

interface Replica {
  broker: number
  isLeader: boolean
  divergenceOffset: number | null
  recordsPastDivergence: number
  batchesPastDivergence: unknown[]
  batchesPastDivergenceOmitted?: number
}

/** tsdump replicas --json over the three brokers, stdout to a file; its peak RSS and the partition's copies */
function run(root: string): { code: number | null; stderr: string; maxRssMiB: number; replicas: Replica[] } {
  const out = path.join(dir, 'out.json')
  const r = runWithPeakRss(['replicas', '--json', ...[1, 2, 3].map((b) => path.join(root, `broker-${b}`))], out)
  const json = JSON.parse(fs.readFileSync(out, 'utf8')) as { partitions: Array<{ replicas: Replica[] }> }
  fs.rmSync(out, { force: true })
  return { ...r, replicas: json.partitions[0]!.replicas }
}

const CASES = [
  { name: '3 x 1,000,000 small batches', batches: 1_000_000, records: 1, valueBytes: 8 },
  // 577,000 batches of 20 records of 80-byte values: 1 GiB a copy
  { name: '3 x 1 GiB', batches: 577_000, records: 20, valueBytes: 80 },
]
const TAIL = 2000

describe('replicas at scale', () => {
  for (const c of CASES) {
    const res: { r?: ReturnType<typeof run> } = {}
    it(`${c.name}: broker 3 diverges where the generator wrote other records, every batch past it counted`, () => {
      const root = path.join(dir, 'copies')
      const meta = replicasNearEnd(
        root,
        { batches: c.batches, records: c.records, valueBytes: c.valueBytes, tail: TAIL },
        () => {},
      )
      const r = run(root)
      rmrf(root)
      rmrf(`${root}.meta.json`)
      res.r = r
      expect(r.code, r.stderr).toBe(1)
      const [b1, b2, b3] = [1, 2, 3].map((b) => r.replicas.find((x) => x.broker === b)!)
      expect(b1!.isLeader).toBe(true)
      expect(b2!.divergenceOffset).toBeNull()
      expect(b3!.divergenceOffset).toBe(meta.stats.divergesAt)
      expect(b3!.recordsPastDivergence).toBe(TAIL * c.records)
      expect(b3!.batchesPastDivergence.length).toBe(1000)
      expect(b3!.batchesPastDivergenceOmitted).toBe(TAIL - 1000)
    })
    it(`${c.name}: peak RSS < 128 MiB`, () => {
      expect(res.r?.code).toBe(1)
      console.log(`replicas, ${c.name}: peak RSS ${res.r!.maxRssMiB.toFixed(0)} MiB`)
      expect(res.r!.maxRssMiB).toBeLessThan(128)
    })
  }
})
