// What docs/findings.md names as damage in the partition-level files, reported by dump's partition-file checks
// and by replicas: leader-epoch-checkpoint entries whose epochs or start offsets go back (LeaderEpochFileCache
// writes them increasing), and partition.metadata of a version other than 0 (PartitionMetadataReadBuffer reads 0
// only). The copies are of the 4.4 replicas fixture, each file rewritten in a temp dir.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { leaderEpochEntries, parsePartitionMetadata } from '../../src/io/partition-files.js'
import { bufferLines } from '../../src/io/text-lines.js'

const epochOrder = (text: string) => leaderEpochEntries('f', bufferLines(Buffer.from(text)), () => {})
import { runCli } from '../support/run-cli.js'
import { FIXTURES_44 } from '../support/paths.js'

let tmp = ''
afterEach(() => {
  if (tmp !== '') fs.rmSync(tmp, { recursive: true, force: true })
  tmp = ''
})
const copy = (): string => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-pfiles-'))
  fs.cpSync(path.join(FIXTURES_44, 'replicas-clean'), tmp, { recursive: true })
  return tmp
}

describe('leader-epoch-checkpoint and partition.metadata rules', () => {
  it('parse: start offsets that decrease, epochs that do not increase, a version other than 0', () => {
    // Kafka loads such a file (its cache drops what a later entry contradicts): out of order, not unreadable
    const down = epochOrder('0\n2\n0 10\n1 5\n')
    expect(down.problem).toBeNull()
    expect(down.order).toMatchObject({
      position: 9,
      message: expect.stringContaining('start offsets must not decrease') as unknown,
    })
    expect(epochOrder('0\n2\n3 0\n3 4\n').order).toMatchObject({
      position: 8,
      message: expect.stringContaining('epochs must increase') as unknown,
    })
    expect(epochOrder('0\n2\n0 0\n1 0\n').order).toBeNull() // an epoch that wrote nothing
    expect(
      parsePartitionMetadata('f', bufferLines(Buffer.from('version: 1\ntopic_id: AAAAAAAAAAAAAAAAAAAAAA\n'))).problem,
    ).toMatchObject({ position: 0, message: expect.stringContaining('version 1') as unknown })
    expect(
      parsePartitionMetadata('f', bufferLines(Buffer.from('version: 0\ntopic_id: AAAAAAAAAAAAAAAAAAAAAA\n'))).problem,
    ).toBeNull()
  })

  it('dump and replicas report them at the file and line', async () => {
    const d = copy()
    const lec = path.join(d, 'broker-2', 'clean-0', 'leader-epoch-checkpoint')
    fs.writeFileSync(lec, '0\n2\n0 10\n1 5\n')
    const pm = path.join(d, 'broker-3', 'clean-1', 'partition.metadata')
    fs.writeFileSync(pm, fs.readFileSync(pm, 'utf8').replace('version: 0', 'version: 1'))
    const a = await runCli([path.join(d, 'broker-2', 'clean-0')])
    expect(a.stderr).toContain(`${lec}: position 9: epoch 1 starts at offset 5`)
    expect(a.stderr).toContain('[EPOCH_CHECKPOINT_DAMAGED]')
    expect(a.code).toBe(1)
    const b = await runCli([path.join(d, 'broker-3', 'clean-1')])
    expect(b.stderr).toContain(`${pm}: position 0: unrecognised version 1 (Kafka reads 0) [PARTITION_METADATA_DAMAGED]`)
    expect(b.code).toBe(1)
    const r = await runCli(['replicas', '--json', ...['broker-1', 'broker-2', 'broker-3'].map((x) => path.join(d, x))])
    const codes = (
      JSON.parse(r.stdout) as {
        partitions: Array<{ findings: Array<{ code: string; file?: string; position?: number }> }>
      }
    ).partitions.flatMap((p) => p.findings)
    expect(codes).toContainEqual(expect.objectContaining({ code: 'EPOCH_CHECKPOINT_DAMAGED', file: lec, position: 9 }))
    expect(codes).toContainEqual(expect.objectContaining({ code: 'PARTITION_METADATA_DAMAGED', file: pm, position: 0 }))
    expect(r.code).toBe(1)
  })
})
