// A remote segment's leader-epoch lineage (analysis/remote-epochs.ts): Kafka's own rule against Kafka's own cases
// (RemoteLogManagerTest.testBuildFilteredLeaderEpochMap, testRemoteSegmentWithinLeaderEpochs,
// testRemoteSegmentWithinLeaderEpochsForOverlappingSegments: the maps and the expected answers), the real brokers'
// tiered fixtures clean, and damaged copies made here: a batch's partitionLeaderEpoch rewritten (bytes 12..15 of the
// batch, outside the CRC; the batch's position from kafka-dump-log's stored text) and the partition's
// leader-epoch-checkpoint given an epoch the segments' lineages do not have.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { EpochStart } from '../../src/analysis/remote-epochs.js'
import { buildFilteredLeaderEpochMap, isRemoteSegmentWithinLeaderEpochs } from '../../src/analysis/remote-epochs.js'
import { reconcile } from '../../src/commands/reconcile.js'
import { closeRemoteStores } from '../../src/io/remote/store.js'
import { FIXTURES_44 } from '../support/paths.js'
import { runCli } from '../support/run-cli.js'

const map = (o: Record<number, number>): EpochStart[] =>
  Object.entries(o).map(([e, off]) => ({ epoch: Number(e), offset: BigInt(off) }))
const within = (seg: Record<number, number>, end: number, lineage: EpochStart[], leo: number): boolean =>
  isRemoteSegmentWithinLeaderEpochs(map(seg), BigInt(end), lineage, BigInt(leo)) === null

describe("Kafka's lineage rule, on RemoteLogManagerTest's cases", () => {
  it('buildFilteredLeaderEpochMap drops the epochs that start where the next one does', () => {
    expect(buildFilteredLeaderEpochMap(map({ 0: 0, 1: 0, 2: 0, 3: 30, 4: 40, 5: 60, 6: 60, 7: 70, 8: 70 }))).toEqual(
      map({ 2: 0, 3: 30, 4: 40, 6: 60, 8: 70 }),
    )
  })

  it('isRemoteSegmentWithinLeaderEpochs (testRemoteSegmentWithinLeaderEpochs)', () => {
    const lineage = map({ 0: 0, 1: 10, 2: 20, 3: 30, 4: 40, 5: 50, 7: 70 })
    const leo = 90
    expect(within({ 1: 15, 2: 20, 3: 30 }, 35, lineage, leo)).toBe(true)
    expect(within({ 1: 15 }, 19, lineage, leo)).toBe(true)
    expect(within({ 0: 0 }, 5, lineage, leo)).toBe(true)
    expect(within({ 7: 70 }, 75, lineage, leo)).toBe(true)
    expect(within({ 1: 15, 2: 20 }, 29, lineage, leo)).toBe(true)
    expect(within({ 5: 55, 6: 60, 7: 70 }, 85, lineage, leo)).toBe(false)
    expect(within({ 1: 15, 2: 20, 4: 40 }, 45, lineage, leo)).toBe(false)
    expect(within({ 0: 0, 1: 10, 2: 20, 3: 30, 4: 40, 5: 50, 7: 70 }, 95, lineage, leo)).toBe(false)
    expect(within({ 0: 0, 1: 10, 2: 20, 3: 30, 4: 40, 5: 50, 7: 70 }, 90, lineage, leo)).toBe(false)
    expect(within({ 1: 5, 2: 20 }, 25, lineage, leo)).toBe(false)
    expect(within({ 1: 15, 2: 20 }, 35, lineage, leo)).toBe(false)
  })

  it('isRemoteSegmentWithinLeaderEpochs (testRemoteSegmentWithinLeaderEpochsForOverlappingSegments)', () => {
    const cache = map({ 7: 51, 9: 100 })
    expect(within({ 5: 14, 7: 15, 9: 100 }, 150, cache, 210)).toBe(true)
    expect(within({ 2: 5, 3: 6 }, 7, cache, 210)).toBe(false)
    expect(within({ 7: 15, 9: 100, 10: 200 }, 250, cache, 210)).toBe(false)
    expect(within({ 8: 75 }, 100, cache, 210)).toBe(false)
    expect(within({ 7: 15, 9: 101 }, 150, cache, 210)).toBe(false)
    expect(within({ 9: 99 }, 150, cache, 210)).toBe(false)
  })
})

const tmpDirs: string[] = []
function tmp(): string {
  const d = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'tsdump-epochs-'))
  tmpDirs.push(d)
  return d
}
afterAll(() => {
  closeRemoteStores()
  for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true })
})

const TIERED = path.join(FIXTURES_44, 'tiered')
const lineageCodes = new Set(['REMOTE_EPOCHS_MISMATCH', 'REMOTE_OFFSETS_MISMATCH'])
const KEY = path.join(FIXTURES_44, 'tiered-aiven-encrypted', 'keys/private.pem')
const lineageFindings = (r: ReturnType<typeof reconcile>): string[] =>
  r.partitions.flatMap((p) =>
    p.report.findings.filter((f) => lineageCodes.has(f.code)).map((f) => `${f.code} ${f.file ?? ''}: ${f.message}`),
  )

describe('the tiered fixtures: every remote segment within its lineage', () => {
  it.each(['tiered', 'tiered-aiven-plain', 'tiered-aiven-zstd', 'tiered-aiven-encrypted', 'tiered-retention'])(
    '%s',
    (name) => {
      const dir = path.join(FIXTURES_44, name)
      const storage = path.join(dir, 'remote')
      const r = reconcile([path.join(dir, 'logs')], {
        remote: name.endsWith('encrypted') ? { storage, keyFile: KEY } : storage,
      })
      expect(r.unusable).toEqual([])
      // the segments were read with their metadata entries (the check ran), and none disagrees
      expect(r.partitions.flatMap((p) => p.report.findings).filter((f) => f.code === 'REMOTE_BY_LISTING')).toEqual([])
      expect(lineageFindings(r)).toEqual([])
    },
  )
})

/** the tiered fixture's logs and remote storage copied, to damage; tiered-0's remote segment of offsets 5..8 */
function copyTiered(): { logs: string; remote: string; seg5: string } {
  const d = tmp()
  fs.cpSync(path.join(TIERED, 'logs'), path.join(d, 'logs'), { recursive: true })
  fs.cpSync(path.join(TIERED, 'remote'), path.join(d, 'remote'), { recursive: true })
  const root = path.join(d, 'remote', 'kafka-tiered-storage')
  const part = fs.readdirSync(root).find((n) => n.startsWith('tiered-0-'))!
  const seg5 = path.join(
    root,
    part,
    fs.readdirSync(path.join(root, part)).find((n) => n.startsWith('00000000000000000005-') && n.endsWith('.log'))!,
  )
  return { logs: path.join(d, 'logs'), remote: path.join(d, 'remote'), seg5 }
}

/** the byte position of the batch of `baseOffset` in the segment, from kafka-dump-log's stored text of it */
function dumpedPosition(partitionDir: string, segment: string, baseOffset: number): number {
  const text = fs.readFileSync(
    path.join(TIERED, 'dump', 'remote-as-local', partitionDir, `${segment}.log.shallow.txt`),
    'utf8',
  )
  const m = new RegExp(`^baseOffset: ${baseOffset} .* position: (\\d+) `, 'm').exec(text)
  if (m === null) throw new Error(`no batch of base offset ${baseOffset} in the stored dump`)
  return Number(m[1])
}

describe('damaged copies', () => {
  const part = fs.readdirSync(path.join(TIERED, 'dump', 'remote-as-local')).find((n) => n.includes('_tiered-0-'))!

  it("a batch whose partitionLeaderEpoch is not its metadata entry's: REMOTE_EPOCHS_MISMATCH naming the object, offset and byte", async () => {
    const c = copyTiered()
    const at = dumpedPosition(part, '00000000000000000005', 7)
    const b = fs.readFileSync(c.seg5)
    expect(b.readBigInt64BE(at)).toBe(7n)
    // partitionLeaderEpoch: bytes 12..15 of the batch, before the CRC's range (attributes on)
    b.writeInt32BE(1, at + 12)
    fs.writeFileSync(c.seg5, b)
    const r = reconcile([path.join(c.logs, 'tiered-0')], { remote: c.remote })
    const f = r.partitions[0]!.report.findings.filter((x) => x.code === 'REMOTE_EPOCHS_MISMATCH')
    expect(f.map((x) => [x.file, x.position])).toEqual([[c.seg5, at]])
    expect(f[0]!.message).toMatch(/offset 7 .*leader epoch 1.*\{0=5, 1=7\}.*\{0=5\}/)
    // the offsets are the metadata's: only the lineage disagrees
    expect(r.partitions[0]!.report.findings.filter((x) => x.code === 'REMOTE_OFFSETS_MISMATCH')).toEqual([])
    const cli = await runCli(['reconcile', path.join(c.logs, 'tiered-0'), '--remote-storage', c.remote])
    expect(cli.code).toBe(1)
    expect(cli.stdout + cli.stderr).toMatch(/REMOTE_EPOCHS_MISMATCH/)
  })

  it("a leader-epoch-checkpoint whose lineage the metadata's does not follow: REMOTE_EPOCHS_MISMATCH for each segment it covers", () => {
    const c = copyTiered()
    const lec = path.join(c.logs, 'tiered-0', 'leader-epoch-checkpoint')
    expect(fs.readFileSync(lec, 'utf8')).toBe('0\n1\n0 5\n')
    // a leader of epoch 1 from offset 7: the remote segments 5..8 and 9..16 (epoch 0 throughout) run past epoch 0's end
    fs.writeFileSync(lec, '0\n2\n0 5\n1 7\n')
    const r = reconcile([path.join(c.logs, 'tiered-0')], { remote: c.remote })
    const f = r.partitions[0]!.report.findings.filter((x) => x.code === 'REMOTE_EPOCHS_MISMATCH')
    expect(f.map((x) => x.message)).toEqual([
      expect.stringMatching(/ends at offset 8, past epoch 0's end 6/),
      expect.stringMatching(/ends at offset 16, past epoch 0's end 6/),
    ])
    expect(f[0]!.file).toBe(c.seg5)
  })

  it('a leader-epoch-checkpoint that starts after a segment (truncated at the log start) is not compared with it', () => {
    const c = copyTiered()
    fs.writeFileSync(path.join(c.logs, 'tiered-0', 'leader-epoch-checkpoint'), '0\n1\n0 9\n')
    const r = reconcile([path.join(c.logs, 'tiered-0')], { remote: c.remote })
    expect(lineageFindings(r)).toEqual([])
  })
})
