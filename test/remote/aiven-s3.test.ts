// Aiven's layout through s3:// from a real S3 API server (moto), and remote storage that misbehaves: a GET that never
// answers costs the retry budget (TSDUMP_S3_*_MS, made short here) and ends as that object's finding, with the rest
// printed. Truth: the Java consumers' counts in the fixtures' expected.json.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { FIXTURES_44 } from '../support/paths.js'
import { spawnCli } from '../support/spawn-cli.js'
import {
  motoServerMissing,
  startFaultProxy,
  startS3Server,
  uploadTree,
  type FaultProxy,
  type S3TestServer,
} from '../support/s3-server.js'

const missing = motoServerMissing()
if (missing !== null && process.env.CI === 'true') throw new Error(`S3 tests cannot run under CI: ${missing}`)
const dirOf = (v: string): string => path.join(FIXTURES_44, `tiered-aiven-${v}`)
const KEY = path.join(dirOf('encrypted'), 'keys/private.pem')

interface JsonPartition {
  topic: string
  partition: number
  readCommitted: number
  readUncommitted: number
  findings: Array<{ code: string; file?: string; message: string }>
}

const tsdump = spawnCli

describe.skipIf(missing !== null)('Aiven layouts through s3:// (moto, with the fault proxy)', () => {
  const BUCKET = 'tsdump-aiven'
  let server: S3TestServer
  let proxy: FaultProxy
  let env: Record<string, string>
  beforeAll(async () => {
    server = await startS3Server()
    for (const v of ['plain', 'zstd', 'encrypted'])
      await uploadTree(server.client, BUCKET, path.join(dirOf(v), 'remote'), `${v}/`)
    proxy = await startFaultProxy(server.endpoint)
    env = { ...server.env, AWS_ENDPOINT_URL: proxy.endpoint }
  }, 120_000)
  afterEach(() => {
    proxy.setRules([])
    proxy.requests.length = 0
  })
  afterAll(async () => {
    await proxy?.stop()
    await server?.stop()
  })

  for (const v of ['plain', 'zstd', 'encrypted']) {
    it(`${v}: reconcile and remote give the Java consumers' counts and no missing segment`, async () => {
      const expected = (
        JSON.parse(fs.readFileSync(path.join(dirOf(v), 'expected.json'), 'utf8')) as {
          tiered: { partitions: Array<{ readCommittedRecords: number; readUncommittedRecords: number }> }
        }
      ).tiered.partitions[0]!
      const flags = ['--remote-storage', `s3://${BUCKET}/${v}/`, ...(v === 'encrypted' ? ['--remote-key', KEY] : [])]
      const r = await tsdump(['reconcile', path.join(dirOf(v), 'logs/tiered-0'), ...flags, '--json'], env)
      expect(r.code, r.stderr).toBe(0)
      const p = (JSON.parse(r.stdout) as { partitions: JsonPartition[] }).partitions[0]!
      expect([p.readCommitted, p.readUncommitted]).toEqual([
        expected.readCommittedRecords,
        expected.readUncommittedRecords,
      ])
      const rem = await tsdump(['remote', path.join(dirOf(v), 'logs'), ...flags], env)
      expect(rem.code, rem.stderr).toBe(0)
      expect(rem.stderr).not.toMatch(/REMOTE_SEGMENT_MISSING/)
      // only ranges of the .log objects are fetched
      for (const g of proxy.requests.filter(
        (q) => q.method === 'GET' && q.url.includes('.log?') === false && q.url.endsWith('.log'),
      ))
        expect(g.range).toMatch(/^bytes=\d+-\d+$/)
    }, 60_000)
  }

  it("a GET that never answers costs the retry budget, then is that object's finding; the rest is printed", async () => {
    proxy.setRules([
      {
        match: (q) => q.method === 'GET' && q.url.includes('00000000000000000009-') && q.url.includes('.log'),
        fault: { stall: true },
      },
    ])
    const budget = {
      TSDUMP_S3_REQUEST_TIMEOUT_MS: '400',
      TSDUMP_S3_RETRY_BUDGET_MS: '2000',
      TSDUMP_S3_CONNECT_TIMEOUT_MS: '1000',
    }
    const started = Date.now()
    const r = await tsdump(
      ['reconcile', path.join(dirOf('zstd'), 'logs/tiered-0'), '--remote-storage', `s3://${BUCKET}/zstd/`, '--json'],
      { ...env, ...budget },
    )
    console.log(`stalled GET: reconcile finished in ${Date.now() - started} ms with a 2000 ms retry budget`)
    expect(r.stderr).not.toMatch(/internal error/)
    expect(r.code, r.stderr).toBe(1)
    const p = (JSON.parse(r.stdout) as { partitions: JsonPartition[] }).partitions[0]!
    const f = p.findings.find((x) => x.code === 'REMOTE_UNREADABLE')
    expect(f?.file).toMatch(/00000000000000000009-dD80p5CTQuO8ByuEYSOfMw\.log$/)
    expect(f?.message).toMatch(/no answer within|retry budget/)
    // segment 5..8 and the local segments were read
    expect(p.readUncommitted).toBeGreaterThan(0)
    expect(proxy.requests.filter((q) => q.injected === 'stall').length).toBeGreaterThanOrEqual(2)
  }, 60_000)
})
