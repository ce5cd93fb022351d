// replicas reads each copy once: while it walks the copies side by side it tallies what each holds from every
// offset that may be its divergence point (analysis/replicas/lockstep.ts: the high watermark, the epoch rule's
// truncation with the log ends not known yet, epoch starts, the first batch or record that differs), and reads a
// copy again only for a point it did not foresee (scan/replica-records.ts readPastAgain). Both ways must give the
// same answer: here the walk is also run foreseeing nothing, and every comparison must print the same JSON, on the
// 3-broker fixtures and on copies of them changed the ways the other replicas tests change them.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { crc32c } from '../../src/bytes/crc32c.js'
import { replicas } from '../../src/commands/replicas.js'
import { replicasJson } from '../../src/format/replicas-json.js'
import { REPO_ROOT } from '../support/paths.js'

const TREE = path.join(REPO_ROOT, 'fixtures/broker-4.4')
const UNCLEAN = path.join(TREE, 'replicas-unclean')
const CLEAN = path.join(TREE, 'replicas-clean')
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-replicas-foreseen-'))
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true })
})

function copyOf(name: string, from: string, dirs: string[]): string {
  const d = path.join(tmp, name)
  for (const x of dirs) fs.cpSync(path.join(from, x), path.join(d, x), { recursive: true })
  return d
}

const UNCLEAN_DIRS = ['before/broker-1', 'before/broker-2', 'broker-3']
const FINAL = ['broker-1', 'broker-2', 'broker-3']

/** the inputs: [name, root, log dirs] */
function inputs(): Array<[string, string, string[]]> {
  const noEpochs = copyOf('no-epochs', UNCLEAN, UNCLEAN_DIRS)
  for (const d of UNCLEAN_DIRS) {
    for (const p of fs.readdirSync(path.join(noEpochs, d), { withFileTypes: true })) {
      if (p.isDirectory()) fs.rmSync(path.join(noEpochs, d, p.name, 'leader-epoch-checkpoint'), { force: true })
    }
  }
  const badEpochs = copyOf('bad-epochs', UNCLEAN, UNCLEAN_DIRS)
  fs.writeFileSync(path.join(badEpochs, 'before/broker-1/unclean-2/leader-epoch-checkpoint'), '0\n3\n0 0\n1 7\n')
  // a follower's checkpoint without its newest epoch: the epoch rule cuts it where its batches still agree
  const lagging = copyOf('lagging-epochs', UNCLEAN, FINAL)
  fs.writeFileSync(path.join(lagging, 'broker-2/unclean-0/leader-epoch-checkpoint'), '0\n1\n0 0\n')
  const noHw = copyOf('no-hw', UNCLEAN, UNCLEAN_DIRS)
  fs.rmSync(path.join(noHw, 'before/broker-1/replication-offset-checkpoint'))
  // a record changed below the compacted partition's cleaned point, its batch's CRC recomputed (replicas-compacted.test.ts)
  const compacted = copyOf('compacted', CLEAN, FINAL)
  const seg = path.join(compacted, 'broker-1', 'clean-compact-0', '00000000000000000000.log')
  const buf = fs.readFileSync(seg)
  const at = buf.indexOf(Buffer.from('-k0'))
  let pos = 0
  while (pos + 12 + buf.readInt32BE(pos + 8) <= at) pos += 12 + buf.readInt32BE(pos + 8)
  buf[at + 2] = '9'.charCodeAt(0)
  buf.writeUInt32BE(crc32c(buf.subarray(pos + 21, pos + 12 + buf.readInt32BE(pos + 8))) >>> 0, pos + 17)
  fs.writeFileSync(seg, buf)
  return [
    ['replicas-unclean, before the old leaders truncated', UNCLEAN, UNCLEAN_DIRS],
    [
      'replicas-unclean, every copy as it was before',
      UNCLEAN,
      ['before/broker-1', 'before/broker-2', 'before/broker-3'],
    ],
    [
      'replicas-unclean, the old leader before and the others after',
      UNCLEAN,
      ['before/broker-1', 'broker-2', 'broker-3'],
    ],
    ['replicas-unclean, after', UNCLEAN, FINAL],
    ['replicas-clean', CLEAN, FINAL],
    ['replicas-unclean without leader-epoch-checkpoint', noEpochs, UNCLEAN_DIRS],
    ['replicas-unclean with a damaged leader-epoch-checkpoint', badEpochs, UNCLEAN_DIRS],
    ['replicas-unclean without a replication-offset-checkpoint', noHw, UNCLEAN_DIRS],
    ["replicas-unclean, a follower's leader-epoch-checkpoint without its newest epoch", lagging, FINAL],
    ['replicas-clean with a record changed below the cleaned point', compacted, FINAL],
  ]
}

describe('replicas: what the walk foresees and what it reads again agree', () => {
  for (const [name, root, dirs] of inputs()) {
    it(name, () => {
      const paths = dirs.map((d) => path.join(root, d))
      const readAgain: string[] = []
      const once = replicas(
        paths,
        {},
        {
          readAgain: (p, o) => {
            readAgain.push(`${p} from ${o}`)
          },
        },
      )
      const unforeseen: string[] = []
      const twice = replicas(
        paths,
        {},
        {
          predictPoints: false,
          readAgain: (p, o) => {
            unforeseen.push(`${p} from ${o}`)
          },
        },
      )
      // each copy read once: every divergence point was foreseen
      expect(readAgain).toEqual([])
      expect(replicasJson(twice.logDirs, twice.partitions)).toBe(replicasJson(once.logDirs, once.partitions))
      const diverged = once.partitions.flatMap((p) => p.replicas).filter((r) => r.divergenceOffset !== null).length
      // the points the batches' own differences give are found by the walk either way; the epoch rule's are read again
      expect(unforeseen.length).toBeLessThanOrEqual(diverged)
    })
  }
  it('a divergence point the batches do not show is read again without foreseen points (the fallback is exercised)', () => {
    const unforeseen: string[] = []
    const r = replicas(
      FINAL.map((d) => path.join(tmp, 'lagging-epochs', d)),
      {},
      {
        predictPoints: false,
        readAgain: (p, o) => {
          unforeseen.push(`${path.basename(p)} from ${o}`)
        },
      },
    )
    expect(unforeseen).toEqual(['unclean-0 from 8'])
    const b2 = r.partitions
      .find((p) => p.topic === 'unclean' && p.partition === 0)!
      .replicas.find((x) => x.broker === '2')!
    expect({ at: b2.divergenceOffset, batches: b2.batchesPastDivergenceCount }).toEqual({
      at: 8n,
      batches: b2.batchesPastDivergence.length,
    })
  })
})
