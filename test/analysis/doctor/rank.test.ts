// doctor's order of harm: every code of the catalogue has a rank (a new code cannot be forgotten), the ranks follow
// what docs/findings.md says of each code's harm, and the order within a rank is severity, broker, partition, offset.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { compareDoctorFindings, HARM_CATEGORIES, HARM_RANK, harmOf } from '../../../src/analysis/doctor/rank.js'
import type { RankedPlace } from '../../../src/analysis/doctor/rank.js'
import { FINDING_SEVERITY } from '../../../src/analysis/findings.js'
import { REPO_ROOT } from '../../support/paths.js'

describe('the harm ranks', () => {
  it('every code of the catalogue has one', () => {
    const missing = Object.keys(FINDING_SEVERITY).filter((c) => HARM_RANK[c] === undefined)
    expect(missing).toEqual([])
  })

  it('five categories, in the documented order, named in the README', () => {
    expect(Object.values(HARM_CATEGORIES)).toEqual([
      'data lost or at risk',
      'consumers stuck',
      'damage',
      'cleaner or retention blocked',
      'the rest',
    ])
    const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8')
    expect(readme).toContain(
      'data lost or at risk > consumers stuck > damage > cleaner or retention blocked > the rest',
    )
  })

  it('what docs/findings.md calls lost data, a stuck consumer or damage is ranked so', () => {
    // acknowledged records lost (REPLICA_DIVERGED), offsets no copy holds (REMOTE_GAP): data
    for (const c of ['REPLICA_DIVERGED', 'REMOTE_SEGMENT_MISSING', 'REMOTE_GAP', 'TXN_MIXED_OUTCOME'])
      expect(harmOf(c).rank, c).toBe(1)
    // "read_committed consumers stop there", "a hanging partition"
    for (const c of ['REPLICA_MARKER_LOST', 'TXN_PARTITION_NO_MARKER', 'TXN_HANGING']) expect(harmOf(c).rank, c).toBe(2)
    for (const c of ['CRC_MISMATCH', 'BAD_LENGTH', 'TRUNCATED_TAIL', 'SNAPSHOT_CRC', 'TXNINDEX_MISSING_ENTRY'])
      expect(harmOf(c).rank, c).toBe(3)
    expect(harmOf('CLEANER_CHECKPOINT_OUT_OF_RANGE').rank).toBe(4)
    // every info code is a note: never above a warning's harm
    for (const [c, s] of Object.entries(FINDING_SEVERITY)) if (s === 'info') expect(harmOf(c).rank, c).toBe(5)
  })

  it('a code the table does not know is ranked with the rest', () => {
    expect(harmOf('SOME_FUTURE_CODE')).toEqual({ rank: 5, category: 'the rest' })
  })
})

describe('the order within a rank', () => {
  const at = (o: Partial<RankedPlace>): RankedPlace => ({
    rank: 3,
    severity: 'error',
    code: 'CRC_MISMATCH',
    broker: null,
    partition: null,
    firstOffset: null,
    file: null,
    position: null,
    ...o,
  })

  it('rank, then severity, then broker (as numbers), partition (topic, then number), offset; unknown places last', () => {
    const list = [
      at({ severity: 'info' }),
      at({ broker: '10', partition: 'a-0' }),
      at({ broker: '2', partition: 'a-10', firstOffset: 5n }),
      at({ broker: '2', partition: 'a-2', firstOffset: 7n }),
      at({ broker: '2', partition: 'a-2', firstOffset: 3n }),
      at({ broker: '2' }),
      at({ rank: 1, severity: 'warning' }),
      at({ severity: 'warning' }),
    ]
    const sorted = [...list].sort(compareDoctorFindings)
    expect(sorted.map((p) => [p.rank, p.severity, p.broker, p.partition, p.firstOffset])).toEqual([
      [1, 'warning', null, null, null],
      [3, 'error', '2', 'a-2', 3n],
      [3, 'error', '2', 'a-2', 7n],
      [3, 'error', '2', 'a-10', 5n],
      [3, 'error', '2', null, null],
      [3, 'error', '10', 'a-0', null],
      [3, 'warning', null, null, null],
      [3, 'info', null, null, null],
    ])
  })
})
