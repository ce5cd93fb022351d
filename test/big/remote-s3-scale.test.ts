// `reconcile --json --remote-storage s3://…` over many partitions of remote segments from a real S3 API server
// (moto's, as test/remote starts it), held to 128 MiB peak RSS as the big tier holds every command: 1,000 partitions
// of 2 remote segments (2,000 objects; bench/make-remote.mjs, LocalTieredStorage's layout, found by listing), where
// the builds before the per-partition read plans peaked at 164 MiB with 1,000 partitions of the tiered fixture's two
// segments (bench/RESULTS.md). What grows is the partition count, not the segments: 1,000 x 10 peaked at 114 MiB here,
// 1,000 x 30 at 118-122, and took minutes more of moto's time. TSDUMP_BIG_S3_PARTITIONS and TSDUMP_BIG_S3_SEGMENTS
// set the shape.
//
// The answers are the generator's own: every partition listed, each with its remote segments found by listing and the
// records it wrote (2 a segment, none transactional) read by both consumers.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { remoteSegmentsTree } from '../../bench/make-remote.mjs'
import { rmrf, tmp } from '../hostile/support.js'
import { motoServerMissing, startS3Server } from '../support/s3-server.js'
import { runWithPeakRssAsync } from './peak-rss.js'
import type { ReconcilePartitionJson as Partition } from './reconcile-json.js'
import { PutObjectCommand, CreateBucketCommand } from '@aws-sdk/client-s3'

const P = Number(process.env.TSDUMP_BIG_S3_PARTITIONS ?? 1000)
const S = Number(process.env.TSDUMP_BIG_S3_SEGMENTS ?? 2)
const BUCKET = 'tsdump-big'
const missing = motoServerMissing()
// CI installs moto before the big tier (.ci/run): a skip there would hide the bound
if (missing !== null && process.env.CI === 'true') throw new Error(`the S3 scale test cannot run under CI: ${missing}`)

const dir = tmp('tsdump-big-s3-')
afterAll(() => rmrf(dir))

describe(`reconcile from S3 (moto): ${P} partitions x ${S} remote segments`, () => {
  const run: { r?: Awaited<ReturnType<typeof runWithPeakRssAsync>>; out?: string } = {}
  let expected: ReturnType<typeof remoteSegmentsTree>['expected'] | undefined

  it("every partition's remote segments found and read: the generator's counts", async (ctx) => {
    if (missing !== null) {
      console.log(`skipping the S3 scale test: ${missing}`)
      ctx.skip()
      return
    }
    const tree = remoteSegmentsTree(path.join(dir, 'tree'), { partitions: P, segments: S })
    expected = tree.expected
    const server = await startS3Server()
    try {
      await server.client.send(new CreateBucketCommand({ Bucket: BUCKET }))
      const files = (fs.readdirSync(tree.remote, { recursive: true }) as string[]).filter((f) =>
        fs.statSync(path.join(tree.remote, f)).isFile(),
      )
      // a few PUTs at a time: moto is one process
      let next = 0
      const put = async (): Promise<void> => {
        while (next < files.length) {
          const f = files[next++]!
          const Body = fs.readFileSync(path.join(tree.remote, f))
          await server.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: f, Body }))
        }
      }
      await Promise.all(Array.from({ length: 8 }, put))
      expect(files.length).toBe(tree.objects)
      run.out = path.join(dir, 'reconcile.json')
      run.r = await runWithPeakRssAsync(
        ['reconcile', '--json', tree.logs, '--remote-storage', `s3://${BUCKET}/`],
        run.out,
        server.env,
      )
    } finally {
      await server.stop()
    }
    // info findings only (segments found by listing, no indexes beside the local segments)
    expect(run.r.code, run.r.stderr).toBe(0)
    const j = JSON.parse(fs.readFileSync(run.out, 'utf8')) as { partitions: Partition[] }
    expect(j.partitions.length).toBe(expected.partitions)
    expect(j.partitions.map((p) => p.partition)).toEqual(Array.from({ length: P }, (_, i) => i))
    for (const p of j.partitions) {
      const at = `${p.topic}-${p.partition}`
      expect(p.topic, at).toBe(expected.topic)
      expect([p.readCommitted, p.readUncommitted, p.logEndOffset], at).toEqual([
        expected.readCommitted,
        expected.readUncommitted,
        expected.logEndOffset,
      ])
      const listed = p.findings.find((f) => f.code === 'REMOTE_BY_LISTING')
      expect(listed?.message, at).toContain(`the ${S} remote segments were found by listing s3://${BUCKET}/`)
      expect(
        p.findings.filter((f) => f.code.startsWith('REMOTE_') && f.code !== 'REMOTE_BY_LISTING'),
        at,
      ).toEqual([])
    }
  }, 600_000)

  it('peak RSS < 128 MiB', (ctx) => {
    if (run.r === undefined) {
      console.log(`skipping the S3 scale test's bound: ${missing ?? 'the run above did not finish'}`)
      ctx.skip()
      return
    }
    console.log(`reconcile from S3, ${P} x ${S}: peak RSS ${run.r.maxRssMiB.toFixed(1)} MiB`)
    expect(run.r.maxRssMiB).toBeLessThan(128)
  })
})
