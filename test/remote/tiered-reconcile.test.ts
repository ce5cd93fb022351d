// Issue #23's done-when: on the tiered fixture (a 4.4.0 broker with Kafka's LocalTieredStorage), reconcile over
// the local segments and the remote ones equals what Java consumers read from the earliest offset
// (expected.json tiered.partitions), while the local segments alone do not; the same through s3:// from moto,
// and through 403, 404, 503 SlowDown and a connection cut mid-body (test/support/s3-server.ts's fault proxy).
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { reconcile } from '../../src/commands/reconcile.js'
import { remoteInventory } from '../../src/commands/remote.js'
import { closeRemoteStores } from '../../src/io/remote/store.js'
import { FIXTURES_44 } from '../support/paths.js'
import { runCli } from '../support/run-cli.js'
import { spawnCli } from '../support/spawn-cli.js'
import {
  motoServerMissing,
  startFaultProxy,
  startS3Server,
  uploadTree,
  type FaultProxy,
  type S3TestServer,
} from '../support/s3-server.js'

const FIXTURE = path.join(FIXTURES_44, 'tiered')
const LOGS = path.join(FIXTURE, 'logs')
const REMOTE = path.join(FIXTURE, 'remote')
interface Expected {
  topic: string
  partition: number
  readCommittedRecords: number
  readUncommittedRecords: number
  logStartOffset: number
  earliestLocalOffset: number
}
const expected = (
  JSON.parse(fs.readFileSync(path.join(FIXTURE, 'expected.json'), 'utf8')) as { tiered: { partitions: Expected[] } }
).tiered.partitions
const partitionPaths = expected.map((e) => path.join(LOGS, `${e.topic}-${e.partition}`))

function counts(r: ReturnType<typeof reconcile>): Record<string, [number, number]> {
  return Object.fromEntries(
    r.partitions.map((p) => [p.label, [Number(p.report.readCommitted), Number(p.report.readUncommitted)]]),
  )
}
const javaCounts = Object.fromEntries(
  expected.map((e) => [`${e.topic}-${e.partition}`, [e.readCommittedRecords, e.readUncommittedRecords]]),
)

describe('reconcile over local + remote segments (directory)', () => {
  it('the fixture has partitions whose older segments are remote only, and one that kept them locally', () => {
    expect(expected.some((e) => e.earliestLocalOffset > e.logStartOffset)).toBe(true)
    expect(expected.some((e) => e.earliestLocalOffset === e.logStartOffset)).toBe(true)
  })

  it('local alone misses the remote records of the tiered partitions', () => {
    const local = counts(reconcile(partitionPaths))
    for (const e of expected) {
      const label = `${e.topic}-${e.partition}`
      if (e.earliestLocalOffset > e.logStartOffset) expect(local[label], label).not.toEqual(javaCounts[label])
      else expect(local[label], label).toEqual(javaCounts[label])
    }
  })

  it('local + remote equals the Java consumers for every partition, with no error finding', () => {
    const r = reconcile(partitionPaths, { remote: REMOTE })
    expect(counts(r)).toEqual(javaCounts)
    for (const p of r.partitions)
      expect(
        p.report.findings.filter((f) => f.severity === 'error'),
        p.label,
      ).toEqual([])
  })

  it('the broker log directory as the path (metadata from __remote_log_metadata beside the partitions) gives the same', () => {
    const r = reconcile([LOGS], { remote: REMOTE })
    const c = counts(r)
    for (const [label, v] of Object.entries(javaCounts)) expect(c[label], label).toEqual(v)
  })

  it("report --remote-storage draws each lane with the Java consumers' counts", async () => {
    const tmp = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'tsdump-tiered-report-'))
    try {
      const out = path.join(tmp, 'r.html')
      const r = await runCli(['report', ...partitionPaths, '--remote-storage', REMOTE, '-o', out])
      // the fixture's transactions still open are hanging at the tests' clock, as lso says: exit 1, and nothing else found
      expect(r.code, r.stderr).toBe((await runCli(['lso', ...partitionPaths, '--remote-storage', REMOTE])).code)
      const problems = r.stderr.split('\n').filter((l) => /^tsdump: (warning|error)/.test(l))
      expect(
        problems.every((l) => l.endsWith('[TXN_HANGING]')),
        r.stderr,
      ).toBe(true)
      const html = fs.readFileSync(out, 'utf8')
      for (const [label, [committed, uncommitted]] of Object.entries(javaCounts)) {
        expect(html).toMatch(
          new RegExp(
            `data-partition="${label}"[^>]*data-read-committed="${committed}" data-read-uncommitted="${uncommitted}"`,
          ),
        )
      }
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true })
    }
  })

  it('without __remote_log_metadata the storage is listed instead, and the finding says so', () => {
    const tmp = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'tsdump-tiered-'))
    try {
      // the partition directories alone in a log directory of their own (links: nothing copied or written in the fixture)
      for (const p of partitionPaths) fs.symlinkSync(p, path.join(tmp, path.basename(p)))
      const r = reconcile([tmp], { remote: REMOTE })
      expect(counts(r)).toEqual(javaCounts)
      const tiered = r.partitions.filter(
        (p) => expected.find((e) => `${e.topic}-${e.partition}` === p.label)!.earliestLocalOffset > 0,
      )
      for (const p of tiered) expect(p.report.findings.map((f) => f.code)).toContain('REMOTE_BY_LISTING')
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true })
    }
  })
})

const missing = motoServerMissing()
if (missing !== null && process.env.CI === 'true') throw new Error(`S3 tests cannot run under CI: ${missing}`)

interface JsonPartition {
  topic: string
  partition: number
  readCommitted: number
  readUncommitted: number
  findings: Array<{ code: string; file?: string; message: string }>
}

/** the CLI's --json in a child process (test/support/spawn-cli.ts: the fault proxy serves from this thread) */
async function tsdumpJson(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stderr: string; partitions: JsonPartition[] }> {
  const { code, stdout, stderr } = await spawnCli([...args, '--json'], env)
  return {
    code,
    stderr,
    partitions: stdout === '' ? [] : (JSON.parse(stdout) as { partitions: JsonPartition[] }).partitions,
  }
}
const jsonCounts = (ps: JsonPartition[]): Record<string, [number, number]> =>
  Object.fromEntries(ps.map((p) => [`${p.topic}-${p.partition}`, [p.readCommitted, p.readUncommitted]]))

describe.skipIf(missing !== null)('reconcile through s3:// (moto, with the fault proxy)', () => {
  const BUCKET = 'tsdump-tiered-reconcile'
  const PREFIX = 'cluster-a/'
  const spec = `s3://${BUCKET}/${PREFIX}`
  let server: S3TestServer
  let proxy: FaultProxy
  let env: Record<string, string>
  const run = async (): Promise<Awaited<ReturnType<typeof tsdumpJson>>> =>
    await tsdumpJson(['reconcile', ...partitionPaths, '--remote-storage', spec], env)

  beforeAll(async () => {
    server = await startS3Server()
    await uploadTree(server.client, BUCKET, REMOTE, PREFIX)
    proxy = await startFaultProxy(server.endpoint)
    // tsdump's I/O thread takes the SDK's default credential chain and AWS_ENDPOINT_URL from the environment
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

  const segmentGet =
    (name: string) =>
    (r: { method: string; url: string }): boolean =>
      r.method === 'GET' && r.url.includes(name)

  it("gives the Java consumers' counts, as the directory does, in ranged GETs", async () => {
    const r = await run()
    expect(r.code, r.stderr).toBe(0)
    expect(jsonCounts(r.partitions)).toEqual(javaCounts)
    const gets = proxy.requests.filter((q) => q.method === 'GET' && q.url.includes('.log'))
    expect(gets.length).toBe(4) // tiered-0 and tiered-1: segments B and C each; tiered-kept-0 reads its local copies
    for (const g of gets) expect(g.range).toMatch(/^bytes=0-\d+$/)
  }, 60_000)

  it('503 SlowDown (throttling) twice on a segment: retried with backoff, the same counts', async () => {
    proxy.setRules([{ match: segmentGet('.log'), fault: { status: 503, code: 'SlowDown' }, times: 2 }])
    const r = await run()
    expect(jsonCounts(r.partitions)).toEqual(javaCounts)
    expect(proxy.requests.filter((q) => q.injected === '503 SlowDown').length).toBe(2)
  }, 60_000)

  it('a connection cut in the middle of a ranged GET: the range is fetched again, the same counts', async () => {
    proxy.setRules([{ match: segmentGet('00000000000000000009-'), fault: { cut: true, afterBytes: 100 }, times: 1 }])
    const r = await run()
    expect(jsonCounts(r.partitions)).toEqual(javaCounts)
    expect(proxy.requests.filter((q) => q.injected === 'cut after 100').length).toBe(1)
  }, 60_000)

  it('tsdump remote through s3:// lists the segments, states and stored sizes the directory gives', async () => {
    const dir = remoteInventory([LOGS], REMOTE)
    closeRemoteStores()
    const { code, stdout: out } = await spawnCli(['remote', LOGS, '--remote-storage', spec, '--json'], env)
    expect(code).toBe(0)
    type Row = {
      segmentId: string
      state: string | null
      storedBytes: number | null
      verdict: string
      key: string | null
    }
    const s3 = (JSON.parse(out) as { partitions: Array<{ topic: string; partition: number; segments: Row[] }> })
      .partitions
    const view = (ps: Array<{ topic: string; partition: number; segments: Row[] }>): unknown =>
      ps.map((p) => ({
        p: `${p.topic}-${p.partition}`,
        s: p.segments.map((x) => [x.segmentId, x.state, x.storedBytes, x.verdict]),
      }))
    expect(view(s3)).toEqual(view(dir.partitions as never))
    for (const row of s3.flatMap((p) => p.segments))
      if (row.key !== null) expect(row.key).toMatch(new RegExp(`^${spec}kafka-tiered-storage/`))
  }, 60_000)

  for (const [status, code] of [
    [403, 'AccessDenied'],
    [404, 'NoSuchKey'],
  ] as const) {
    it(`${status} ${code} on one segment: an error naming its key, the other segments still read`, async () => {
      const victim = '00000000000000000009-zw47iivYQIWEaW4Ax5y0nA.log' // tiered-0's remote segment C
      proxy.setRules([{ match: segmentGet(victim), fault: { status, code } }])
      const r = await run()
      expect(r.code).toBe(1)
      const c = jsonCounts(r.partitions)
      const t0 = r.partitions.find((p) => p.topic === 'tiered' && p.partition === 0)!
      const err = t0.findings.find((f) => f.code === 'REMOTE_UNREADABLE')
      expect(err?.file).toContain(victim)
      expect(err?.message).toContain(`HTTP ${status} ${code}`)
      // no retry of a 4xx
      expect(proxy.requests.filter((q) => q.url.includes(victim)).length).toBe(1)
      expect(c['tiered-0']).not.toEqual(javaCounts['tiered-0'])
      // segment B of tiered-0 was still read: more than the local segments alone give
      expect(c['tiered-0']![1]).toBeGreaterThan(counts(reconcile([partitionPaths[0]!]))['tiered-0']![1])
      expect(c['tiered-1']).toEqual(javaCounts['tiered-1'])
      expect(c['tiered-kept-0']).toEqual(javaCounts['tiered-kept-0'])
    }, 60_000)
  }
})
