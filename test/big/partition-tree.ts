// The big tier's many-partition input and the test of cleanup's text over it: a log dir of `partitions` x `segments`
// remote segments and one local segment each (bench/make-remote.mjs), made before the file's tests and deleted after.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { remoteSegmentsTree } from '../../bench/make-remote.mjs'
import { rmrf, tmp } from '../hostile/support.js'
import { runWithPeakRss } from './peak-rss.js'

/** a partition of reconcile's or cleanup's --json, the fields these tests read */
export interface PartitionRow {
  topic: string
  partition: number
  logStartOffset: number
  logEndOffset: number
  highWatermark?: number
  highWatermarkSource?: string
  findings: Array<{ code: string; severity: string; firstOffset?: number; lastOffset?: number }>
}

export interface PartitionTree {
  partitions: number
  segments: number
  /** the scratch directory the outputs go to */
  dir: string
  tree: () => ReturnType<typeof remoteSegmentsTree>
  /** every partition's label, in partition order */
  names: () => string[]
}

export function partitionTree(prefix: string, partitions: number, segments: number): PartitionTree {
  const dir = tmp(prefix)
  afterAll(() => rmrf(dir))
  let made: ReturnType<typeof remoteSegmentsTree> | undefined
  beforeAll(() => {
    made = remoteSegmentsTree(path.join(dir, 'tree'), { partitions, segments })
  })
  const tree = (): ReturnType<typeof remoteSegmentsTree> => made!
  return {
    partitions,
    segments,
    dir,
    tree,
    names: () => Array.from({ length: partitions }, (_, i) => `${tree().expected.topic}-${i}`),
  }
}

/**
 * `tsdump cleanup` of the tree: a block per partition, in partition order (each block's first line is
 * `<label>  cleanup.policy=...`), every one with its remote offsets not read (exit 1), peak RSS < 128 MiB
 */
export function itCleanupText(t: PartitionTree): void {
  it('cleanup text: a block per partition, in order, peak RSS < 128 MiB', () => {
    const out = path.join(t.dir, 'cleanup.txt')
    const r = runWithPeakRss(['cleanup', t.tree().logs], out)
    expect(r.code, r.stderr).toBe(1)
    const heads = fs
      .readFileSync(out, 'utf8')
      .split('\n')
      .filter((l) => /^\S+ {2}cleanup\.policy=/.test(l))
      .map((l) => l.split(' ')[0])
    expect(heads).toEqual(t.names())
    console.log(`cleanup, ${t.partitions} partitions x ${t.segments}: peak RSS ${r.maxRssMiB.toFixed(1)} MiB`)
    expect(r.maxRssMiB).toBeLessThan(128)
  })
}
