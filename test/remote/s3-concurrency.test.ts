// --remote-concurrency changes how many ranged GETs are in flight, never the answer: reconcile and txns through
// s3:// (moto) at 1, 8 and 32 GETs at once print the same bytes, and reconcile's counts are the Java consumers'
// (the tiered fixture's expected.json tiered.partitions, and Aiven's plain and zstd layouts).
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseRemoteConcurrency } from '../../src/cli/options.js'
import { runReconcile } from '../../src/commands/reconcile.js'
import { closeRemoteStores } from '../../src/io/remote/store.js'
import { testContext } from '../hostile/support.js'
import { FIXTURES_44 } from '../support/paths.js'
import { spawnCli } from '../support/spawn-cli.js'
import { motoServerMissing, startS3Server, uploadTree, type S3TestServer } from '../support/s3-server.js'

const missing = motoServerMissing()
if (missing !== null && process.env.CI === 'true') throw new Error(`S3 tests cannot run under CI: ${missing}`)
if (missing !== null) console.log(`skipping the S3 concurrency tests: ${missing}`)

const tsdump = spawnCli

interface Expected {
  topic: string
  partition: number
  readCommittedRecords: number
  readUncommittedRecords: number
}
const CASES = [
  { name: 'tiered', prefix: 'local/' },
  { name: 'tiered-aiven-plain', prefix: 'aiven-plain/' },
  { name: 'tiered-aiven-zstd', prefix: 'aiven-zstd/' },
]

describe('--remote-concurrency', () => {
  it('takes 1 to 32 GETs at once, nothing else', () => {
    expect(parseRemoteConcurrency('1')).toBe(1)
    expect(parseRemoteConcurrency('32')).toBe(32)
    for (const bad of ['0', '33', '2.5', 'x']) expect(() => parseRemoteConcurrency(bad)).toThrow(/integer from 1 to 32/)
  })
})

describe.skipIf(missing !== null)('--remote-concurrency does not change the answers (s3:// on moto)', () => {
  const BUCKET = 'tsdump-concurrency'
  let server: S3TestServer
  beforeAll(async () => {
    server = await startS3Server()
    await uploadTree(server.client, BUCKET, path.join(FIXTURES_44, CASES[0]!.name, 'remote'), CASES[0]!.prefix)
    for (const c of CASES.slice(1))
      await uploadTree(server.client, BUCKET, path.join(FIXTURES_44, c.name, 'remote'), c.prefix).catch(async () => {
        // the bucket exists after the first upload: put the rest without creating it again
        const { PutObjectCommand } = await import('@aws-sdk/client-s3')
        const dir = path.join(FIXTURES_44, c.name, 'remote')
        for (const f of fs.readdirSync(dir, { recursive: true }) as string[]) {
          if (fs.statSync(path.join(dir, f)).isFile())
            await server.client.send(
              new PutObjectCommand({ Bucket: BUCKET, Key: c.prefix + f, Body: fs.readFileSync(path.join(dir, f)) }),
            )
        }
      })
  }, 120_000)
  afterAll(async () => {
    await server?.stop()
  })

  it("partition worker threads open the S3 store without listing it (each file carries its size; the tree's kafka-tiered-storage/ level found from one key): the same answer as one thread", async () => {
    const logs = path.join(FIXTURES_44, 'tiered', 'logs')
    const saved = { ...process.env }
    // the S3 I/O threads take their endpoint and credentials from the environment they start with
    Object.assign(process.env, server.env)
    const run = async (threads: number): Promise<{ code: number; out: string; workers: number }> => {
      const ctx = testContext()
      let workers = 0
      try {
        const code = await runReconcile(
          {
            paths: [logs],
            format: 'json',
            remote: `s3://${BUCKET}/local/`,
            threads,
            workerInternals: { minBytes: 0, onWorkers: (n) => (workers = n) },
          },
          ctx,
        )
        return { code, out: ctx.stdout.text, workers }
      } finally {
        closeRemoteStores()
      }
    }
    try {
      const one = await run(1)
      const two = await run(2)
      expect(two.workers).toBe(2)
      expect(one.code).toBe(0)
      expect(two.out).toBe(one.out)
      expect(one.out).toMatch(/"readCommitted":7,"readUncommitted":20/)
    } finally {
      for (const k of Object.keys(server.env)) if (saved[k] === undefined) delete process.env[k]
      Object.assign(process.env, saved)
    }
  }, 120_000)

  for (const c of CASES) {
    it(`${c.name}: reconcile and txns print the same at 1, 8 and 32, with the Java consumers' counts`, async () => {
      const dir = path.join(FIXTURES_44, c.name)
      const expected = (
        JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8')) as { tiered: { partitions: Expected[] } }
      ).tiered.partitions
      const logs = path.join(dir, 'logs')
      for (const cmd of ['reconcile', 'txns']) {
        const outs: string[] = []
        for (const n of ['1', '8', '32']) {
          const r = await tsdump(
            [cmd, '--json', logs, '--remote-storage', `s3://${BUCKET}/${c.prefix}`, '--remote-concurrency', n],
            server.env,
          )
          expect(r.code, r.stderr).toBeLessThan(2)
          outs.push(r.stdout)
        }
        expect(outs[1], `${cmd} at 8`).toBe(outs[0])
        expect(outs[2], `${cmd} at 32`).toBe(outs[0])
        if (cmd !== 'reconcile') continue
        const parts = outs[0]!
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .flatMap((o) =>
            Array.isArray(o.partitions)
              ? (o.partitions as Array<Record<string, unknown>>)
              : typeof o.partition === 'number'
                ? [o]
                : [],
          )
        for (const e of expected) {
          const p = parts.find((x) => x.topic === e.topic && x.partition === e.partition)
          expect(p, `${e.topic}-${e.partition}`).toBeDefined()
          expect([Number(p!.readCommitted), Number(p!.readUncommitted)], `${e.topic}-${e.partition}`).toEqual([
            e.readCommittedRecords,
            e.readUncommittedRecords,
          ])
        }
      }
    }, 120_000)
  }
})
