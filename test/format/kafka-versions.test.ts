import { describe, expect, it } from 'vitest'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { DEFAULT_KAFKA_RELEASE, KAFKA_RELEASES, parseKafkaRelease, TEXT_VARIANTS, textVariant } from '../../src/format/kafka-versions.js'
import type { TextVariant } from '../../src/format/kafka-versions.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

describe('parseKafkaRelease', () => {
  it('defaults to 4.4, the newest release', () => {
    expect(parseKafkaRelease(undefined)).toBe('4.4')
    expect(DEFAULT_KAFKA_RELEASE).toBe('4.4')
  })
  it('accepts a minor release or any of its patch releases', () => {
    expect(parseKafkaRelease('4.4')).toBe('4.4')
    expect(parseKafkaRelease('4.4.0')).toBe('4.4')
    expect(parseKafkaRelease('4.3.1')).toBe('4.3')
    expect(parseKafkaRelease('4.0')).toBe('4.0')
    expect(parseKafkaRelease('3.9.1')).toBe('3.9')
    expect(parseKafkaRelease(' 4.1.2 ')).toBe('4.1')
  })
  it('rejects releases it has no text for and malformed values', () => {
    for (const v of ['4', '4.5', '3.8.0', '5.0', '4.4.0-rc1', '4.4.x', 'latest', '', '4..4', '04.4x']) {
      expect(parseKafkaRelease(v), v).toBeUndefined()
    }
  })
})

describe('TEXT_VARIANTS', () => {
  it('defines every release, each under its own name, checked against a patch release of it', () => {
    expect(Object.keys(TEXT_VARIANTS).sort()).toEqual([...KAFKA_RELEASES].sort())
    for (const r of KAFKA_RELEASES) {
      expect(textVariant(r).release).toBe(r)
      expect(textVariant(r).checkedWith.startsWith(`${r}.`)).toBe(true)
    }
    expect(textVariant()).toBe(TEXT_VARIANTS['4.4'])
  })

  // from which release each row holds (docs/kafka-versions.md); a field missing here fails the test
  const CHANGED_IN: Record<Exclude<keyof TextVariant, 'release' | 'checkedWith'>, string> = {
    shareGroupStateDecoderOption: '4.0',
    legacyDecoderClasses: '4.0',
    leaderChangeAsJson: '4.1',
    skipRecordMetadataHelp: '4.2',
    dumpLogSegmentsClass: '4.3',
    legacyCrcStrayBrace: '4.3',
    skipMetadataPayloadPipe: '4.3',
    snapshotLineTrailingSpace: '4.3',
    timeIndexNotFoundNamesFile: '4.3',
    nonConsecutiveFromMinusOne: '4.3',
    nonConsecutiveOrder: '4.3',
    indexMismatchRepeats: '4.3',
    reportFileOrder: '4.3',
    noDotFileName: '4.3',
    decoderClassNotFound: '4.3',
    txnIndexVersion: '4.4',
  }
  it('changes each field exactly once, at the release its row names', () => {
    const fields = Object.keys(TEXT_VARIANTS['3.9']).filter((k) => k !== 'release' && k !== 'checkedWith')
    expect(fields.sort()).toEqual(Object.keys(CHANGED_IN).sort())
    for (const [field, from] of Object.entries(CHANGED_IN)) {
      const key = field as keyof TextVariant
      const changes = KAFKA_RELEASES.slice(1).filter((r, i) => TEXT_VARIANTS[r][key] !== TEXT_VARIANTS[KAFKA_RELEASES[i]!][key])
      expect(changes, field).toEqual([from])
    }
  })
  it('has a row in docs/kafka-versions.md for every field', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs/kafka-versions.md'), 'utf8')
    for (const field of Object.keys(CHANGED_IN)) expect(doc, field).toContain(`\`${field}\``)
  })
})
