import { describe, expect, it } from 'vitest'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  DEFAULT_KAFKA_RELEASE,
  KAFKA_RELEASES,
  parseKafkaRelease,
  TEXT_VARIANTS,
  textVariant,
} from '../../src/format/kafka-versions.js'
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

  // from which release each field holds: the "from" column of docs/kafka-versions.md's table, one row per field,
  // read from the document itself (not restated here), so the code and the document cannot drift apart
  const doc = fs.readFileSync(path.join(ROOT, 'docs/kafka-versions.md'), 'utf8')
  const table = doc.slice(doc.indexOf('| `TextVariant` field |')).split('\n')
  const rows: Array<{ line: string; field: string | undefined; from: string | undefined }> = []
  for (const line of table.slice(2)) {
    if (!line.startsWith('|')) break
    const cells = line.split(' | ')
    rows.push({ line, field: /^\| `(\w+)`$/.exec(cells[0]!)?.[1], from: /^(\d+\.\d+)\b/.exec(cells[2] ?? '')?.[1] })
  }
  const CHANGED_IN = new Map(rows.map((r) => [r.field!, r.from!]))

  it('the document has one row for every field, each naming the release it changed in, and only fields', () => {
    expect(rows.filter((r) => r.field === undefined || r.from === undefined).map((r) => r.line)).toEqual([])
    expect(CHANGED_IN.size).toBe(rows.length)
    const fields = Object.keys(TEXT_VARIANTS['3.9']).filter((k) => k !== 'release' && k !== 'checkedWith')
    expect(fields.length).toBeGreaterThan(10)
    expect([...CHANGED_IN.keys()].sort()).toEqual(fields.sort())
  })
  it('changes each field exactly once, at the release its row names', () => {
    for (const [field, from] of CHANGED_IN) {
      const key = field as keyof TextVariant
      const changes = KAFKA_RELEASES.slice(1).filter(
        (r, i) => TEXT_VARIANTS[r][key] !== TEXT_VARIANTS[KAFKA_RELEASES[i]!][key],
      )
      expect(changes, field).toEqual([from])
    }
  })
})
