// forceTerminateTransaction as lso, transactions and doctor offer it, from the metadata log's metadata.version
// (analysis/broker-release.ts): the level each real broker finalized is read from kafka-dump-log's stored
// --cluster-metadata-decoder text beside its fixture (fixtures/broker/kraft: 3.9.1, fixtures/broker-4.4/kraft: 4.4.0),
// the release it names is Kafka's MetadataVersion's, and the broker that wrote it is expected.json's kafkaVersion.
// The transaction is the streams-eos fixture's open one (4.4.0); its log dir is copied beside each metadata log, as a
// broker's own log dir holds both (the 3.9.1 pairing tests the rule's older branch on a real 3.9.1 metadata log).
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { forceTerminateAdvice, metadataVersionRelease } from '../../src/analysis/broker-release.js'
import { doctor } from '../../src/commands/doctor.js'
import { lso } from '../../src/commands/lso.js'
import { runTransactions } from '../../src/commands/transactions.js'
import { BrokerModel } from '../../src/scan/broker-model.js'
import { metadataVersionOf } from '../../src/scan/metadata-version.js'
import { runCommand } from '../support/txn-segment-builder.js'
import { FIXTURES, FIXTURES_44 } from '../support/paths.js'

const NOW = Date.parse('2026-12-06T18:00:00Z')
const TX = path.join(FIXTURES_44, 'streams-eos', 'logs')
const KRAFT = { '3.9.1': path.join(FIXTURES, 'kraft'), '4.4.0': path.join(FIXTURES_44, 'kraft') }

/** the newest metadata.version level in kafka-dump-log's stored text of the fixture's metadata log */
function dumpedLevel(fixture: string): number {
  const dir = path.join(fixture, 'dump', '__cluster_metadata-0')
  let level = -1
  for (const f of fs
    .readdirSync(dir)
    .filter((x) => x.endsWith('.log.metadata.txt'))
    .sort()) {
    for (const m of fs
      .readFileSync(path.join(dir, f), 'utf8')
      .matchAll(/"name":"metadata\.version","featureLevel":(\d+)/g))
      level = Number(m[1])
  }
  return level
}

const tmp: string[] = []
afterAll(() => {
  for (const d of tmp) fs.rmSync(d, { recursive: true, force: true })
})

/** a log dir holding the streams-eos partitions and, when given, a fixture's metadata log */
function logDir(kraft: string | null): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-force-'))
  tmp.push(d)
  fs.cpSync(TX, d, { recursive: true })
  if (kraft !== null)
    fs.cpSync(path.join(kraft, 'logs', '__cluster_metadata-0'), path.join(d, '__cluster_metadata-0'), {
      recursive: true,
    })
  return d
}

describe("the metadata log's metadata.version", () => {
  for (const [release, fixture] of Object.entries(KRAFT)) {
    it(`${release}: the level kafka-dump-log printed, naming the broker's release`, () => {
      const expected = JSON.parse(fs.readFileSync(path.join(fixture, 'expected.json'), 'utf8')) as {
        kafkaVersion: string
      }
      expect(expected.kafkaVersion).toBe(release)
      const level = metadataVersionOf(new BrokerModel([path.join(fixture, 'logs')]).metadataConfigs())
      expect(level).toBe(dumpedLevel(fixture))
      // a freshly formatted broker finalizes its own release's latest production metadata.version
      expect(metadataVersionRelease(level!)!.startsWith(release.split('.').slice(0, 2).join('.') + '-IV')).toBe(true)
    })
  }

  it('no metadata log: no level', () => {
    expect(metadataVersionOf(new BrokerModel([TX]).metadataConfigs())).toBeNull()
  })
})

describe('forceTerminateTransaction in lso, transactions and doctor', () => {
  const id = 'se-app-5989a5ee-4810-454f-8a4d-aa91754aa787-1'
  const cases = [
    { name: '4.4.0 metadata log', kraft: KRAFT['4.4.0'], release: '4.4-IV2', cluster: true },
    { name: '3.9.1 metadata log', kraft: KRAFT['3.9.1'], release: '3.9-IV0', cluster: null },
    { name: 'no metadata log', kraft: null, release: null, cluster: null },
  ] as const
  for (const c of cases) {
    it(c.name, async () => {
      const dir = logDir(c.kraft)
      const advice = forceTerminateAdvice(id, 'localhost:9092', c.kraft === null ? null : dumpedLevel(c.kraft))
      expect(advice.metadataVersion).toBe(c.release)
      expect(advice.clusterHasIt).toBe(c.cluster)
      // the tool's release is what matters: a 4.4.0 kafka-transactions.sh ended an open transaction on a 3.9.1 broker
      expect(advice.note).toContain('4.1+')
      if (c.cluster !== true) expect(advice.note).toContain('which any broker serves')
      const r = lso([dir], { now: NOW })
      const t = r.impact!.find((i) => i.transactionalId === id)!
      expect(t.forceTerminate).toBe(advice.command)
      expect(t.forceTerminateAdvice).toEqual(advice)
      const text = await runCommand(runTransactions, { paths: [dir], now: NOW })
      // wrapped at 80 columns: the words, whatever the line breaks
      expect(text.out.replace(/\s+/g, ' ')).toContain(`the whole transaction at once (${advice.note}):`)
      // the command cut between its arguments to fit 80 columns, each cut a shell continuation
      expect(text.out.replace(/ \\\n\s+/g, ' ')).toContain(`    ${advice.command}\n`)
      const d = doctor([dir], { now: NOW })
      const fixes = d.findings.flatMap((f) => f.remedy.fix).filter((x) => x.includes('forceTerminateTransaction'))
      expect(fixes.length).toBeGreaterThan(0)
      for (const x of fixes) expect(x).toBe(advice.command)
      // and the finding says which kafka-transactions.sh runs it
      for (const f of d.findings.filter((x) => x.remedy.fix.includes(advice.command!))) {
        expect(f.message).toContain(`forceTerminateTransaction ${advice.note}`)
      }
    })
  }
})
