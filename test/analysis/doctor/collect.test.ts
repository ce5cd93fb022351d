// The collector's bound: a code's findings counted, each once, only the first LISTED_UP_TO in the documented order
// kept however they arrive; a group of more is one entry with its first GROUP_EXAMPLES. Truth: the order written
// out here by hand (partition, then offset), and a plain Set of the keys for the hash set.
import { describe, expect, it } from 'vitest'
import { DoctorCollector, GROUP_EXAMPLES, LISTED_UP_TO, rankedEntries } from '../../../src/analysis/doctor/collect.js'
import { KeySet } from '../../../src/analysis/doctor/key-set.js'

const collector = (): DoctorCollector =>
  new DoctorCollector(
    () => null,
    () => ['tsdump transactions logs'],
  )
const hanging = (
  n: number,
): { code: string; severity: 'warning'; message: string; partition: string; firstOffset: bigint } => ({
  code: 'TXN_HANGING',
  severity: 'warning',
  message: `t${n}`,
  partition: `p-${n % 3}`,
  firstOffset: BigInt(n),
})

/** a fixed shuffle of 0..n-1 */
const shuffled = (n: number): number[] => Array.from({ length: n }, (_, i) => (i * 7919) % n)

describe('DoctorCollector', () => {
  it('up to LISTED_UP_TO of a code: each listed, in order, none grouped', () => {
    const c = collector()
    for (const i of shuffled(LISTED_UP_TO)) c.add(hanging(i), { command: 'lso' })
    const r = c.collected()
    expect(r.groups).toEqual([])
    expect(r.findings.map((f) => f.message)).toEqual(
      [0, 1, 2]
        .flatMap((p) => Array.from({ length: LISTED_UP_TO }, (_, i) => i).filter((i) => i % 3 === p))
        .map((i) => `t${i}`),
    )
  })

  it('more: one group, counted once each, its examples the first in order whatever the arrival order', () => {
    const c = collector()
    for (const i of shuffled(1000)) c.add(hanging(i), { command: 'lso' })
    // the same faults again from another command: not counted twice; a kept one names both commands
    for (const i of shuffled(1000)) c.add(hanging(i), { command: 'transactions' })
    const r = c.collected()
    expect(r.findings).toEqual([])
    expect(r.groups.length).toBe(1)
    const g = r.groups[0]!
    expect([g.count, g.partitions, g.examples.length]).toEqual([1000, 3, GROUP_EXAMPLES])
    expect(g.examples.map((f) => f.message)).toEqual(['t0', 't3', 't6', 't9', 't12'])
    expect(g.examples[0]!.reportedBy).toEqual(['lso', 'transactions'])
    expect(g.reportedBy).toEqual(['lso', 'transactions'])
    expect(g.remedy.look).toEqual(['tsdump transactions logs'])
    expect(r.counts).toEqual({ error: 0, warning: 1000, info: 0 })
  })

  it('the look is made once at the end, for the findings kept then, and not for the others', () => {
    const asked: string[] = []
    const c = new DoctorCollector(
      () => null,
      (f, loc) => {
        asked.push(loc.partition === null ? `${f.code} everywhere` : f.message)
        return [`look ${f.message}`]
      },
    )
    // in reverse: each one comes before every one kept so far, and would push one out
    for (let i = 999; i >= 0; i--) c.add(hanging(i), { command: 'lso' })
    expect(asked).toEqual([])
    const g = c.collected().groups[0]!
    expect(g.examples.map((f) => f.remedy.look)).toEqual([
      ['look t0'],
      ['look t3'],
      ['look t6'],
      ['look t9'],
      ['look t12'],
    ])
    // the LISTED_UP_TO kept, then the group's own over every partition
    expect(asked.length).toBe(LISTED_UP_TO + 1)
    expect(asked[LISTED_UP_TO]).toBe('TXN_HANGING everywhere')
  })

  it('addSeen: a fault seen before is told now (its reporter named); a new one is left to add()', () => {
    const c = collector()
    c.add(hanging(1), { command: 'reconcile' })
    expect(c.addSeen(hanging(1), { command: 'transactions' })).toBe(true)
    expect(c.addSeen(hanging(2), { command: 'transactions' })).toBe(false)
    const r = c.collected()
    expect(r.findings.map((f) => [f.message, f.reportedBy])).toEqual([['t1', ['reconcile', 'transactions']]])
    expect(r.counts.warning).toBe(1)
  })

  it('rankedEntries places a group at its first example among the findings listed', () => {
    const c = collector()
    for (const i of shuffled(100)) c.add(hanging(i), { command: 'lso' })
    c.add({ code: 'REPLICA_DIVERGED', severity: 'error', message: 'lost', partition: 'p-0' }, { command: 'replicas' })
    c.add(
      { code: 'CLEANUP_POLICY_UNKNOWN', severity: 'info', message: 'note', partition: 'p-0' },
      { command: 'cleanup' },
    )
    const e = rankedEntries(c.collected())
    expect(e.map((x) => (x.kind === 'finding' ? x.finding.code : `${x.group.code} x${x.group.count}`))).toEqual([
      'REPLICA_DIVERGED',
      'TXN_HANGING x100',
      'CLEANUP_POLICY_UNKNOWN',
    ])
  })
})

describe('KeySet', () => {
  it('says what a Set of the same strings says, past several growths', () => {
    const k = new KeySet()
    const s = new Set<string>()
    for (let i = 0; i < 20_000; i++) {
      const key = `CODE\u0000/logs/p-${i % 97}/0.log\u0000${(i * 31) % 15_000}`
      expect(k.add(key)).toBe(!s.has(key))
      s.add(key)
    }
    expect(k.size).toBe(s.size)
    expect(k.has('CODE\u0000/logs/p-1/0.log\u000031')).toBe(true)
    expect(k.has('nothing')).toBe(false)
  })
})
