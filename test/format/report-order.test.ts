// report-order.ts against the real collections: java.util.HashMap (JavaOrder.java) and, when a Scala 2.13
// library jar is found, scala.collection.mutable.HashMap (ScalaOrder.java). Skips, saying why, without them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { javaHashMapOrder, javaStringHashCode, scalaMutableHashMapOrder } from '../../src/format/report-order.js'
import { compileOracle, jdkMissing, removeOracle, runOracle } from '../support/java-oracle.js'
import type { Oracle } from '../support/java-oracle.js'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const SRC = path.join(HERE, '../support/report-order-oracle')
const SEED = Number(process.env.TSDUMP_FC_SEED ?? 20261201)

// Kafka 3.9.1 ships Scala 2.13.15; any 2.13 has the same mutable.HashMap. SCALA_LIBRARY_JAR overrides.
function findScalaLibrary(): string | null {
  if (process.env.SCALA_LIBRARY_JAR) return process.env.SCALA_LIBRARY_JAR
  const m2 = path.join(os.homedir(), '.m2/repository/org/scala-lang/scala-library')
  if (!fs.existsSync(m2)) return null
  const versions = fs
    .readdirSync(m2)
    .filter((v) => v.startsWith('2.13.'))
    .sort()
    .reverse()
  for (const v of ['2.13.15', ...versions]) {
    const jar = path.join(m2, v, `scala-library-${v}.jar`)
    if (fs.existsSync(jar)) return jar
  }
  return null
}

const noJdk = jdkMissing()
const scalaJar = noJdk ? null : findScalaLibrary()
if (noJdk) console.log(`report-order oracle tests skipped: ${noJdk}`)
else if (!scalaJar)
  console.log('report-order Scala oracle skipped: no scala-library 2.13 jar in ~/.m2 (set SCALA_LIBRARY_JAR)')

let java: Oracle | undefined
let scala: Oracle | undefined
beforeAll(() => {
  if (noJdk) return
  java = compileOracle([path.join(SRC, 'JavaOrder.java')])
  if (scalaJar) scala = compileOracle([path.join(SRC, 'ScalaOrder.java')], [scalaJar])
})
afterAll(() => {
  removeOracle(java)
  removeOracle(scala)
})

// call sequences as the report maps see them: absolute segment paths, one call per recorded entry
const pathArb = fc
  .tuple(
    fc.constantFrom('/var/lib/kafka/data', '/work/x/logs', '/tmp/k'),
    fc.string({ minLength: 1, maxLength: 8, unit: 'grapheme-ascii' }),
    fc.nat(40),
    fc.bigInt({ min: 0n, max: 99999n }),
  )
  .map(
    ([root, topic, p, base]) =>
      `${root}/${topic.replace(/[,\n\r]/g, '_')}-${p}/${base.toString().padStart(20, '0')}.log`,
  )
const callsArb = fc
  .tuple(fc.uniqueArray(pathArb, { minLength: 1, maxLength: 60 }), fc.array(fc.nat(), { maxLength: 60 }))
  .map(([keys, picks]) => {
    // every key once, in order, with repeats of already-seen keys in between (more calls than keys)
    const calls: string[] = []
    keys.forEach((k, i) => {
      calls.push(k)
      const r = picks[i]
      if (r !== undefined && r % 3 === 0) calls.push(keys[r % (i + 1)]!)
    })
    return calls
  })

function expectOrders(o: Oracle | undefined, cls: string, model: (calls: string[]) => string[]): void {
  const inputs = fc.sample(callsArb, { seed: SEED, numRuns: 400 })
  const real = runOracle(o!, cls, inputs.map((c) => c.join(',')).join('\n') + '\n').split('\n')
  const bad = inputs.map((c, i) => [c, real[i]!] as const).filter(([c, r]) => model(c).join(',') !== r)
  expect(bad.slice(0, 3)).toEqual([])
}

describe('javaStringHashCode', () => {
  it('is String#hashCode', () => {
    expect(javaStringHashCode('')).toBe(0)
    expect(javaStringHashCode('a')).toBe(97)
    expect(javaStringHashCode('hello')).toBe(99162322)
    expect(javaStringHashCode('polygenelubricants')).toBe(-2147483648)
  })
})

describe.skipIf(noJdk !== null)('report file order equals the real hash maps', () => {
  it('reproduces 4.3.1 on the compacted fixture (…056, …040, …000: computeIfAbsent links new keys at the bucket head)', () => {
    // the absolute paths of that run (versions-out/4.3/compacted/runs.json)
    const dir = '/work/wt/versions/fixtures/broker/compacted/logs/compacted-0/'
    const keys = ['00000000000000000000.log', '00000000000000000040.log', '00000000000000000056.log'].map(
      (f) => dir + f,
    )
    expect(javaHashMapOrder(keys).map((k) => k.slice(-9))).toEqual(['00056.log', '00040.log', '00000.log'])
    expect(scalaMutableHashMapOrder(keys.slice(0, 2)).map((k) => k.slice(-9))).toEqual(['00000.log', '00040.log'])
  })
  it(`java.util.HashMap after computeIfAbsent calls (Kafka 4.3+; fast-check seed ${SEED})`, () => {
    expectOrders(java, 'JavaOrder', javaHashMapOrder)
  })
  it.skipIf(!scalaJar)('scala.collection.mutable.HashMap after put calls (Kafka 3.9-4.2)', () => {
    expectOrders(scala, 'ScalaOrder', scalaMutableHashMapOrder)
  })
})
