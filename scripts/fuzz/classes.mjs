// One generator per class of hostile input in issue #14. Each builds its files under `dir` (at "fast"
// scale: small enough for thousands of in-process runs, using small --window values so the
// larger-than-window paths run; at "big" scale: the sizes of the issue, sparse where the bytes are zeros)
// and returns the runs to make: argv, where stdout/stderr go, and what the answer must be.
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import {
  bombBatch,
  gzipBatch,
  hugeBatch,
  legacyWrapper,
  manyRecordsBatch,
  smallBatches,
  transactionStateLog,
  transactions,
} from './builders.mjs'
import {
  FileWriter,
  batch,
  marker,
  offsetIndexEntry,
  producerSnapshot,
  record,
  timeIndexEntry,
  txnIndexEntry,
} from './encode.mjs'
import { checkpointFile, distinctKeysPartition, replicaCopies } from './scale-builders.mjs'
import { zstdBatch, zstdBombBatch, zstdKafkaRefusedWindow } from './zstd-builders.mjs'
import { INTERNAL_CLASSES } from './internal-classes.mjs'

const LOG = '00000000000000000000.log'
const MiB = 1 << 20

function partitionDir(dir, name = 'hostile-0') {
  const p = path.join(dir, 'logs', name)
  fs.mkdirSync(p, { recursive: true })
  return p
}
const mkfifo = (p) => spawnSync('mkfifo', [p]).status === 0
/** bytes the process has read so far (/proc/<pid>/io rchar), Infinity once it is gone */
const bytesRead = (pid) => {
  try {
    return Number(/rchar: (\d+)/.exec(fs.readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? 0)
  } catch {
    return Infinity
  }
}

/** Expectation helpers: each returns a problem string or undefined. */
const exitIs =
  (...codes) =>
  (r) =>
    codes.includes(r.code) ? undefined : `exit ${r.code}, expected ${codes.join(' or ')}`
const stderrHas = (re, what) => (r) => (re.test(r.stderr) ? undefined : `stderr lacks ${what}`)
/** findings go to stderr, and with --json also into stdout */
const says = (re, what) => (r) =>
  re.test(r.stderr) || re.test(r.stdout ?? '') ? undefined : `no ${what} in the output`
const all =
  (...fs_) =>
  (r) => {
    for (const f of fs_) {
      const p = f(r)
      if (p !== undefined) return p
    }
    return undefined
  }

const DUMP_ALL = [[], ['--deep-iteration'], ['--json', '--deep-iteration']]
const TXN_ALL = [['reconcile'], ['reconcile', '--json'], ['txns'], ['txns', '--json'], ['lso'], ['lso', '--json']]
const EVERY = [...DUMP_ALL, ['--print-data-log'], ['--verify-index-only'], ['--index-sanity-check'], ...TXN_ALL]

/**
 * Each class: name, tiers it runs in, make(rnd, dir, scale) -> { inputs: [paths], runs: [{ label, argv, stdout?, stderr?, during?, expect?, childOnly? }] }.
 * `scale` is 'fast' or 'big'. Runs of the fast tier execute in-process unless childOnly.
 */
export const CLASSES = [
  {
    name: 'huge-batch',
    tiers: ['fast', 'big'],
    make(rnd, dir, scale) {
      const p = partitionDir(dir)
      const size = scale === 'big' ? 512 * MiB : 4096 + rnd.int(200_000)
      hugeBatch(path.join(p, LOG), size)
      const w = scale === 'big' ? [] : ['--window', String(61 + rnd.int(4000))]
      return {
        inputs: [p],
        runs: [
          ['shallow', []],
          ['print-data-log', ['--print-data-log']],
          ['json-deep', ['--json', '--deep-iteration']],
          ['reconcile', ['reconcile']],
        ].map(([label, a]) => ({
          label,
          argv: [...a, ...(a[0] === 'reconcile' ? [] : w), p],
          stdout: 'null',
          expect: exitIs(0),
        })),
      }
    },
  },
  {
    name: 'huge-value',
    tiers: ['fast', 'big'],
    make(rnd, dir, scale) {
      // one value larger than the window: --json writes its payload string piece by piece; a payload decoder,
      // which needs it whole, does not decode it and says so (VALUE_NOT_DECODED) instead of holding it
      const p = partitionDir(dir)
      hugeBatch(path.join(p, LOG), scale === 'big' ? 300 * MiB : 4096 + rnd.int(200_000))
      const w = scale === 'big' ? [] : ['--window', String(61 + rnd.int(4000))]
      return {
        inputs: [p],
        runs: [
          {
            label: 'json-print-data-log',
            argv: ['--json', '--print-data-log', ...w, p],
            stdout: 'null',
            expect: exitIs(0),
          },
          ...[['--value-decoder', 'hex'], ['--json', '--value-decoder', 'base64'], ['--offsets-decoder']].map((a) => ({
            label: a.join('-'),
            argv: ['--print-data-log', ...a, ...w, p],
            stdout: 'null',
            stderr: 'capture',
            expect: all(exitIs(0), stderrHas(/VALUE_NOT_DECODED/, 'VALUE_NOT_DECODED')),
          })),
        ],
      }
    },
  },
  {
    name: 'many-records',
    tiers: ['fast', 'big'],
    make(rnd, dir, scale) {
      const p = partitionDir(dir)
      manyRecordsBatch(path.join(p, LOG), scale === 'big' ? 10_000_000 : 100 + rnd.int(20_000))
      const w = scale === 'big' ? [] : ['--window', '4096']
      return {
        inputs: [p],
        runs: [{ label: 'deep', argv: ['--deep-iteration', ...w, p], stdout: 'null', expect: exitIs(0) }],
      }
    },
  },
  {
    name: 'gzip-batch',
    tiers: ['fast', 'big'],
    make(rnd, dir, scale) {
      const p = partitionDir(dir)
      gzipBatch(
        path.join(p, LOG),
        scale === 'big' ? 250_000_000 : 20_000 + rnd.int(200_000),
        scale === 'big' ? MiB : 1000,
      )
      return {
        inputs: [p],
        runs: [{ label: 'deep', argv: ['--deep-iteration', p], stdout: 'null', expect: exitIs(0) }],
      }
    },
  },
  {
    name: 'decompression-bomb',
    tiers: ['fast', 'big'],
    make(rnd, dir, scale) {
      const p = partitionDir(dir)
      bombBatch(path.join(p, LOG), scale === 'big' ? 1024 * MiB : 64 * 1024 + rnd.int(MiB))
      const cap = scale === 'big' ? [] : ['--max-decompressed-bytes', '32768']
      return {
        inputs: [p],
        runs: [
          {
            label: 'deep',
            argv: ['--deep-iteration', ...cap, p],
            stdout: 'null',
            expect: all(exitIs(1), says(/DECOMPRESSED_TOO_LARGE/, 'DECOMPRESSED_TOO_LARGE')),
          },
        ],
      }
    },
  },
  {
    name: 'small-transactions',
    tiers: ['fast', 'big'],
    make(rnd, dir, scale) {
      const p = partitionDir(dir)
      transactions(path.join(p, LOG), scale === 'big' ? 1024 * MiB : 2000 + rnd.int(40_000), false)
      return { inputs: [p], runs: TXN_ALL.map((a) => ({ label: a.join('-'), argv: [...a, p], stdout: 'null' })) }
    },
  },
  {
    name: 'many-producers',
    tiers: ['fast', 'big'],
    make(rnd, dir, scale) {
      const p = partitionDir(dir)
      transactions(path.join(p, LOG), scale === 'big' ? 1_000_000 * 140 : 2000 + rnd.int(40_000), true)
      return {
        inputs: [p],
        runs: [['txns'], ['txns', '--json'], ['lso']].map((a) => ({
          label: a.join('-'),
          argv: [...a, p],
          stdout: 'null',
        })),
      }
    },
  },
  {
    name: 'transaction-state-log',
    tiers: ['fast', 'big'],
    make(rnd, dir, scale) {
      // a __transaction_state partition not yet compacted: txns and lso keep one state per transactional id, not every record
      const p = partitionDir(dir, '__transaction_state-0')
      const ids = scale === 'big' ? 10_000 : 1 + rnd.int(300)
      transactionStateLog(path.join(p, LOG), scale === 'big' ? 1_200_000 : ids + rnd.int(5000), ids)
      const id = ['--transactional-id', `txn-app-${rnd.int(ids)}`]
      return {
        inputs: [p],
        runs: [['txns'], ['txns', '--json'], ['lso'], ['txns', ...id]].map((a) => ({
          label: a.slice(0, 2).join('-'),
          argv: [...a, p],
          stdout: 'null',
          expect: exitIs(0),
        })),
      }
    },
  },
  {
    name: 'bad-crc-batches',
    tiers: ['fast', 'big'],
    make(rnd, dir, scale) {
      const p = partitionDir(dir)
      smallBatches(path.join(p, LOG), scale === 'big' ? 1_000_000 : 10 + rnd.int(500), { badCrc: true })
      return {
        inputs: [p],
        runs: [
          ['dump', []],
          ['json', ['--json']],
        ].map(([label, a]) => ({
          label,
          argv: [...a, p],
          stdout: 'null',
          stderr: scale === 'big' ? 'null' : 'capture',
          expect: exitIs(1),
        })),
      }
    },
  },
  {
    name: 'sparse-index-files',
    tiers: ['fast', 'big'],
    make(rnd, dir, scale) {
      const p = partitionDir(dir)
      smallBatches(path.join(p, LOG), 3)
      const sizes = { timeindex: 1536 * MiB, snapshot: 600 * MiB, index: 2 ** 31 + 8, txnindex: 2 ** 32 + 8 }
      for (const [k, s] of Object.entries(sizes)) {
        const f = path.join(p, `00000000000000000000.${k}`)
        fs.writeFileSync(f, scale === 'big' ? '' : offsetIndexEntry(0, 0))
        fs.truncateSync(f, scale === 'big' ? s : rnd.pick([17 * MiB, 2 ** 31 + 8, 2 ** 32 + 8, s]))
      }
      // every kind is read in windows (any size): the zero-filled .snapshot is SNAPSHOT_SCHEMA (version 0, from its header)
      const tooLarge = (r) =>
        /FILE_TOO_LARGE/.test(r.stderr) ? 'FILE_TOO_LARGE for a file read in windows' : undefined
      const dumpExpect = all(
        stderrHas(/\.snapshot: position 0: [^\n]*\[SNAPSHOT_SCHEMA\]/, 'SNAPSHOT_SCHEMA for the .snapshot'),
        tooLarge,
      )
      // --verify-index-only on a directory reads only its .index and .timeindex files (issue #12): no .snapshot
      const indexOnlyExpect = all(tooLarge, (r) =>
        /\.snapshot/.test(r.stderr) ? 'the .snapshot read by --verify-index-only on a directory' : undefined,
      )
      return {
        inputs: [p],
        runs: [[], ['--verify-index-only'], ['--json'], ...TXN_ALL].map((a) => ({
          label: a.join('-') || 'dump',
          argv: [...a, p],
          stdout: 'null',
          expect: TXN_ALL.includes(a)
            ? all(tooLarge, says(/SNAPSHOT_SCHEMA/, 'SNAPSHOT_SCHEMA'))
            : a[0] === '--verify-index-only'
              ? indexOnlyExpect
              : dumpExpect,
        })),
      }
    },
  },
  // issue #25: a partition with over a million idempotent producers has a 70 MB producer snapshot; every command reads
  // it in windows (no size cap, peak RSS under the harness's bound); a bad CRC or a cut last entry is still a finding
  {
    name: 'large-producer-snapshot',
    tiers: ['fast', 'big'],
    make(rnd, dir, scale) {
      const p = partitionDir(dir)
      smallBatches(path.join(p, LOG), 3)
      const n = scale === 'big' ? 1_520_000 : 1 + rnd.int(5000)
      const damage = scale === 'big' ? 'none' : rnd.pick(['none', 'none', 'crc', 'cut'])
      producerSnapshot(path.join(p, '00000000000000000003.snapshot'), n, {
        openEvery: scale === 'big' ? 0 : 1 + rnd.int(50),
        badCrc: damage === 'crc',
        cut: damage === 'cut' ? 1 + rnd.int(45) : 0,
      })
      const code = damage === 'crc' ? /SNAPSHOT_CRC/ : damage === 'cut' ? /SNAPSHOT_SCHEMA/ : null
      // a valid snapshot's open transactions, which the log does not have, are SNAPSHOT_TXN_MISMATCH: it was read
      const ok =
        code === null
          ? (r) =>
              /FILE_TOO_LARGE|SNAPSHOT_CRC|SNAPSHOT_SCHEMA/.test(r.stderr)
                ? 'a finding for a valid snapshot'
                : undefined
          : says(code, code.source)
      return {
        inputs: [p],
        runs: [[], ['--json'], ['reconcile'], ['txns'], ['lso']].map((a) => ({
          label: a[0] ?? 'dump',
          argv: [...a, p],
          stdout: 'null',
          stderr: 'capture',
          expect: ok,
        })),
      }
    },
  },
  {
    name: 'fifos-and-devices',
    tiers: ['fast', 'big'],
    make(rnd, dir) {
      const p = partitionDir(dir)
      smallBatches(path.join(p, LOG), 3)
      fs.writeFileSync(path.join(p, '00000000000000000000.index'), offsetIndexEntry(0, 0))
      const names = [
        '00000000000000000003.log',
        '00000000000000000000.timeindex',
        '00000000000000000000.txnindex',
        '00000000000000000003.snapshot',
        '00000000000000000009.index',
      ]
      for (const n of names) {
        const kind = rnd.pick(['fifo', 'zero', 'urandom'])
        if (kind === 'fifo') mkfifo(path.join(p, n))
        else fs.symlinkSync(`/dev/${kind}`, path.join(p, n))
      }
      const cp = path.join(dir, 'logs', 'replication-offset-checkpoint')
      if (rnd.chance(0.5)) mkfifo(cp)
      else fs.symlinkSync(rnd.pick(['/dev/zero', '/dev/urandom']), cp)
      // a FIFO .log beside the .index being verified
      const q = partitionDir(dir, 'other-0')
      mkfifo(path.join(q, LOG))
      fs.writeFileSync(path.join(q, '00000000000000000000.index'), offsetIndexEntry(0, 0))
      fs.writeFileSync(path.join(q, '00000000000000000000.timeindex'), timeIndexEntry(1700000000000, 0))
      return {
        inputs: [path.join(dir, 'logs')],
        runs: [
          ...EVERY.map((a) => ({ label: a.join('-') || 'dump', argv: [...a, path.join(dir, 'logs')], stdout: 'null' })),
          {
            label: 'index-beside-fifo',
            argv: [path.join(q, '00000000000000000000.index'), path.join(q, '00000000000000000000.timeindex')],
            stdout: 'null',
          },
        ],
      }
    },
  },
  // issue #25: standard input that never ends and holds no batch (a device piped in) is read only so far
  {
    name: 'stdin-endless',
    tiers: ['fast', 'big'],
    make(rnd, dir) {
      const p = partitionDir(dir)
      smallBatches(path.join(p, LOG), 1 + rnd.int(20))
      const source = rnd.int(2) === 0 ? '/dev/zero' : '/dev/urandom'
      return {
        inputs: [],
        runs: [
          { label: 'dump', argv: ['-'], stdin: source, stdout: 'null', childOnly: true, expect: exitIs(2) },
          { label: 'json', argv: ['--json', '-'], stdin: source, stdout: 'null', childOnly: true, expect: exitIs(2) },
          {
            label: 'reconcile',
            argv: ['reconcile', '-'],
            stdin: source,
            stdout: 'null',
            childOnly: true,
            expect: exitIs(2),
          },
        ],
      }
    },
  },
  {
    name: 'resync',
    tiers: ['fast', 'big'],
    make(rnd, dir, scale) {
      const p = partitionDir(dir)
      const n = scale === 'big' ? 4 * MiB : 3 * (1000 + rnd.int(20_000))
      const b = Buffer.alloc(17 + n)
      b.writeInt32BE(100, 8)
      b[16] = 7
      for (let i = 17; i + 3 <= b.length; i += 3) {
        b[i] = 0x10
        b[i + 1] = 0x02
        b[i + 2] = 0x00
      }
      fs.writeFileSync(path.join(p, LOG), b)
      return {
        inputs: [p],
        runs: [
          { label: 'dump', argv: [p], stdout: 'null', expect: exitIs(1) },
          { label: 'no-resync', argv: ['--no-resync', p], stdout: 'null', expect: exitIs(1) },
        ],
      }
    },
  },
  {
    name: 'timeindex-beyond-log',
    tiers: ['fast', 'big'],
    make(rnd, dir, scale) {
      const p = partitionDir(dir)
      const n = scale === 'big' ? 1_000_000 : 200 + rnd.int(2000)
      smallBatches(path.join(p, LOG), n)
      const m = scale === 'big' ? 1000 : 5 + rnd.int(50)
      fs.writeFileSync(
        path.join(p, '00000000000000000000.timeindex'),
        Buffer.concat(Array.from({ length: m }, (_, i) => timeIndexEntry(1800000000000 + i, n + 10 + i))),
      )
      return {
        inputs: [p],
        runs: [
          {
            label: 'verify',
            argv: [path.join(p, '00000000000000000000.timeindex')],
            stdout: 'null',
            expect: exitIs(1),
          },
        ],
      }
    },
  },
  ...[
    ['offset-gaps', ['fast', 'big'], 200_000],
    ['offset-gaps-400k', ['big'], 400_000],
    ['offset-gaps-1m', ['big'], 1_000_000],
  ].map(([name, tiers, big]) => ({
    name,
    tiers,
    make(rnd, dir, scale) {
      const p = partitionDir(dir)
      smallBatches(path.join(p, LOG), scale === 'big' ? big : 100 + rnd.int(3000), { gap: 1 })
      return { inputs: [p], runs: [{ label: 'deep', argv: ['--deep-iteration', p], stdout: 'null', stderr: 'null' }] }
    },
  })),
  ...[
    ['legacy-big-wrapper', ['fast', 'big'], 250_000],
    ['legacy-huge-wrapper', ['big'], 7_700_000],
  ].map(([name, tiers, big]) => ({
    name,
    tiers,
    make(rnd, dir, scale) {
      const p = partitionDir(dir)
      legacyWrapper(path.join(p, LOG), scale === 'big' ? big : 100 + rnd.int(5000))
      return {
        inputs: [p],
        runs: [{ label: 'deep', argv: ['--deep-iteration', p], stdout: 'null', expect: exitIs(0) }],
      }
    },
  })),
  {
    name: 'index-mismatches',
    tiers: ['fast', 'big'],
    make(rnd, dir, scale) {
      const p = partitionDir(dir)
      const n = scale === 'big' ? 200_000 : 50 + rnd.int(2000)
      const pos = smallBatches(path.join(p, LOG), n)
      fs.writeFileSync(
        path.join(p, '00000000000000000000.index'),
        Buffer.concat(pos.map((q, i) => offsetIndexEntry(i + 1, q))),
      )
      // a .timeindex of as many entries: its check follows the .index's and looks up the entries that one framed
      fs.writeFileSync(
        path.join(p, '00000000000000000000.timeindex'),
        Buffer.concat(pos.map((_, i) => timeIndexEntry(1700000000000 + i, i + 1))),
      )
      const index = path.join(p, '00000000000000000000.index')
      const both = [index, path.join(p, '00000000000000000000.timeindex')]
      return {
        inputs: [p],
        runs: [
          {
            label: 'verify-index-only',
            argv: ['--verify-index-only', index],
            stdout: 'null',
            stderr: 'null',
            expect: exitIs(1),
          },
          {
            label: 'verify-both',
            argv: ['--verify-index-only', ...both],
            stdout: 'null',
            stderr: 'null',
            expect: exitIs(1),
          },
        ],
      }
    },
  },
  {
    name: 'legacy-inner-bad-crc',
    tiers: ['fast', 'big'],
    make(rnd, dir) {
      const p = partitionDir(dir)
      const n = 2 + rnd.int(50)
      legacyWrapper(path.join(p, LOG), n, { badInnerCrcAt: rnd.int(n) })
      return {
        inputs: [p],
        runs: [
          {
            label: 'deep',
            argv: ['--deep-iteration', p],
            expect: all(exitIs(1), says(/CRC_MISMATCH/, 'CRC_MISMATCH finding')),
          },
        ],
      }
    },
  },
  {
    name: 'legacy-descending-inner',
    tiers: ['fast', 'big'],
    make(rnd, dir) {
      const p = partitionDir(dir)
      legacyWrapper(path.join(p, LOG), 3 + rnd.int(50), { descending: true })
      return { inputs: [p], runs: [{ label: 'deep', argv: ['--deep-iteration', p], expect: exitIs(1) }] }
    },
  },
  {
    name: 'truncated-during-read',
    tiers: ['big'],
    make(rnd, dir) {
      const p = partitionDir(dir)
      const f = path.join(p, LOG)
      smallBatches(f, 2_000_000)
      const size = fs.statSync(f).size
      // each run gets its own copy, truncated as soon as the child has it open
      return {
        inputs: [],
        runs: [['reconcile'], ['lso'], ['dump', '--no-progress']].map((a) => {
          const copy = path.join(dir, `copy-${a[0]}`, 'hostile-0')
          return {
            label: a[0],
            argv: [...(a[0] === 'dump' ? a.slice(1) : a), copy],
            stdout: 'null',
            setup: () => {
              fs.mkdirSync(copy, { recursive: true })
              fs.copyFileSync(f, path.join(copy, LOG))
            },
            // truncated once the child has the file open and has read a little of it: tsdump knows the size it found
            // once it reads, and a file that shrank before tsdump first looked is only a shorter file (no change it can see)
            during: async (pid, hasOpen) => {
              const t = Date.now()
              while (!hasOpen(pid, path.join(copy, LOG)) && Date.now() - t < 20_000)
                await new Promise((r) => setTimeout(r, 2))
              const read0 = bytesRead(pid)
              while (bytesRead(pid) - read0 < 2 * MiB && Date.now() - t < 20_000)
                await new Promise((r) => setTimeout(r, 2))
              fs.truncateSync(path.join(copy, LOG), Math.floor(size / 3))
            },
            expect: all(exitIs(1, 2), says(/FILE_CHANGED/, 'FILE_CHANGED')),
          }
        }),
      }
    },
  },
  {
    name: 'swapped-for-fifo',
    tiers: ['big'],
    make(rnd, dir) {
      const p = partitionDir(dir)
      smallBatches(path.join(p, LOG), 2_000_000)
      const second = path.join(p, '00000000000002000000.log')
      smallBatches(second, 3)
      return {
        inputs: [],
        runs: [
          {
            label: 'dump',
            argv: ['--no-progress', p],
            stdout: 'null',
            during: async (pid, hasOpen) => {
              const t = Date.now()
              while (!hasOpen(pid, path.join(p, LOG)) && Date.now() - t < 20_000)
                await new Promise((r) => setTimeout(r, 2))
              fs.rmSync(second)
              mkfifo(second)
            },
            expect: all(exitIs(1), says(/NOT_REGULAR_FILE/, 'NOT_REGULAR_FILE')),
          },
        ],
      }
    },
  },
  {
    name: 'non-utf8-names',
    tiers: ['fast', 'big'],
    make(rnd, dir) {
      const logs = path.join(dir, 'logs')
      const raw = Buffer.concat([
        Buffer.from(logs + '/t'),
        Buffer.from([0x80 + rnd.int(0x40), 0xff]),
        Buffer.from('-0'),
      ])
      fs.mkdirSync(raw, { recursive: true })
      fs.writeFileSync(
        Buffer.concat([raw, Buffer.from('/' + LOG)]),
        batch({ count: 1 }, record({ value: Buffer.from('v') })),
      )
      fs.writeFileSync(
        Buffer.concat([raw, Buffer.from('/0000000000000000000'), Buffer.from([0xfe]), Buffer.from('.log')]),
        batch({ count: 1 }, record({ value: Buffer.from('w') })),
      )
      return {
        inputs: [logs],
        runs: [[], ['--json'], ['reconcile'], ['txns'], ['lso']].map((a) => ({
          label: a.join('-') || 'dump',
          argv: [...a, logs],
          // both segments hold offset 0: reconcile/txns/lso warn OFFSETS_NOT_INCREASING (exit 1, the one rule)
          expect: all(a[0] === undefined || a[0] === '--json' ? exitIs(0) : exitIs(1), (r) =>
            /no such file/.test(r.stderr) ? 'no such file' : undefined,
          ),
        })),
      }
    },
  },
  // issue #25: such a name given on the command line arrives decoded (U+FFFD): the error says why and what to do
  {
    name: 'non-utf8-argv',
    tiers: ['fast', 'big'],
    make(rnd, dir) {
      const raw = Buffer.concat([
        Buffer.from(path.join(dir, 't')),
        Buffer.from([0x80 + rnd.int(0x40)]),
        Buffer.from('-0'),
      ])
      fs.mkdirSync(raw, { recursive: true })
      fs.writeFileSync(
        Buffer.concat([raw, Buffer.from('/' + LOG)]),
        batch({ count: 1 }, record({ value: Buffer.from('v') })),
      )
      const asArg = raw.toString('utf8')
      return {
        inputs: [],
        runs: [[], ['reconcile']].map((a) => ({
          label: a.join('-') || 'dump',
          argv: [...a, asArg],
          expect: all(exitIs(2), says(/bytes that are not UTF-8[^\n]*give its parent directory/, 'the argv hint')),
        })),
      }
    },
  },
  {
    name: 'named-non-kafka',
    tiers: ['fast', 'big'],
    make(rnd) {
      const f = rnd.pick(['/etc/hostname', '/proc/self/status', '/etc/passwd'].filter((x) => fs.existsSync(x)))
      return {
        inputs: [],
        runs: [[], ['reconcile'], ['txns'], ['lso']].map((a) => ({
          label: a.join('-') || 'dump',
          argv: [...a, f],
          expect: exitIs(2),
        })),
      }
    },
  },
  {
    name: 'stdout-full',
    tiers: ['fast', 'big'],
    make(rnd, dir) {
      const p = partitionDir(dir)
      transactions(path.join(p, LOG), 5000, false)
      return {
        inputs: [p],
        runs: [[], ['--json'], ['--deep-iteration'], ...TXN_ALL].map((a) => ({
          label: a.join('-') || 'dump',
          argv: [...a, p],
          stdout: 'full',
          childOnly: true,
          expect: all(
            exitIs(2),
            stderrHas(
              /^tsdump: error: <stdout>: write failed: ENOSPC.*\[OUTPUT_WRITE_FAILED\]$/m,
              'the OUTPUT_WRITE_FAILED line',
            ),
            (r) => (/UNREADABLE/.test(r.stderr) ? 'blames the input' : undefined),
          ),
        })),
      }
    },
  },
  {
    name: 'stderr-full',
    tiers: ['fast', 'big'],
    make(rnd, dir) {
      const p = partitionDir(dir)
      fs.writeFileSync(
        path.join(p, LOG),
        Buffer.concat([
          batch({ count: 1 }, record({ value: Buffer.from('v') })),
          Buffer.from([0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 90, 0]),
        ]),
      )
      return {
        inputs: [p],
        runs: [[], ['--json'], ['reconcile'], ['txns'], ['lso']].map((a) => ({
          label: a.join('-') || 'dump',
          argv: [...a, p],
          stdout: 'null',
          stderr: 'full',
          childOnly: true,
          expect: exitIs(1),
        })),
      }
    },
  },
  {
    name: 'warnings-exit',
    tiers: ['fast', 'big'],
    make(rnd, dir) {
      // an invalid producer snapshot: reconcile, txns and lso report SNAPSHOT_INVALID (a warning) and must exit 1
      const p = partitionDir(dir)
      transactions(path.join(p, LOG), 1000, false)
      fs.writeFileSync(path.join(p, '00000000000000000010.snapshot'), Buffer.from([0, 1, 2, 3, 4, 5, 6, rnd.int(256)]))
      return { inputs: [p], runs: TXN_ALL.map((a) => ({ label: a.join('-'), argv: [...a, p], expect: exitIs(1) })) }
    },
  },
  {
    name: 'unlocated-findings',
    tiers: ['fast', 'big'],
    make(rnd, dir) {
      // an ABORT the .txnindex does not record, a checkpoint HW beyond the log end, an index without its log
      const p = partitionDir(dir)
      const w = new FileWriter(path.join(p, LOG))
      w.write(
        batch(
          { baseOffset: 0, producerId: 7, producerEpoch: 0, transactional: true, count: 1 },
          record({ value: Buffer.from('a') }),
        ),
      )
      w.write(marker({ baseOffset: 1, producerId: 7, producerEpoch: 0 }, 0))
      w.close()
      fs.writeFileSync(
        path.join(p, '00000000000000000000.txnindex'),
        rnd.chance(0.5) ? Buffer.alloc(0) : txnIndexEntry(9, 5, 6, 5),
      )
      fs.writeFileSync(path.join(p, '00000000000000000000.index'), Buffer.alloc(0))
      fs.writeFileSync(
        path.join(dir, 'logs', 'replication-offset-checkpoint'),
        `0\n1\nhostile 0 ${10 + rnd.int(100)}\n`,
      )
      const q = partitionDir(dir, 'lonely-0')
      fs.writeFileSync(path.join(q, '00000000000000000000.index'), offsetIndexEntry(1, 0))
      return {
        inputs: [path.join(dir, 'logs')],
        runs: [
          { label: 'dump-index-without-log', argv: ['--json', path.join(q, '00000000000000000000.index')] },
          ...TXN_ALL.filter((a) => a.includes('--json')).map((a) => ({
            label: a.join('-'),
            argv: [...a, path.join(dir, 'logs')],
          })),
        ],
      }
    },
  },
  // issue #25: frames tsdump decodes and Kafka's consumers refuse (window over 2^27) are a warning naming the batch
  {
    name: 'zstd-kafka-window',
    tiers: ['fast', 'big'],
    make(rnd, dir) {
      const p = partitionDir(dir)
      zstdKafkaRefusedWindow(path.join(p, LOG), 1 + rnd.int(200), 28 + rnd.int(4))
      const refused = (r) =>
        /position 0: batch at position 0 [^\n]*\[ZSTD_WINDOW_TOO_LARGE\]/.test(r.stderr)
          ? undefined
          : 'no ZSTD_WINDOW_TOO_LARGE at position 0'
      return {
        inputs: [p],
        runs: [[], ['--deep-iteration'], ['--deep-iteration', '--print-data-log']].map((a) => ({
          label: a.join('-') || 'dump',
          argv: [...a, p],
          stdout: 'null',
          expect: all(exitIs(1), refused),
        })),
      }
    },
  },
  // issue #25: a file that cannot be read among files that were is a finding (exit 1), not a usage error (2)
  {
    name: 'unreadable-companion',
    tiers: ['fast', 'big'],
    make(rnd, dir) {
      const p = partitionDir(dir)
      smallBatches(path.join(p, LOG), 1 + rnd.int(100))
      const which = rnd.pick(['txnindex', 'snapshot'])
      const f = path.join(p, which === 'snapshot' ? '00000000000000000000.snapshot' : '00000000000000000000.txnindex')
      if (rnd.int(2) === 0) mkfifo(f)
      else fs.mkdirSync(f)
      return {
        inputs: [],
        runs: ['reconcile', 'txns', 'lso'].map((c) => ({
          label: c,
          argv: [c, p],
          stdout: 'null',
          childOnly: true,
          expect: all(exitIs(1), says(/NOT_REGULAR_FILE|UNREADABLE/, 'a finding for the unreadable file')),
        })),
      }
    },
  },
  {
    name: 'zstd-bomb',
    tiers: ['fast', 'big'],
    make(rnd, dir, scale) {
      // RLE blocks (no fzstd), libzstd's compressed blocks (fzstd's window: 2 MiB), and one frame declaring a 1 GiB
      // window that it needs past tsdump's 4 MiB cap (DECOMPRESS_FAILED before anything is allocated)
      const big = scale === 'big'
      return {
        inputs: [path.join(dir, 'logs')],
        runs: ['rle', 'compressed', 'wide-window'].map((kind) => {
          const p = partitionDir(dir, `${kind}-0`)
          const wide = kind === 'wide-window'
          zstdBombBatch(
            path.join(p, LOG),
            wide ? (big ? 64 : 10) * MiB : big ? 1024 * MiB : 64 * 1024 + rnd.int(MiB),
            kind,
          )
          const code = wide ? /needs a window of [^\n]*DECOMPRESS_FAILED/ : /DECOMPRESSED_TOO_LARGE/
          return {
            label: `deep-${kind}`,
            argv: ['--deep-iteration', ...(big || wide ? [] : ['--max-decompressed-bytes', '32768']), p],
            stdout: 'null',
            expect: all(exitIs(1), says(code, code.source)),
          }
        }),
      }
    },
  },
  {
    name: 'zstd-batch',
    tiers: ['fast', 'big'],
    make(rnd, dir, scale) {
      // one zstd batch as Kafka's producers write it (no content size, windowLog 21); big: 200 MiB of 1 MiB records, a
      // payload of about 90 MiB (every fourth value incompressible: raw blocks), streamed in every pass (CRC, length,
      // records). Its twin within one window gives the same --print-data-log whole (the default window) and streamed.
      const big = scale === 'big'
      const p = partitionDir(dir)
      const n = zstdBatch(
        path.join(p, LOG),
        big ? 200 * MiB : 20_000 + rnd.int(200_000),
        big ? MiB : 1000,
        rnd.int(1e9),
      )
      const twin = partitionDir(dir, 'twin-0')
      zstdBatch(path.join(twin, LOG), big ? 6 * MiB : 20_000 + rnd.int(200_000), big ? 64 * 1024 : 1000, rnd.int(1e9))
      let whole
      const recordLines = (r) =>
        (r.stdout.match(/^\| offset: /gm) ?? []).length === n ? undefined : `not ${n} record lines`
      return {
        inputs: [p, twin],
        runs: [
          {
            label: 'deep',
            argv: ['--deep-iteration', ...(big ? [] : ['--window', String(4096 + rnd.int(60_000))]), p],
            expect: all(exitIs(0), recordLines),
          },
          // base64 values: the harness captures text, and a multi-byte sequence split between two pipe reads decodes differently
          {
            label: 'twin-whole',
            argv: ['--print-data-log', '--value-decoder', 'base64', twin],
            expect: (r) => {
              whole = r.stdout
              return exitIs(0)(r)
            },
          },
          {
            label: 'twin-streamed',
            argv: ['--print-data-log', '--value-decoder', 'base64', '--window', String(4096 + rnd.int(60_000)), twin],
            expect: all(exitIs(0), (r) =>
              r.stdout === whole ? undefined : 'streamed output differs from the whole decoding',
            ),
          },
        ],
      }
    },
  },
  // issue #34 item 5: checkpoints of millions of lines are streamed, only the entries of the partitions read
  // kept, the declared count checked (a 2.6 M-line one took cleanup to 238 MiB, a 4 M-line leader-epoch-checkpoint
  // replicas to 808 MiB and its dump to 1.36 GiB)
  {
    name: 'checkpoint-millions',
    tiers: ['fast', 'big'],
    make(rnd, dir, scale) {
      const big = scale === 'big'
      const logs = path.join(dir, 'logs')
      const p = partitionDir(dir)
      smallBatches(path.join(p, LOG), 100)
      const n = big ? 2_600_000 : 10 + rnd.int(2000)
      for (const name of [
        'replication-offset-checkpoint',
        'log-start-offset-checkpoint',
        'recovery-point-offset-checkpoint',
      ])
        checkpointFile(path.join(logs, name), n, 'x 0 0', ['hostile 0 100'])
      // one more entry declared than held: Kafka's CheckpointFile refuses the file
      checkpointFile(path.join(logs, 'cleaner-offset-checkpoint'), n, 'x 0 0', ['hostile 0 0'], n + 2)
      checkpointFile(path.join(p, 'leader-epoch-checkpoint'), big ? 4_000_000 : 10 + rnd.int(3000), '0 0')
      // a second broker's copy for replicas: the same files
      const logs2 = path.join(dir, 'logs2')
      fs.cpSync(logs, logs2, { recursive: true })
      const mismatch = says(/OFFSET_CHECKPOINT_DAMAGED/, 'OFFSET_CHECKPOINT_DAMAGED')
      const epochOrder = says(/EPOCH_CHECKPOINT_DAMAGED/, 'EPOCH_CHECKPOINT_DAMAGED')
      return {
        inputs: [logs],
        runs: [
          // every line `0 0`: epochs that do not increase, which LeaderEpochFileCache never writes (Kafka loads the file)
          {
            label: 'dump-epochs',
            argv: [path.join(p, 'leader-epoch-checkpoint')],
            stdout: 'null',
            expect: all(exitIs(1), epochOrder),
          },
          {
            label: 'dump-epochs-json',
            argv: ['--json', path.join(p, 'leader-epoch-checkpoint')],
            stdout: 'null',
            expect: all(exitIs(1), epochOrder),
          },
          {
            label: 'dump-hw',
            argv: [path.join(logs, 'replication-offset-checkpoint')],
            stdout: 'null',
            expect: exitIs(0),
          },
          {
            label: 'dump-cleaner',
            argv: [path.join(logs, 'cleaner-offset-checkpoint')],
            stdout: 'null',
            expect: all(exitIs(1), mismatch),
          },
          { label: 'reconcile', argv: ['reconcile', logs], stdout: 'null', expect: exitIs(0, 1) },
          { label: 'cleanup', argv: ['cleanup', logs], stdout: 'null', expect: exitIs(0, 1) },
          { label: 'replicas', argv: ['replicas', logs, logs2], stdout: 'null', expect: exitIs(0, 1) },
        ],
      }
    },
  },
  // issue #34 item 2: replicas walks the copies in lockstep; past the divergence point it keeps the batches it
  // lists (1,000) and counts the rest (3 copies x 400,000 small batches held as objects peaked at 421 MiB)
  {
    name: 'replicas-small-batches',
    tiers: ['fast', 'big'],
    make(rnd, dir, scale) {
      const n = scale === 'big' ? 1_000_000 : 4 + rnd.int(2000)
      const brokers = replicaCopies(dir, n)
      const at = `"divergenceOffset":${Math.floor(n / 2)},`
      const diverged = says(/REPLICA_DIVERGED/, 'REPLICA_DIVERGED')
      return {
        inputs: brokers,
        runs: [
          { label: 'text', argv: ['replicas', ...brokers], expect: all(exitIs(1), diverged) },
          {
            label: 'json',
            argv: ['replicas', '--json', ...brokers],
            expect: all(exitIs(1), diverged, (r) => (r.stdout.includes(at) ? undefined : `no ${at}`)),
          },
        ],
      }
    },
  },
  // issue #34 item 5: cleanup's offset map is one table sized from the dirty batches' declared records, at most
  // Kafka's capacity (5,033,164 keys at the default dedupe buffer); 5 M distinct keys peaked at 208-274 MiB while
  // the table doubled. A small dedupe buffer: the clean stops where the map is full, and says so.
  {
    name: 'cleanup-distinct-keys',
    tiers: ['fast', 'big'],
    make(rnd, dir, scale) {
      const n = scale === 'big' ? 5_000_000 : 4 + rnd.int(3000)
      const logs = path.join(dir, 'logs')
      distinctKeysPartition(path.join(logs, 'keys-0'), n)
      const flags = ['cleanup', '--config', 'cleanup.policy=compact', '--now', '2026-12-01T00:00:00Z']
      const full = Math.max(1, Math.floor(n / 3))
      return {
        inputs: [logs],
        runs: [
          {
            label: 'top',
            argv: [...flags, '--top', '5', logs],
            expect: all(exitIs(0, 1), says(new RegExp(`${n} data records -> ${n},`), 'every key kept')),
          },
          {
            label: 'map-full',
            argv: [...flags, '--config', `log.cleaner.dedupe.buffer.size=${Math.ceil(full / 0.9) * 24}`, logs],
            expect: all(
              exitIs(0, 1),
              says(
                /offset map \(log\.cleaner\.dedupe\.buffer\.size\) fills/,
                'the clean stopping where the map is full',
              ),
            ),
          },
        ],
      }
    },
  },
]

// the newer commands' inputs: internal topics' records and framing, checkpoints and meta.properties, unreadable paths
CLASSES.push(...INTERNAL_CLASSES)
