// `tsdump dump` of the partition-level text files (#24 item 2): leader-epoch-checkpoint, partition.metadata,
// meta.properties and a log directory's offset checkpoints, against what the brokers wrote at their controlled
// shutdown as fixtures/broker-4.4/replicas-unclean/expected.json records it (copies[].highWatermark, recoveryPoint,
// logStartOffsetCheckpoint, cleanerOffsetCheckpoint, leaderEpochCheckpoint, topicId; dirs[].metaProperties), and
// damaged copies of them: each damage a finding at the line at fault.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { REPO_ROOT } from '../support/paths.js'

const UNCLEAN = path.join(REPO_ROOT, 'fixtures/broker-4.4/replicas-unclean')

interface Obj {
  type: string
  file?: string
  fileType?: string
  version?: number
  entries?: Array<Record<string, unknown>>
  topicId?: string
  properties?: Record<string, string>
  code?: string
  position?: number
  message?: string
}
interface Copy {
  dir: string
  highWatermark: number | null
  recoveryPoint: number | null
  logStartOffsetCheckpoint: number | null
  cleanerOffsetCheckpoint: number | null
  leaderEpochCheckpoint: number[][] | null
  topicId: string
}
const expected = JSON.parse(fs.readFileSync(path.join(UNCLEAN, 'expected.json'), 'utf8')) as {
  dirs: Array<{ dir: string; metaProperties: Record<string, string> }>
  replicaPartitions: Array<{ topic: string; partition: number; copies: Copy[] }>
}

/** a log directory's own files are dumped when named (a directory given dumps its partitions) */
const LOG_DIR_FILES = [
  'meta.properties',
  'replication-offset-checkpoint',
  'recovery-point-offset-checkpoint',
  'log-start-offset-checkpoint',
  'cleaner-offset-checkpoint',
]
const withOwnFiles = (dir: string): string[] => [...LOG_DIR_FILES.map((n) => path.join(dir, n)), dir]

async function dump(cwd: string, args: string[]): Promise<{ code: number; objs: Obj[]; stdout: string }> {
  const r = await runCli(['--json', ...args], { cwd })
  return {
    code: r.code,
    objs: r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Obj),
    stdout: r.stdout,
  }
}

describe('tsdump dump: partition-level files', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-partfiles-'))
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

  for (const d of expected.dirs) {
    it(`${d.dir}: every file as the broker wrote it (expected.json), exit 0`, async () => {
      const { code, objs } = await dump(UNCLEAN, withOwnFiles(d.dir))
      expect(
        objs.filter((o) => o.type === 'finding' && o.code !== 'ZERO_TAIL'),
        d.dir,
      ).toEqual([])
      expect(code).toBe(0)
      const file = (rel: string): Obj =>
        objs.find((o) => o.type === 'partition-file' && o.file === path.join(d.dir, rel))!
      expect(file('meta.properties').properties).toEqual(d.metaProperties)
      const entry = (name: string, topic: string, partition: number): unknown =>
        file(name).entries!.find((e) => e.topic === topic && e.partition === partition)?.offset ?? null
      for (const p of expected.replicaPartitions) {
        const c = p.copies.find((x) => x.dir === d.dir)!
        const where = `${d.dir} ${p.topic}-${p.partition}`
        expect(
          {
            hw: entry('replication-offset-checkpoint', p.topic, p.partition),
            recovery: entry('recovery-point-offset-checkpoint', p.topic, p.partition),
            logStart: entry('log-start-offset-checkpoint', p.topic, p.partition),
            cleaner: entry('cleaner-offset-checkpoint', p.topic, p.partition),
          },
          where,
        ).toEqual({
          hw: c.highWatermark,
          recovery: c.recoveryPoint,
          logStart: c.logStartOffsetCheckpoint,
          cleaner: c.cleanerOffsetCheckpoint,
        })
        expect(
          file(`${p.topic}-${p.partition}/leader-epoch-checkpoint`).entries!.map((e) => [e.epoch, e.startOffset]),
          where,
        ).toEqual(c.leaderEpochCheckpoint)
        expect(file(`${p.topic}-${p.partition}/partition.metadata`).topicId, where).toBe(c.topicId)
      }
    })
  }

  it('text: one head line per file, then its entries', async () => {
    const r = await runCli(['before/broker-1/unclean-2'], { cwd: UNCLEAN })
    expect(r.stdout).toContain(
      'Dumping before/broker-1/unclean-2/leader-epoch-checkpoint\nleader epoch cache version: 0 entries: 2\nepoch: 0 startOffset: 0\nepoch: 1 startOffset: 7\n',
    )
  })

  it('damage and disagreement are findings at the byte position of the line at fault', async () => {
    fs.cpSync(path.join(UNCLEAN, 'before/broker-1'), path.join(tmp, 'b1'), { recursive: true })
    fs.cpSync(path.join(UNCLEAN, 'broker-3'), path.join(tmp, 'b3'), { recursive: true })
    // unclean-0's batches are all of epoch 0: a cache saying epoch 5 from offset 9 disagrees from the batch at 9
    fs.writeFileSync(path.join(tmp, 'b1/unclean-0/leader-epoch-checkpoint'), '0\n2\n0 0\n5 9\n')
    // one entry short; a malformed line
    fs.writeFileSync(path.join(tmp, 'b1/unclean-1/leader-epoch-checkpoint'), '0\n2\n0 0\n')
    fs.writeFileSync(path.join(tmp, 'b1/recovery-point-offset-checkpoint'), '0\n2\nunclean 0 13\nunclean one 9\n')
    fs.writeFileSync(path.join(tmp, 'b1/meta.properties'), 'version=1\ncluster.id=x\n')
    // the same topic name, another topic id: a topic deleted and recreated
    fs.writeFileSync(
      path.join(tmp, 'b3/unclean-2/partition.metadata'),
      'version: 0\ntopic_id: AAAAAAAAAAAAAAAAAAAAAA\n',
    )
    const { code, objs } = await dump(tmp, [...withOwnFiles('b1'), 'b3'])
    expect(code).toBe(1)
    const f = (code: string): Obj[] => objs.filter((o) => o.type === 'finding' && o.code === code)
    expect(f('EPOCH_CHECKPOINT_MISMATCH').map((o) => o.file)).toEqual(['b1/unclean-0/leader-epoch-checkpoint'])
    expect(f('EPOCH_CHECKPOINT_MISMATCH')[0]!.message).toContain('at offset 9')
    expect(f('EPOCH_CHECKPOINT_DAMAGED').map((o) => [o.file, o.message])).toEqual([
      ['b1/unclean-1/leader-epoch-checkpoint', 'expected 2 entries but found 1: Kafka cannot load this file'],
    ])
    expect(f('OFFSET_CHECKPOINT_DAMAGED').map((o) => [o.file, o.position])).toEqual([
      ['b1/recovery-point-offset-checkpoint', '0\n2\nunclean 0 13\n'.length],
    ])
    expect(f('META_PROPERTIES_DAMAGED').map((o) => o.file)).toEqual(['b1/meta.properties'])
    expect(f('REPLICA_TOPIC_ID_DIFFERS').map((o) => o.file)).toEqual(['b3/unclean-2/partition.metadata'])
  })
})
