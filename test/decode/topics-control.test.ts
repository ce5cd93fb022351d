// Control records: the COMMIT/ABORT fast path (decode/control-fast.ts) against the general path
// (decodeRecords + decodeControlRecord) on random marker batches and random damage, and the KRaft
// control values through the schema reader (LeaderChangeMessage etc. from kafka-clients' definitions).
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeBatchHeader } from '../../src/decode/batch-header.js'
import { decodeKraftControlValue } from '../../src/decode/control-record.js'
import { readEndTxnMarkerFast } from '../../src/decode/control-fast.js'
import type { EndTxnMarkerFacts } from '../../src/decode/control-fast.js'
import { DecodeError } from '../../src/decode/errors.js'
import { decodeControlRecord } from '../../src/decode/log-reader.js'
import { decodeRecords } from '../../src/decode/records.js'
import { encodeBatch } from '../support/segment-builder.js'

function general(batch: Buffer): { type: number; keyVersion: number; coordinatorEpoch: number | undefined } | null {
  try {
    const h = decodeBatchHeader(batch, 0)
    const first = decodeRecords(h, batch).next()
    if (first.done === true) return null
    const c = decodeControlRecord(first.value, h)
    return { type: c.type, keyVersion: c.keyVersion, coordinatorEpoch: c.coordinatorEpoch }
  } catch (e) {
    if (e instanceof DecodeError) return null
    throw e
  }
}

describe('COMMIT/ABORT fast path = general reader', () => {
  it('on random markers, and on random single-byte damage wherever the fast path still accepts', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'ABORT' | 'COMMIT'>('ABORT', 'COMMIT'),
        fc.integer(),
        fc.integer({ min: 0, max: 3 }),
        fc.option(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }))),
        (type, coordinatorEpoch, keyVersion, damage) => {
          const batch = encodeBatch({ marker: { type, coordinatorEpoch, keyVersion } })
          if (damage !== null) batch[61 + (damage[0] % (batch.length - 61))] = damage[1]
          const out: EndTxnMarkerFacts = { type: -1, keyVersion: -1, coordinatorEpoch: 0 }
          if (!readEndTxnMarkerFast(batch, 0, batch.length, out)) {
            expect(damage).not.toBeNull() // an undamaged broker-shaped marker always takes the fast path
            return
          }
          expect(general(batch)).toEqual({
            type: out.type,
            keyVersion: out.keyVersion,
            coordinatorEpoch: out.coordinatorEpoch,
          })
        },
      ),
      { numRuns: 500 },
    )
  })
})

describe('KRaft control values through the schema reader', () => {
  it('LeaderChangeMessage and VotersRecord as the JsonConverters write them', () => {
    // version 0, leaderId 1, voters [{voterId 1}], grantingVoters [{voterId 1}]
    const lc = Buffer.from([0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 1, 0, 2, 0, 0, 0, 1, 0, 0])
    expect(decodeKraftControlValue(2, lc, 0)).toEqual({
      version: 0,
      leaderId: 1,
      voters: [{ voterId: 1 }],
      grantingVoters: [{ voterId: 1 }],
    })
    const dir = Buffer.alloc(16, 5)
    const voters = Buffer.concat([
      Buffer.from([0, 0, 2, 0, 0, 0, 3]),
      dir,
      Buffer.from([2, 11]),
      Buffer.from('CONTROLLER'),
      Buffer.from([10]),
      Buffer.from('localhost'),
      Buffer.from([0x23, 0x84, 0]),
      Buffer.from([0, 0, 0, 1, 0, 0]),
      Buffer.from([0]),
    ])
    expect(decodeKraftControlValue(6, voters, 0)).toEqual({
      version: 0,
      voters: [
        {
          voterId: 3,
          voterDirectoryId: dir.toString('base64url'),
          endpoints: [{ name: 'CONTROLLER', host: 'localhost', port: 9092 }],
          kRaftVersionFeature: { minSupportedVersion: 0, maxSupportedVersion: 1 },
        },
      ],
    })
  })

  it('a truncated value is a DecodeError with its position', () => {
    expect(() => decodeKraftControlValue(3, Buffer.from([0, 0, 0, 0]), 70)).toThrow(DecodeError)
    expect(() => decodeKraftControlValue(9, Buffer.from([0, 0]), 70)).toThrow(/no known value schema/)
  })
})
