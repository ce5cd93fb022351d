// A partition's remote segments are planned when its scan starts and not kept after it (scan/remote-segments.ts):
// on the tiered fixture (a 4.4.0 broker with Kafka's LocalTieredStorage, its __remote_log_metadata beside the
// partitions), nothing per remote segment is on a partition before or after its scan, and the scan of the partition
// as resolved gives the same report as the scan of its remote segments prepended at once. The answers themselves
// are held to the Java consumers' counts by tiered-reconcile.test.ts.
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { closeRemoteStores } from '../../src/io/remote/store.js'
import { resolvePartitions } from '../../src/scan/partition-paths.js'
import { scanPartition } from '../../src/scan/partition-scan.js'
import { hasRemoteSegments, withRemoteSegments } from '../../src/scan/remote-segments.js'
import { FIXTURES_44 } from '../support/paths.js'

const FIXTURE = path.join(FIXTURES_44, 'tiered')
const LOGS = path.join(FIXTURE, 'logs')
const remote = { storage: path.join(FIXTURE, 'remote') }
afterAll(() => closeRemoteStores())

const remoteFiles = (files: ReadonlyArray<{ remote?: unknown }>): number => files.filter((f) => f.remote).length
const json = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x))

describe('remote segments planned per partition', () => {
  const { partitions, unusable } = resolvePartitions([LOGS], remote)
  const tiered = partitions.filter((p) => remoteFiles(withRemoteSegments(p).files) > 0)

  it('resolved: no remote file on any partition, and the partitions that may have remote segments are known', () => {
    expect(unusable).toEqual([])
    // a partition with a local segment is scanned anyway: its storage is listed once, when its scan starts
    // (tiered-kept-0 kept its segments locally); tiered-0 and tiered-1 have segments only in remote storage, known by
    // their listing before the scan (a partition with none there would not be scanned)
    expect(partitions.filter((p) => hasRemoteSegments(p)).map((p) => path.basename(p.path))).toEqual([
      'tiered-0',
      'tiered-1',
      'tiered-kept-0',
    ])
    expect(tiered.map((p) => path.basename(p.path)).sort()).toEqual(['tiered-0', 'tiered-1'])
    for (const p of partitions) {
      expect(remoteFiles(p.files)).toBe(0)
      expect(p.remoteNotes).toBeUndefined()
    }
  })

  it('withRemoteSegments: the remote .log files first, in offset order, below the first local segment', () => {
    for (const p of tiered) {
      const all = withRemoteSegments(p)
      const logs = all.files.filter((f) => f.kind === 'log')
      const remoteLogs = logs.filter((f) => f.remote !== undefined)
      expect(remoteLogs.length).toBeGreaterThan(0)
      expect(logs.slice(0, remoteLogs.length)).toEqual(remoteLogs)
      const bases = remoteLogs.map((f) => f.baseOffset!)
      expect([...bases].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(bases)
      const firstLocal = logs[remoteLogs.length]?.baseOffset
      if (firstLocal != null) for (const b of bases) expect(b < firstLocal).toBe(true)
      // made again, the same files: nothing of the first plan was kept or consumed
      expect(json(withRemoteSegments(p).files)).toBe(json(all.files))
      expect(remoteFiles(p.files)).toBe(0)
    }
  })

  it('scanned: the same report as the remote segments prepended at once, and only the first remote file kept', () => {
    for (const p of tiered) {
      const planned = scanPartition(p, new Map(), { remote })
      const eager = scanPartition(withRemoteSegments(p), new Map(), { remote })
      expect(json(planned.report)).toBe(json(eager.report))
      expect(remoteFiles(planned.dir.files)).toBe(1)
      expect(planned.dir.files[0]).toEqual(withRemoteSegments(p).files[0])
      // the kept partition gives its remote segments again (report's list of its inputs)
      expect(json(withRemoteSegments(planned.dir).files)).toBe(json(withRemoteSegments(p).files))
      expect(remoteFiles(p.files)).toBe(0)
    }
  })
})
