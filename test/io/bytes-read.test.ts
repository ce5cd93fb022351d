// How many bytes each command reads of each input file, counted from outside tsdump: strace logs every
// read(2)/pread64(2) of the process and its threads with the path behind the descriptor (-y). The rule
// is Kafka's own: one pass over each file, except the dirty section of a compacted log, which the log
// cleaner itself reads twice (Cleaner.buildOffsetMap, then Cleaner.cleanSegments).
//
// KNOWN lists what each command still reads more than that, with the factor measured when it was
// listed. The test fails when a command reads more than its limit and is not listed, when a listed
// file is read more than the listed factor, and when a listed file no longer needs its entry (so that
// the list only shrinks).
import { execFileSync, spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { randomBytes } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { crc32c } from '../../src/bytes/crc32c.js'
import { segment } from '../support/segment-builder.js'
import type { KafkaBatch } from '../support/damage-copy.js'
import { flipByte, kafkaBatches, overwrite } from '../support/damage-copy.js'
import { FIXTURES, FIXTURES_44, REPO_ROOT } from '../support/paths.js'
import { LogDir, LogWriter } from '../support/txn-segment-builder.js'

/** TSDUMP_BYTES_READ_BIN: another build's bin/tsdump.js (a test's check that it fails on the build before a change) */
const BIN = process.env.TSDUMP_BYTES_READ_BIN ?? path.join(REPO_ROOT, 'bin/tsdump.js')
/** A file's header may be read again when a fast path declines it: that much is not a second pass. */
const SLACK_BYTES = 512

function haveStrace(): boolean {
  return spawnSync('strace', ['-V'], { stdio: 'ignore' }).status === 0
}

/**
 * strace's lines of `tsdump args` for `syscalls`, each thread's in a file of its own (-ff): in one file, the lines of
 * threads reading at once are cut into `<unfinished ...>` and `resumed>` halves without the path, and went uncounted
 */
function straceLines(syscalls: string, args: string[], more: string[] = []): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-reads-'))
  spawnSync(
    'strace',
    [
      '-ff',
      '-qq',
      '-e',
      `trace=${syscalls}`,
      '-e',
      'signal=none',
      '-y',
      ...more,
      '-o',
      path.join(dir, 'strace'),
      process.execPath,
      BIN,
      ...args,
    ],
    { stdio: 'ignore', env: { ...process.env, NO_COLOR: '1' } },
  )
  const lines = fs.readdirSync(dir).flatMap((f) => fs.readFileSync(path.join(dir, f), 'utf8').split('\n'))
  fs.rmSync(dir, { recursive: true, force: true })
  return lines
}

/** bytes read per file below `root` by `tsdump args`, from strace's log of the whole process */
function bytesRead(args: string[], root: string): Map<string, number> {
  const per = new Map<string, number>()
  const line = /^(?:read|pread64|readv|preadv2?)\(\d+<([^>]+)>.*\)\s+=\s+(\d+)$/
  for (const l of straceLines('read,pread64,readv,preadv,preadv2', args)) {
    const m = line.exec(l)
    if (m === null || !m[1]!.startsWith(root + '/')) continue
    per.set(m[1]!, (per.get(m[1]!) ?? 0) + Number(m[2]))
  }
  return per
}

interface Case {
  name: string
  args: string[]
  root: string
  cleanerPasses?: boolean
}

const ORDERS = path.join(FIXTURES, 'orders/logs')
const TXNS44 = path.join(FIXTURES_44, 'transactions/logs')
const CLEANUP = path.join(FIXTURES_44, 'cleanup/before')
const UNCLEAN = path.join(FIXTURES_44, 'replicas-unclean')
const TIERED = path.join(FIXTURES_44, 'tiered')

/** where `export` writes its dataset (removed after the tests) */
const EXPORT_OUT = path.join(os.tmpdir(), `tsdump-bytes-read-export-${process.pid}`)

/** each command that takes --transactional-id, on a fixture whose coordinator records hold the id */
const TXID_CASES: Case[] = [
  ...(
    [
      ['orders', ORDERS, 'tx-rw-1', 'orders-11-0'],
      ['4.4.0', TXNS44, 'rpw-0', 'tx-out-0'],
    ] as const
  ).flatMap(([fixture, root, id, one]): Case[] => {
    const x = ['--transactional-id', id]
    return [
      { name: `dump ${fixture} --transactional-id`, args: ['dump', ...x, root], root },
      // the common case: one data partition, its coordinator's records beside it
      { name: `dump ${fixture} one partition --transactional-id`, args: ['dump', ...x, path.join(root, one)], root },
      { name: `reconcile ${fixture} --transactional-id`, args: ['reconcile', ...x, root], root },
      { name: `txns ${fixture} --transactional-id`, args: ['txns', ...x, root], root },
      { name: `transactions ${fixture} --transactional-id`, args: ['transactions', ...x, root], root },
      { name: `lso ${fixture} --transactional-id`, args: ['lso', '--now', '2026-12-01T00:00:00Z', ...x, root], root },
    ]
  }),
]

/**
 * dump --transactional-id in each mode that reads part of a segment, or frames it by other rules, on a log dir holding
 * the coordinator partition: the dump's read gives the id's records in the part it reads, the rest is read after it
 * for the id alone (scan/transaction-log-part.ts). 4.4.0's --start-offset 30 begins each coordinator segment at its
 * .index entry (offset 28, past position 4,000): the bytes before it are the id's alone.
 */
const TXID_BOUNDED_CASES: Case[] = (
  [
    [
      'orders',
      ORDERS,
      'tx-rw-1',
      [
        ['--start-offset', '5'],
        ['--end-offset', '3'],
        ['--from-time', '1795966975000', '--to-time', '1795966975600'],
        ['--max-bytes', '600'],
        ['--max-batch-bytes', '100000'],
        ['--compat'],
        ['--no-resync'],
        ['--compat', '--end-offset', '4'],
        ['--remote-storage', path.join(TIERED, 'remote')],
      ],
    ],
    [
      '4.4.0',
      TXNS44,
      'rpw-0',
      [
        ['--start-offset', '30'],
        ['--end-offset', '3'],
        ['--from-time', '1796168790000'],
        ['--to-time', '1796168788000'],
        ['--max-bytes', '4000'],
        ['--max-batch-bytes', '100000'],
        ['--compat'],
        ['--no-resync'],
        ['--no-resync', '--start-offset', '30', '--end-offset', '35'],
        ['--remote-storage', path.join(TIERED, 'remote')],
      ],
    ],
  ] as const
).flatMap(([fixture, root, id, modes]) =>
  modes.map(
    (m): Case => ({
      name: `dump ${fixture} --transactional-id ${m.map((a) => (path.isAbsolute(a) ? path.basename(a) : a)).join(' ')}`,
      args: ['dump', '--transactional-id', id, ...m, root],
      root,
    }),
  ),
)

/** export, each --format, with and without --transactional-id: each partition read once (scan/export-read.ts) */
const EXPORT_CASES: Case[] = (
  [
    ['orders', ORDERS, 'tx-rw-1'],
    ['4.4.0', TXNS44, 'rpw-0'],
  ] as const
).flatMap(([fixture, root, id]) =>
  (['ndjson', 'parquet'] as const).flatMap((format): Case[] =>
    [[], ['--transactional-id', id]].map((x) => ({
      name: `export ${fixture} --format ${format}${x.length > 0 ? ' --transactional-id' : ''}`,
      args: ['export', ...x, '--format', format, root, '-o', path.join(EXPORT_OUT, `${fixture}-${format}-${x.length}`)],
      root,
    })),
  ),
)

/**
 * dump --isolation-level, each level, a log dir and one partition: the partition scan that finds the markers, HW and
 * LSO holds the bytes it read of each segment, and the dump reads them from there (io/held-segments.ts)
 */
const ISOLATION_CASES: Case[] = (
  [
    ['orders', ORDERS, 'orders-11-0', 'tx-rw-1'],
    ['4.4.0', TXNS44, 'tx-out-0', 'rpw-0'],
  ] as const
).flatMap(([fixture, root, one, id]) =>
  (['read_committed', 'read_uncommitted'] as const).flatMap((level): Case[] => [
    { name: `dump ${fixture} --isolation-level ${level}`, args: ['dump', '--isolation-level', level, root], root },
    {
      name: `dump ${fixture} one partition --isolation-level ${level} --deep-iteration`,
      args: ['dump', '--isolation-level', level, '--deep-iteration', path.join(root, one)],
      root,
    },
    // the coordinator partitions are dumped first, their records giving the id's producer ids (id-first.ts)
    {
      name: `dump ${fixture} --isolation-level ${level} --transactional-id`,
      args: ['dump', '--isolation-level', level, '--transactional-id', id, root],
      root,
    },
  ]),
)

const CASES: Case[] = [
  { name: 'dump --deep-iteration', args: ['dump', '--deep-iteration', ORDERS + '/orders-11-0'], root: ORDERS },
  { name: 'reconcile', args: ['reconcile', ORDERS], root: ORDERS },
  { name: 'txns', args: ['txns', ORDERS], root: ORDERS },
  { name: 'lso', args: ['lso', '--now', '2026-12-01T00:00:00Z', ORDERS], root: ORDERS },
  { name: 'transactions', args: ['transactions', ORDERS], root: ORDERS },
  { name: 'transactions (4.4.0)', args: ['transactions', TXNS44], root: TXNS44 },
  { name: 'lso (4.4.0)', args: ['lso', '--now', '2026-12-01T00:00:00Z', TXNS44], root: TXNS44 },
  { name: 'cleanup', args: ['cleanup', CLEANUP], root: CLEANUP, cleanerPasses: true },
  {
    name: 'replicas',
    args: ['replicas', ...['broker-1', 'broker-2', 'broker-3'].map((b) => path.join(UNCLEAN, b))],
    root: UNCLEAN,
  },
  {
    name: 'remote',
    args: ['remote', path.join(TIERED, 'logs'), '--remote-storage', path.join(TIERED, 'remote')],
    root: TIERED,
  },
  { name: 'report', args: ['report', ORDERS, '-o', '-'], root: ORDERS },
  { name: 'doctor', args: ['doctor', '--now', '2026-12-01T00:00:00Z', ORDERS], root: ORDERS },
  { name: 'doctor (4.4.0)', args: ['doctor', '--now', '2026-12-01T00:00:00Z', TXNS44], root: TXNS44 },
  // --transactional-id: the id's producer ids come from the coordinator's records the command reads anyway, so that
  // its __transaction_state partition is read once with the filter as without it
  ...TXID_CASES,
  ...TXID_BOUNDED_CASES,
  ...EXPORT_CASES,
  ...ISOLATION_CASES,
]

/** `command name` -> file (relative to the case's root) -> the factor measured when it was listed (its limit is 1x) */
const KNOWN: Record<string, Record<string, number>> = {
  // cleanup reads a compacted partition's dirty section twice (the broker model's partition scan, which also takes
  // the coordinator's records and cleanup's header facts, then the offset map, which tallies the clean of the dirty
  // records as it fills: analysis/cleanup/dirty-tally.ts): within the cleaner's own two passes, so no entry
  // transactions and doctor: one broker model, whose partition scan gives reconcile's, lso's, transactions' and
  // cleanup's facts and reads the coordinator's records and the offset commits in the same pass: no entry
  //
  // --transactional-id: reconcile, txns and transactions take the id's producer ids from the coordinator's records
  // they read anyway (each __transaction_state file once: no entry for them); txns finds a filter's range in the one
  // scan that streams the runs (scan/txns-partition.ts); dump reads the id's records as it dumps a
  // __transaction_state partition among its paths, whose output waits for its turn (commands/dump/id-first.ts), and
  // those beside the paths once, for the id alone (the `one partition` cases); in the modes that read part of a
  // segment or frame it otherwise, the part the dump does not read is read after it for the id alone (no entry).
  // export reads each partition once: the partition scan hands its records out as it reads them, a batch whose
  // transaction has not ended waiting in a queue (scan/export-read.ts); the __transaction_state partitions go first,
  // their records giving the rows' transactional ids and --transactional-id's producer ids in the same read: no entry
}

function limitFor(c: Case, rel: string): number {
  return c.cleanerPasses === true && rel.endsWith('.log') ? 2 : 1
}

describe('each command reads each input file once (strace)', () => {
  afterAll(() => fs.rmSync(EXPORT_OUT, { recursive: true, force: true }))
  for (const c of CASES) {
    it(c.name, (ctx) => {
      if (!haveStrace()) ctx.skip('strace is not installed (apt-get install strace): bytes read cannot be counted')
      if (!fs.existsSync(c.root)) ctx.skip(`${c.root} is absent`)
      const per = bytesRead(c.args, fs.realpathSync(c.root))
      expect(
        per.size,
        'strace saw no read of the inputs: the command did not run or the log format changed',
      ).toBeGreaterThan(0)
      const known = KNOWN[c.name] ?? {}
      const problems: string[] = []
      for (const [file, n] of per) {
        const rel = path.relative(fs.realpathSync(c.root), file)
        const size = fs.statSync(file).size
        const factor = n / Math.max(1, size)
        const over = n > limitFor(c, rel) * size + SLACK_BYTES
        const listed = known[rel]
        if (over && listed === undefined)
          problems.push(`${rel}: read ${factor.toFixed(2)}x (${n} of ${size} bytes), limit ${limitFor(c, rel)}x`)
        if (listed !== undefined && factor > listed + 0.01)
          problems.push(`${rel}: read ${factor.toFixed(2)}x, listed at ${listed}x`)
        if (listed !== undefined && !over)
          problems.push(`${rel}: now read within its limit (${factor.toFixed(2)}x): remove it from KNOWN`)
      }
      for (const rel of Object.keys(known)) {
        if (!per.has(path.join(fs.realpathSync(c.root), rel)))
          problems.push(`${rel}: listed but not read at all any more: remove it from KNOWN`)
      }
      if (process.env.TSDUMP_PRINT_READS === '1') {
        const over = [...per]
          .map(([f, n]) => [path.relative(fs.realpathSync(c.root), f), n / Math.max(1, fs.statSync(f).size)] as const)
          .filter(
            ([rel, x]) =>
              x * fs.statSync(path.join(c.root, rel)).size >
              limitFor(c, rel) * fs.statSync(path.join(c.root, rel)).size + SLACK_BYTES,
          )
        console.log(
          `  '${c.name}': {\n${over.map(([rel, x]) => `    '${rel}': ${Math.ceil(x * 100) / 100},`).join('\n')}\n  },`,
        )
      }
      expect(problems).toEqual([])
    })
  }
})

// txns reads a partition of any size once: its runs past 4,096 and its lane past 1 M batches wait in scratch files
// until the scan's end gives the first line (a log above 250 KB was read twice before)
describe('txns on a large partition (strace)', () => {
  it('reads a 1.3 MB partition of 12,000 transactions and plain runs once', (ctx) => {
    if (!haveStrace()) ctx.skip('strace is not installed (apt-get install strace): bytes read cannot be counted')
    const d = new LogDir()
    try {
      const w = new LogWriter()
      for (let i = 0; i < 6000; i++) {
        w.txn(7n, 0, 1)
        w.plain(1, BigInt(100 + (i % 2)))
        w.marker(7n, 0, i % 3 === 0 ? 'ABORT' : 'COMMIT')
      }
      const dir = d.segment('big', 0, 0n, w.batches)
      const root = fs.realpathSync(d.root)
      const log = path.join(fs.realpathSync(dir), '00000000000000000000.log')
      const size = fs.statSync(log).size
      expect(size).toBeGreaterThan(1_000_000)
      const per = bytesRead(['txns', dir], root)
      expect(per.get(log), 'strace saw no read of the log').toBeDefined()
      expect(per.get(log)!).toBeLessThanOrEqual(size + SLACK_BYTES)
    } finally {
      fs.rmSync(d.root, { recursive: true, force: true })
    }
  })
})

// export on damaged copies: every partition's first segment damaged at positions taken from kafka-dump-log's stored
// text beside the fixture (dump/<partition>/<segment>.log.shallow.txt). The partition scan resyncs past framing
// damage by searching the bytes after it (decode/resync.ts), which reads them again: there, export may read what the
// partition scan alone (`reconcile`) reads of the same copy, no more. Elsewhere once. Main's build read each damaged
// partition twice (its one read, dropped at the damage, then the two passes): 3-4x.
const DAMAGE_WORK = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-bytes-read-damaged-'))

interface DamageClass {
  name: string
  /** the finding export gives for it (the damage was written and seen) */
  code: string
  /** the partition scan resyncs past it (reads bytes after it again) */
  resync: boolean
  damage: (file: string, bs: KafkaBatch[]) => void
}

const DAMAGE_CLASSES: DamageClass[] = [
  {
    name: 'a data batch (a record byte: its CRC fails)',
    code: 'CRC_MISMATCH',
    resync: false,
    damage: (f, bs) => {
      const b = bs.find((x) => !x.control)
      if (b !== undefined) flipByte(f, b.position + b.size - 1)
    },
  },
  {
    name: 'a marker (its CRC fails)',
    code: 'CRC_MISMATCH',
    resync: false,
    damage: (f, bs) => {
      const b = bs.find((x) => x.control)
      if (b !== undefined) flipByte(f, b.position + b.size - 1)
    },
  },
  {
    name: 'a truncated tail (the last batch cut in half)',
    code: 'TRUNCATED_TAIL',
    resync: false,
    damage: (f, bs) => {
      const b = bs[bs.length - 1]!
      fs.truncateSync(f, b.position + Math.floor(b.size / 2))
    },
  },
  {
    name: '40 bytes of 0xFF at the middle batch',
    code: 'BAD_LENGTH',
    resync: true,
    damage: (f, bs) => overwrite(f, bs[Math.floor(bs.length / 2)]!.position, Buffer.alloc(40, 0xff)),
  },
  {
    name: 'a run of zeros over a data batch mid-segment',
    code: 'BAD_LENGTH',
    resync: true,
    damage: (f, bs) => {
      const b = bs.filter((x) => !x.control)[1] ?? bs[0]!
      overwrite(f, b.position, Buffer.alloc(b.size))
    },
  },
  {
    name: 'a batchLength grown by 7 bytes mid-segment',
    code: 'BAD_LENGTH',
    resync: true,
    damage: (f, bs) => {
      const b = bs[Math.floor(bs.length / 2)]!
      const fd = fs.openSync(f, 'r+')
      try {
        const x = Buffer.alloc(4)
        fs.readSync(fd, x, 0, 4, b.position + 8)
        x.writeInt32BE(x.readInt32BE(0) + 7)
        fs.writeSync(fd, x, 0, 4, b.position + 8)
      } finally {
        fs.closeSync(fd)
      }
    },
  },
]

/** a copy of the fixture's log dir, each partition's first dumped segment damaged */
function damagedLogs(fixture: string, c: DamageClass, i: number): string {
  const logs = path.join(DAMAGE_WORK, `${path.basename(path.dirname(fixture))}-${i}`)
  if (fs.existsSync(logs)) return logs
  fs.cpSync(path.join(fixture, 'logs'), logs, { recursive: true })
  const dump = path.join(fixture, 'dump')
  for (const p of fs.readdirSync(dump)) {
    const texts = fs.readdirSync(path.join(dump, p)).filter((n) => n.endsWith('.log.shallow.txt'))
    const seg = path.join(logs, p, texts.sort()[0]?.replace('.shallow.txt', '') ?? '')
    if (texts.length === 0 || !fs.existsSync(seg)) continue
    const bs = kafkaBatches(path.join(dump, p, texts.sort()[0]!))
    if (bs.length > 0) c.damage(seg, bs)
  }
  return logs
}

afterAll(() => fs.rmSync(DAMAGE_WORK, { recursive: true, force: true }))

describe('export reads a damaged partition once (strace)', () => {
  const fixtures = [path.join(FIXTURES, 'orders'), path.join(FIXTURES_44, 'transactions')]
  for (const fixture of fixtures) {
    DAMAGE_CLASSES.forEach((c, i) => {
      for (const format of ['ndjson', 'parquet']) {
        const name = `${path.relative(path.dirname(path.dirname(fixture)), fixture)}, ${c.name}, --format ${format}`
        it(name, (ctx) => {
          if (!haveStrace()) ctx.skip('strace is not installed (apt-get install strace): bytes read cannot be counted')
          if (!fs.existsSync(path.join(fixture, 'dump'))) ctx.skip(`${fixture}/dump (kafka-dump-log's text) is absent`)
          const logs = damagedLogs(fixture, c, i)
          const root = fs.realpathSync(logs)
          const out = path.join(DAMAGE_WORK, `out-${i}-${format}`)
          const args = ['export', '--format', format, logs, '-o', out]
          // the damage is there and export says so
          const run = spawnSync(process.execPath, [BIN, ...args], {
            encoding: 'utf8',
            env: { ...process.env, NO_COLOR: '1' },
          })
          expect(run.status).toBe(1)
          expect(run.stderr).toContain(`[${c.code}]`)
          fs.rmSync(out, { recursive: true, force: true })
          const per = bytesRead(args, root)
          fs.rmSync(out, { recursive: true, force: true })
          const scan = c.resync ? bytesRead(['reconcile', logs], root) : undefined
          const problems: string[] = []
          for (const [file, n] of per) {
            if (!file.endsWith('.log')) continue
            const size = fs.statSync(file).size
            const limit = scan === undefined ? size : Math.max(size, scan.get(file) ?? 0)
            if (n > limit + SLACK_BYTES)
              problems.push(
                `${path.relative(root, file)}: read ${n} bytes of ${size}, limit ${limit}${scan === undefined ? '' : " (the partition scan's own)"}`,
              )
          }
          expect([...per.keys()].filter((f) => f.endsWith('.log')).length).toBeGreaterThan(0)
          expect(problems).toEqual([])
        })
      }
    })
  }
})

// export where main's one read gave up and ran the two passes (3-4x): offsets that go back below rows already
// written (the partition is handed out again from the copy of what went before, scan/export-read.ts again), a
// batchLength grown into the next batch (the record pass's grown batch taken from the partition scan's window), a
// __transaction_state batch over 1 MiB (copied to the scratch file and read back whole for the records tap). The
// damage is placed at kafka-dump-log's positions of orders-11-0 (0-5, a COMMIT at 6, 7-14 at 511, an ABORT at 15).
// A log is read no more than the partition scan alone (`reconcile`) reads it: once, plus what its resync reads again.
describe('export reads once where the one read used to give up (strace)', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-bytes-read-again-'))
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }))
  const orders11 = (name: string, damage: (log: string, bs: KafkaBatch[]) => void): string => {
    const logs = path.join(work, name)
    fs.cpSync(ORDERS, logs, { recursive: true })
    const text = path.join(FIXTURES, 'orders/dump/orders-11-0/00000000000000000000.log.shallow.txt')
    damage(path.join(logs, 'orders-11-0/00000000000000000000.log'), kafkaBatches(text))
    return path.join(logs, 'orders-11-0')
  }
  const cases: Array<[string, () => string, code: string | null]> = [
    [
      // producer 1's aborted transaction now begins at 0, below the committed rows 0-6 already written
      'offsets that go back below rows already written (7-14 rewritten to 0-7)',
      () =>
        orders11('offsets', (log, bs) => overwrite(log, bs.find((b) => b.baseOffset === 7)!.position, Buffer.alloc(8))),
      null,
    ],
    [
      'a batchLength grown into the next batch (0-5 by 40 bytes, into the COMMIT)',
      () =>
        orders11('grown', (log, bs) => {
          const x = Buffer.alloc(4)
          x.writeInt32BE(bs[0]!.size - 12 + 40)
          overwrite(log, bs[0]!.position + 8, x)
        }),
      'CRC_MISMATCH',
    ],
    [
      'a __transaction_state batch of 1.5 MB',
      () => {
        const d = new LogDir()
        const w = new LogWriter()
        w.plain(2)
        w.plain(1, -1n, 1_500_000)
        w.plain(2)
        const dir = d.segment('__transaction_state', 0, 0n, w.batches)
        fs.renameSync(d.root, path.join(work, 'state'))
        return path.join(work, 'state', path.relative(d.root, dir))
      },
      null,
    ],
  ]
  for (const [name, make, code] of cases) {
    it(name, (ctx) => {
      if (!haveStrace()) ctx.skip('strace is not installed (apt-get install strace): bytes read cannot be counted')
      if (!fs.existsSync(ORDERS)) ctx.skip(`${ORDERS} is absent`)
      const dir = make()
      const root = fs.realpathSync(path.dirname(dir))
      const log = path.join(fs.realpathSync(dir), '00000000000000000000.log')
      const size = fs.statSync(log).size
      for (const format of ['ndjson', 'parquet']) {
        const out = path.join(work, `out-${format}`)
        const args = ['export', '--format', format, dir, '-o', out]
        if (code !== null) {
          const run = spawnSync(process.execPath, [BIN, ...args], {
            encoding: 'utf8',
            env: { ...process.env, NO_COLOR: '1' },
          })
          expect(run.stderr).toContain(`[${code}]`)
          fs.rmSync(out, { recursive: true, force: true })
        }
        const scan = bytesRead(['reconcile', dir], root).get(log)
        expect(scan, 'strace saw no read of the log').toBeDefined()
        const n = bytesRead(args, root).get(log)
        fs.rmSync(out, { recursive: true, force: true })
        expect(n, 'strace saw no read of the log').toBeDefined()
        expect(n!, `${format}: ${n} bytes of ${size}, the partition scan's ${scan}`).toBeLessThanOrEqual(
          Math.max(size, scan!) + SLACK_BYTES,
        )
      }
    })
  }
})

// export of a log dir whose __transaction_state batch carries a producer id (brokers write none: a hostile or damaged
// log), with and without --transactional-id: that batch's rows need every coordinator partition's ids, so from it
// the one read's rows wait for them, past the partition's end (scan/export-read.ts OneReadResult.finish). The
// build before gave up its one read there, read the partition again for its ids and again in the two passes (4x).
// The batch at kafka-dump-log's position 116 of __transaction_state-2 takes producer 1 (tx-rw-1's), its CRC made
// good again, so that the log is clean.
describe('export reads a __transaction_state batch with a producer id once (strace)', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-bytes-read-state-pid-'))
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }))
  const logs = path.join(work, 'logs')
  const rel = '__transaction_state-2/00000000000000000000.log'
  const copy = (): void => {
    if (fs.existsSync(logs)) return
    fs.cpSync(ORDERS, logs, { recursive: true })
    const text = path.join(FIXTURES, 'orders/dump/__transaction_state-2/00000000000000000000.log.shallow.txt')
    const b = kafkaBatches(text).find((x) => x.position === 116)!
    const log = path.join(logs, rel)
    const bytes = fs.readFileSync(log).subarray(b.position, b.position + b.size)
    bytes.writeBigInt64BE(1n, 43) // producerId
    bytes.writeUInt32BE(crc32c(bytes.subarray(21)), 17) // crc: attributes to the end
    overwrite(log, b.position, bytes)
  }
  for (const format of ['ndjson', 'parquet'])
    for (const x of [[], ['--transactional-id', 'tx-rw-1']])
      it(`export --format ${format}${x.length > 0 ? ' --transactional-id' : ''}`, (ctx) => {
        if (!haveStrace()) ctx.skip('strace is not installed (apt-get install strace): bytes read cannot be counted')
        if (!fs.existsSync(ORDERS)) ctx.skip(`${ORDERS} is absent`)
        copy()
        const out = path.join(work, `out-${format}-${x.length}`)
        const root = fs.realpathSync(logs)
        const per = bytesRead(['export', ...x, '--format', format, logs, '-o', out], root)
        fs.rmSync(out, { recursive: true, force: true })
        const size = fs.statSync(path.join(root, rel)).size
        const n = per.get(path.join(root, rel))
        expect(n, 'strace saw no read of the log').toBeDefined()
        expect(n!, `${n} bytes of ${size}`).toBeLessThanOrEqual(size + SLACK_BYTES)
      })
})

// dump --isolation-level holds what its partition scan read of a partition of any size (4 MiB in memory, the rest in a
// scratch file) and dumps it from there: it reads no byte more than the scan alone (`reconcile`). The scan itself reads
// a batch that straddles the end of its 256 KiB window again from its start (1.02x on this log of 5 KB batches).
describe('dump --isolation-level on a large partition (strace)', () => {
  it('reads a 10 MB partition whose first transaction never ends no more than the partition scan does', (ctx) => {
    if (!haveStrace()) ctx.skip('strace is not installed (apt-get install strace): bytes read cannot be counted')
    const d = new LogDir()
    try {
      const w = new LogWriter()
      w.txn(9n, 0, 1)
      for (let i = 0; i < 2000; i++) {
        w.txn(7n, 0, 1, undefined, 5000)
        w.marker(7n, 0, i % 3 === 0 ? 'ABORT' : 'COMMIT')
      }
      const dir = d.segment('big', 0, 0n, w.batches)
      const root = fs.realpathSync(d.root)
      const log = path.join(fs.realpathSync(dir), '00000000000000000000.log')
      const size = fs.statSync(log).size
      expect(size).toBeGreaterThan(10_000_000)
      const scan = bytesRead(['reconcile', dir], root).get(log)
      expect(scan, 'strace saw no read of the log').toBeDefined()
      expect(scan!).toBeLessThan(1.1 * size)
      for (const level of ['read_committed', 'read_uncommitted']) {
        const per = bytesRead(['dump', '--isolation-level', level, '--deep-iteration', dir], root)
        expect(per.get(log), 'strace saw no read of the log').toBeDefined()
        expect(per.get(log)!, level).toBeLessThanOrEqual(scan! + SLACK_BYTES)
      }
    } finally {
      fs.rmSync(d.root, { recursive: true, force: true })
    }
  })
})

// export holds a batch larger than the record pass's 1 MiB window that waits for its transaction's end by its header,
// its bytes copied to a scratch file as its CRC streams past (what the partition scan's window already read of it
// taken from there), and reads its records from there (scan/export-large.ts): no more than the partition scan alone
// (`reconcile`) reads. The build before read again the part of the scan's window that ends inside the batch.
describe('export on a clean partition with a large batch in an open transaction (strace)', () => {
  it('reads the 3 MB batch once', (ctx) => {
    if (!haveStrace()) ctx.skip('strace is not installed (apt-get install strace): bytes read cannot be counted')
    const d = new LogDir()
    try {
      const w = new LogWriter()
      w.plain(3)
      w.txn(7n, 0, 2)
      w.txn(7n, 0, 3, undefined, 1_000_000)
      w.plain(2)
      const dir = d.segment('big', 0, 0n, w.batches)
      const root = fs.realpathSync(d.root)
      const log = path.join(fs.realpathSync(dir), '00000000000000000000.log')
      const size = fs.statSync(log).size
      expect(size).toBeGreaterThan(3_000_000)
      const out = path.join(root, 'out')
      const args = ['export', '--format', 'ndjson', dir, '-o', out]
      // producer 7's transaction never ends: read_committed stops at its first offset, 3 (Kafka's LSO)
      const run = spawnSync(process.execPath, [BIN, ...args], {
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      })
      expect(run.status).toBe(0)
      expect(run.stdout).toContain('big-0: 10 rows (read_committed 3, read_uncommitted 10)')
      fs.rmSync(out, { recursive: true, force: true })
      const scan = bytesRead(['reconcile', dir], root).get(log)
      expect(scan, 'strace saw no read of the log').toBeDefined()
      const per = bytesRead(args, root).get(log)
      expect(per, 'strace saw no read of the log').toBeDefined()
      expect(per!, `${per} bytes of ${size}, the partition scan alone ${scan}`).toBeLessThanOrEqual(
        Math.max(size, scan!) + SLACK_BYTES,
      )
    } finally {
      fs.rmSync(d.root, { recursive: true, force: true })
    }
  })
})

// a batch larger than the read window is never held: the framer streams its CRC window by window, after the
// window that read its header; that window's bytes count toward the CRC as they are (not read again), and a
// deep dump reads the batch's records from what the CRC pass kept (io/batch-copy.ts)
describe('dump of batches larger than the read window (strace)', () => {
  it('reads a log of 3 MB batches once at a 1 MiB window, shallow and deep', (ctx) => {
    if (!haveStrace()) ctx.skip('strace is not installed (apt-get install strace): bytes read cannot be counted')
    const d = new LogDir()
    try {
      const w = new LogWriter()
      w.plain(2)
      w.txn(7n, 0, 3, undefined, 1_000_000)
      w.plain(2)
      w.txn(7n, 0, 3, undefined, 1_000_000)
      w.marker(7n, 0, 'COMMIT')
      const dir = d.segment('big', 0, 0n, w.batches)
      const root = fs.realpathSync(d.root)
      const log = path.join(fs.realpathSync(dir), '00000000000000000000.log')
      const size = fs.statSync(log).size
      expect(size).toBeGreaterThan(6_000_000)
      for (const deep of [[], ['--deep-iteration'], ['--print-data-log']]) {
        const per = bytesRead(['dump', '--window', '1048576', ...deep, dir], root).get(log)
        expect(per, 'strace saw no read of the log').toBeDefined()
        expect(per!, deep.join(' ')).toBeLessThanOrEqual(size + SLACK_BYTES)
      }
    } finally {
      fs.rmSync(d.root, { recursive: true, force: true })
    }
  })

  // a compressed one is read three times by its records' decoder (its length and codec failures first: streamed-batch.ts)
  it('reads a 4 MB gzip batch once, deep (its records from the bytes the CRC pass kept)', (ctx) => {
    if (!haveStrace()) ctx.skip('strace is not installed (apt-get install strace): bytes read cannot be counted')
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-gzip-batch-')))
    try {
      const dir = path.join(root, 'gz-0')
      fs.mkdirSync(dir)
      const log = path.join(dir, '00000000000000000000.log')
      // random values: gzip cannot shrink them, so the batch stays larger than the window
      const records = Array.from({ length: 40 }, (_v, i) => ({ key: `k${i}`, value: randomBytes(100_000) }))
      fs.writeFileSync(log, segment({ codec: 1, records, compress: (b) => gzipSync(b) }))
      const size = fs.statSync(log).size
      expect(size).toBeGreaterThan(4_000_000)
      for (const deep of [['--deep-iteration'], ['--print-data-log']]) {
        const per = bytesRead(['dump', '--window', '1048576', ...deep, dir], root).get(log)
        expect(per, 'strace saw no read of the log').toBeDefined()
        expect(per!, deep.join(' ')).toBeLessThanOrEqual(size + SLACK_BYTES)
      }
    } finally {
      fs.rmSync(root, { recursive: true, force: true })
    }
  })
})

// the counting itself: a file read by cat is counted once, whole
describe('the byte counter', () => {
  it('counts a plain read of a file once', (ctx) => {
    if (!haveStrace()) ctx.skip('strace is not installed (apt-get install strace)')
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-reads-'))
    const file = path.join(dir, 'f.bin')
    fs.writeFileSync(file, Buffer.alloc(100_000, 7))
    const log = path.join(dir, 'strace.txt')
    execFileSync('strace', ['-f', '-qq', '-e', 'trace=read', '-y', '-o', log, 'cat', file], { stdio: 'ignore' })
    const total = fs
      .readFileSync(log, 'utf8')
      .split('\n')
      .map((l) => /read\(\d+<([^>]+)>.*\)\s+=\s+(\d+)$/.exec(l))
      .filter((m) => m !== null && m[1] === fs.realpathSync(file))
      .reduce((s, m) => s + Number(m![2]), 0)
    fs.rmSync(dir, { recursive: true, force: true })
    expect(total).toBe(100_000)
  })
})

/**
 * Bytes of each file below `root` read more than once by `tsdump args`, from the ranges of strace's pread64 lines
 * (offset and count: every segment read goes through FileSource's positional reads), and the bytes read in all.
 */
function bytesReadTwice(args: string[], root: string): Map<string, { twice: number; read: number }> {
  const ranges = new Map<string, Array<[number, number]>>()
  const line = /^pread64\(\d+<([^>]+)>, .*, \d+, (\d+)\)\s+=\s+(\d+)$/
  for (const l of straceLines('pread64', args)) {
    const m = line.exec(l)
    if (m === null || !m[1]!.startsWith(root + '/')) continue
    const list = ranges.get(m[1]!) ?? []
    list.push([Number(m[2]), Number(m[2]) + Number(m[3])])
    ranges.set(m[1]!, list)
  }
  const out = new Map<string, { twice: number; read: number }>()
  for (const [file, list] of ranges) {
    list.sort((a, b) => a[0] - b[0])
    let read = 0
    let once = 0
    let reach = 0
    for (const [a, b] of list) {
      read += b - a
      once += Math.max(0, b - Math.max(a, reach))
      reach = Math.max(reach, b)
    }
    out.set(file, { twice: read - once, read })
  }
  return out
}

/** `tsdump args` reads no byte of a file below `root` whose name matches `files` twice, and reads a segment */
function expectEachByteOnce(args: string[], root: string, files: RegExp): void {
  const per = bytesReadTwice(args, root)
  const read = [...per.keys()].filter((f) => files.test(f))
  expect(read.filter((f) => f.endsWith('.log')).length, 'strace saw no read of a segment').toBeGreaterThan(0)
  const twice = read
    .filter((f) => per.get(f)!.twice > 0)
    .map((f) => `${path.relative(root, f)}: ${per.get(f)!.twice} of ${per.get(f)!.read} bytes read twice`)
  expect(twice).toEqual([])
}

/** the .log files below `dir`, in name order */
function logsUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((n) => n.endsWith('.log'))
    .sort()
    .map((n) => path.join(dir, n))
}

const INTERLEAVED = path.join(FIXTURES, 'interleaved/logs')

// The three places that read bytes twice in main's build before this change, now read once: the resync after framing
// damage searches the bytes the framer already holds and the framer resumes in what the search read (decode/resync.ts
// SearchWindow), a batch over --max-batch-bytes is such damage, and the dump starts in the bytes its seek check read
// (commands/dump/seek.ts Seek.held). Each .log byte is read at most once (no slack): main's build read the bytes
// after the damage, the oversized batch's successors and the checked batch twice.
interface OnceCase {
  name: string
  args: (logs: string) => string[]
  root: string
  damage?: DamageClass
}

/** dump --max-batch-bytes `n` and the commands on damaged copies of orders, given `target` (its .log files or the log dir) */
function onceCases(
  sizes: Array<[number, string]>,
  commands: readonly string[],
  classes: DamageClass[],
  target: (logs: string) => string[],
): OnceCase[] {
  return [
    ...sizes.map(([n, root]) => ({
      name: `dump --max-batch-bytes ${n} (${path.basename(path.dirname(root))})`,
      args: (logs: string) => ['dump', '--max-batch-bytes', String(n), ...target(logs)],
      root,
    })),
    ...classes.flatMap((damage) =>
      commands.map((cmd) => ({
        name: `${cmd} on a copy of orders damaged by ${damage.name}`,
        args: (logs: string) => (cmd.startsWith('dump') ? [...cmd.split(' '), ...target(logs)] : [cmd, logs]),
        root: path.join(FIXTURES, 'orders'),
        damage,
      })),
    ),
  ]
}

/** the case's log dir (a damaged copy for a damage class) and its real path */
function onceLogs(c: OnceCase): { logs: string; root: string } {
  const logs = c.damage === undefined ? c.root : damagedLogs(c.root, c.damage, DAMAGE_CLASSES.indexOf(c.damage) + 100)
  return { logs, root: fs.realpathSync(logs) }
}

describe('each byte of a segment read once: after damage, past an oversized batch, from a seek (strace ranges)', () => {
  const cases: OnceCase[] = [
    ...onceCases(
      [
        [300, ORDERS],
        [400, ORDERS],
        [150, TXNS44],
        [200, TXNS44],
      ],
      ['reconcile', 'txns', 'dump', 'dump --deep-iteration'],
      DAMAGE_CLASSES.filter((c) => c.resync),
      logsUnder,
    ),
    {
      name: 'dump --start-offset 10 on an indexed segment',
      args: (logs) => ['dump', '--start-offset', '10', path.join(logs, 'mixed-0')],
      root: INTERLEAVED,
    },
    {
      name: 'dump --from-time on an indexed segment',
      args: (logs) => ['dump', '--from-time', '1795966594800', path.join(logs, 'mixed-0')],
      root: INTERLEAVED,
    },
  ]
  for (const c of cases) {
    it(c.name, (ctx) => {
      if (!haveStrace()) ctx.skip('strace is not installed (apt-get install strace): bytes read cannot be counted')
      const { logs, root } = onceLogs(c)
      const per = bytesReadTwice(c.args(logs), root)
      const segs = [...per.keys()].filter((f) => f.endsWith('.log'))
      expect(segs.length, 'strace saw no read of a segment').toBeGreaterThan(0)
      const twice = segs
        .filter((f) => per.get(f)!.twice > 0)
        .map((f) => `${path.relative(root, f)}: ${per.get(f)!.twice} of ${per.get(f)!.read} bytes read twice`)
      expect(twice).toEqual([])
    })
  }
})

// The same commands on whole log dirs, each file 1x (with the slack of the tests above): dump's leader-epoch check
// takes the batches Kafka's reader reads (up to a segment's first damage, an oversized entry as it frames it) from
// the dump's own read (commands/dump/epoch-runs.ts), where main's build read every damaged segment again; the
// .timeindex check's walk stops at damage the dump met without framing it from the file (dump-index.ts unframedSeenAt).
describe('dump of a damaged or oversized log dir reads each file once (strace)', () => {
  const cases = onceCases(
    [
      [300, ORDERS],
      [400, ORDERS],
    ],
    ['reconcile', 'txns', 'dump'],
    DAMAGE_CLASSES.filter((c) => c.resync),
    (logs) => [logs],
  )
  for (const c of cases) {
    it(c.name, (ctx) => {
      if (!haveStrace()) ctx.skip('strace is not installed (apt-get install strace): bytes read cannot be counted')
      const { logs, root } = onceLogs(c)
      const per = bytesRead(c.args(logs), root)
      expect(per.size, 'strace saw no read of the inputs').toBeGreaterThan(0)
      const over = [...per]
        .filter(([f, n]) => n > fs.statSync(f).size + SLACK_BYTES)
        .map(([f, n]) => `${path.relative(root, f)}: read ${n} of ${fs.statSync(f).size} bytes`)
      expect(over).toEqual([])
    })
  }
})

// dump's .index and .timeindex checks answered from the dump's own read of the segment: the .timeindex is read before
// its .log and the record timestamps its entries need are taken as the dump passes their batches
// (commands/dump/time-stamps.ts); an entry whose walk or position meets damage the dump met, where nothing can be
// framed, is answered by the damage (dump-index.ts unframedSeenAt). Each byte of every .log, .index and .timeindex
// read at most once (no slack): the build before read each batch an entry points inside of again (a whole segment
// for tx-in-0 of the transactions fixture), 61 bytes at damage an entry points at, and a run of zeros whole.
const INDEX_DAMAGE: DamageClass[] = [
  ...DAMAGE_CLASSES.filter((c) => c.resync),
  {
    name: 'zeros over the last batch (the .timeindex entry points at it)',
    code: 'BAD_LENGTH',
    resync: true,
    damage: (f, bs) => {
      const b = bs[bs.length - 1]!
      overwrite(f, b.position, Buffer.alloc(b.size))
    },
  },
  {
    name: '0xFF inside the last batch',
    code: 'CRC_MISMATCH',
    resync: false,
    damage: (f, bs) => {
      const b = bs[bs.length - 1]!
      overwrite(f, b.position + 20, Buffer.alloc(Math.min(40, b.size - 20), 0xff))
    },
  },
]

describe('dump checks a segment’s indexes from its own read: each byte read once (strace ranges)', () => {
  const isIndexed = (f: string): boolean => /\.(log|index|timeindex)$/.test(f)
  const cases: OnceCase[] = [
    ...([FIXTURES, FIXTURES_44] as const).flatMap((dir) =>
      (dir === FIXTURES ? ['transactions', 'orders', 'interleaved', 'codecs'] : ['codecs', 'transactions']).flatMap(
        (fixture) =>
          [[], ['--deep-iteration'], ['--compat']].map(
            (mode): OnceCase => ({
              name: `dump ${mode.join(' ')} ${path.basename(dir)}/${fixture}`,
              args: (logs) => ['dump', ...mode, logs],
              root: path.join(dir, fixture, 'logs'),
            }),
          ),
      ),
    ),
    ...INDEX_DAMAGE.flatMap((damage) =>
      [[], ['--deep-iteration']].map(
        (mode): OnceCase => ({
          name: `dump ${mode.join(' ')} a copy of orders damaged by ${damage.name}`,
          args: (logs) => ['dump', ...mode, logs],
          root: path.join(FIXTURES, 'orders'),
          damage,
        }),
      ),
    ),
  ]
  for (const c of cases) {
    it(c.name, (ctx) => {
      if (!haveStrace()) ctx.skip('strace is not installed (apt-get install strace): bytes read cannot be counted')
      if (!fs.existsSync(c.root)) ctx.skip(`${c.root} is absent`)
      const logs = c.damage === undefined ? c.root : damagedLogs(c.root, c.damage, 200 + INDEX_DAMAGE.indexOf(c.damage))
      const root = fs.realpathSync(logs)
      const per = bytesReadTwice(c.args(logs), root)
      const files = [...per.keys()].filter(isIndexed)
      expect(files.filter((f) => f.endsWith('.log')).length, 'strace saw no read of a segment').toBeGreaterThan(0)
      const twice = files
        .filter((f) => per.get(f)!.twice > 0)
        .map((f) => `${path.relative(root, f)}: ${per.get(f)!.twice} of ${per.get(f)!.read} bytes read twice`)
      expect(twice).toEqual([])
    })
  }
})

/**
 * Bytes of each file below `root` read more than once by `tsdump args`, exactly (no slack), from every read of the
 * process and its threads: pread64/preadv at their offsets, read() at its descriptor's position (from its openat and
 * lseek, the threads' lines merged in time order). A file read whole twice counts as much as it holds.
 */
function rangesReadTwice(args: string[], root: string): Map<string, number> {
  const lines = straceLines('openat,read,pread64,preadv,preadv2,lseek', args, ['-ttt'])
  const stamp = (l: string): number => Number(l.slice(0, l.indexOf(' ')))
  lines.sort((a, b) => stamp(a) - stamp(b))
  const ranges = new Map<string, Array<[number, number]>>()
  const pos = new Map<string, number>()
  const add = (file: string, at: number, n: number): void => {
    if (!file.startsWith(root + '/') || n <= 0) return
    const list = ranges.get(file) ?? []
    list.push([at, at + n])
    ranges.set(file, list)
  }
  for (const l of lines) {
    const s = l.slice(l.indexOf(' ') + 1)
    let m = /^openat\(.*\)\s+=\s+(\d+)<[^>]+>$/.exec(s)
    if (m !== null) {
      pos.set(m[1]!, 0)
      continue
    }
    m = /^lseek\((\d+)<[^>]+>, .*\)\s+=\s+(\d+)$/.exec(s)
    if (m !== null) {
      pos.set(m[1]!, Number(m[2]))
      continue
    }
    m = /^read\((\d+)<([^>]+)>, .*\)\s+=\s+(\d+)$/.exec(s)
    if (m !== null) {
      const at = pos.get(m[1]!) ?? 0
      pos.set(m[1]!, at + Number(m[3]))
      add(m[2]!, at, Number(m[3]))
      continue
    }
    m = /^(?:pread64|preadv2?)\(\d+<([^>]+)>, .*, (\d+)(?:, \d+)?\)\s+=\s+(\d+)$/.exec(s)
    if (m !== null) add(m[1]!, Number(m[2]), Number(m[3]))
  }
  const out = new Map<string, number>()
  for (const [file, list] of ranges) {
    list.sort((a, b) => a[0] - b[0])
    let twice = 0
    let reach = 0
    for (const [a, b] of list) {
      twice += Math.max(0, Math.min(b, reach) - a)
      reach = Math.max(reach, b)
    }
    out.set(file, twice)
  }
  return out
}

/** `tsdump args` reads no byte of a file below `root` twice, exactly (but the files `except` matches) */
function expectNoByteTwice(args: string[], root: string, except?: RegExp): void {
  const per = rangesReadTwice(args, root)
  expect(per.size, 'strace saw no read of the inputs').toBeGreaterThan(0)
  const twice = [...per]
    .filter(([f, n]) => n > 0 && !(except?.test(f) ?? false))
    .map(([f, n]) => `${path.relative(root, f)}: ${n} of ${fs.statSync(f).size} bytes read twice`)
  expect(twice).toEqual([])
}

const NOW_ARGS = ['--now', '2026-12-01T00:00:00Z']

const KRAFT44 = path.join(FIXTURES_44, 'kraft/logs')
/** cleanup's compacted partitions: their dirty sections are read twice, as Kafka's cleaner reads them (map, then clean) */
const CLEANER_PASSES = /\/(cu-compact|cu-lag|cu-lso|__consumer_offsets|__transaction_state)-\d+\/\d+\.log$/

/** the partition commands that read a log dir's partitions and internal topics, each with its options of time */
const PARTITION_COMMANDS = [
  ['reconcile'],
  ['txns'],
  ['lso', ...NOW_ARGS],
  ['transactions', ...NOW_ARGS],
  ['cleanup', ...NOW_ARGS],
  ['doctor', ...NOW_ARGS],
  ['report', ...NOW_ARGS, '-o', '-'],
]

/** every partition command on each tiered fixture (both layouts), with its remote storage and without */
const TIERED_CASES: Array<{ name: string; args: string[]; root: string }> = (
  [
    ['tiered', []],
    ['tiered-aiven-plain', []],
    ['tiered-aiven-zstd', []],
    ['tiered-aiven-encrypted', ['--remote-key', 'keys/private.pem']],
    ['tiered-retention', []],
  ] as const
).flatMap(([name, more]) => {
  const root = path.join(FIXTURES_44, name)
  const remote = [
    '--remote-storage',
    path.join(root, 'remote'),
    ...more.map((a) => (a.includes('/') ? path.join(root, a) : a)),
  ]
  return [...PARTITION_COMMANDS, ['remote']].flatMap((c) => [
    { name: `${c[0]} ${name} --remote-storage`, args: [...c, ...remote, path.join(root, 'logs')], root },
    ...(c[0] === 'remote' ? [] : [{ name: `${c[0]} ${name}`, args: [...c, path.join(root, 'logs')], root }]),
  ])
})

// Every input file read once by the partition commands, to the byte: the side files each into what the partition
// holds (the producer snapshot's entries from its CRC's own read, the log dir's checkpoints once for all its partitions
// and threads, partition.metadata's topic id and the leader-epoch lineage kept on the partition), a remote segment's
// probed bytes served to its scan, the report's paths resolved once, the --remote-key file read once. The build before
// read each snapshot 1.9x, each checkpoint 2-3x, partition.metadata 2x, a remote .log's first byte 2x and the key 3x.
// `except`: what each case still reads twice, and why (the list only shrinks).
describe('the partition commands read each file once, to the byte (strace ranges)', () => {
  const cases: Array<{ name: string; args: string[]; root: string; except?: RegExp }> = [
    { name: 'reconcile orders', args: ['reconcile', ORDERS], root: ORDERS },
    { name: 'txns orders', args: ['txns', ORDERS], root: ORDERS },
    { name: 'lso orders', args: ['lso', ...NOW_ARGS, ORDERS], root: ORDERS },
    { name: 'transactions 4.4.0', args: ['transactions', ...NOW_ARGS, TXNS44], root: TXNS44 },
    { name: 'doctor orders', args: ['doctor', ...NOW_ARGS, ORDERS], root: ORDERS },
    { name: 'report orders', args: ['report', ...NOW_ARGS, '-o', '-', ORDERS], root: ORDERS },
    // the metadata log (__cluster_metadata): its configs, partition counts and metadata.version read in its own
    // partition scan's pass (scan/metadata-log.ts, BrokerModelOptions.metadataInScan), scanned first where cleanup
    // needs its configs before the other partitions. The build before read it again for the configs (cleanup, lso's
    // and transactions' metadata.version) and a third time for the partition counts, its snapshot twice (doctor, report).
    { name: 'cleanup kraft', args: ['cleanup', ...NOW_ARGS, KRAFT44], root: KRAFT44 },
    { name: 'doctor kraft', args: ['doctor', ...NOW_ARGS, KRAFT44], root: KRAFT44 },
    { name: 'report kraft', args: ['report', ...NOW_ARGS, '-o', '-', KRAFT44], root: KRAFT44 },
    { name: 'lso cleanup (metadata.version)', args: ['lso', ...NOW_ARGS, CLEANUP], root: CLEANUP },
    { name: 'lso --json cleanup (metadata.version)', args: ['lso', '--json', ...NOW_ARGS, CLEANUP], root: CLEANUP },
    { name: 'transactions cleanup (metadata.version)', args: ['transactions', ...NOW_ARGS, CLEANUP], root: CLEANUP },
    // lso --transactional-id: the coordinator's partition count from the model's read of the metadata log (its
    // partition scan's pass), not a read of its own. The build before read the log and its snapshot again for it.
    ...[
      ['cleanup', CLEANUP, 'cu-open'],
      ['kraft', KRAFT44, 'tx-none'],
    ].flatMap(([name, root, id]) =>
      [[], ['--json']].map((json) => ({
        name: `${['lso', ...json].join(' ')} --transactional-id ${name}`,
        args: ['lso', ...json, ...NOW_ARGS, '--transactional-id', id!, root!],
        root: root!,
      })),
    ),
    { name: 'cleanup cleanup', args: ['cleanup', ...NOW_ARGS, CLEANUP], root: CLEANUP, except: CLEANER_PASSES },
    { name: 'doctor cleanup', args: ['doctor', ...NOW_ARGS, CLEANUP], root: CLEANUP, except: CLEANER_PASSES },
    // __remote_log_metadata: read in its partitions' own scans, taken first, and the remote plan of each partition,
    // the note of remote offsets not read, cleanup's tiered retention and doctor's remote inventory built from that
    // one read (scan/remote-metadata-read.ts). The build before read it for the plan (or the note), again as a
    // partition of the log dir, a third time for cleanup's tiered retention and a fourth for doctor's inventory.
    ...TIERED_CASES,
  ]
  for (const c of cases) {
    it(c.name, (ctx) => {
      if (!haveStrace()) ctx.skip('strace is not installed (apt-get install strace): bytes read cannot be counted')
      if (!fs.existsSync(c.root)) ctx.skip(`${c.root} is absent`)
      expectNoByteTwice(c.args, fs.realpathSync(c.root), c.except)
    })
  }
})

/**
 * A copy of the tiered fixture's log dir at `logs` with `extra` partitions (a directory, its name there) beside its
 * own, made at the first test that runs; a test skips where strace or the fixtures are absent
 */
function tieredCopy(
  logs: string,
  extra: Array<[string, string]>,
  then?: (logs: string) => void,
): (ctx: { skip: (note: string) => void }) => void {
  return (ctx) => {
    if (!haveStrace()) ctx.skip('strace is not installed (apt-get install strace): bytes read cannot be counted')
    if (!fs.existsSync(path.join(FIXTURES_44, 'tiered')) || !fs.existsSync(ORDERS))
      ctx.skip('the tiered or orders fixture is absent')
    if (fs.existsSync(logs)) return
    fs.cpSync(path.join(FIXTURES_44, 'tiered', 'logs'), logs, { recursive: true })
    for (const [from, name] of extra) fs.cpSync(from, path.join(logs, name), { recursive: true })
    then?.(logs)
  }
}

// The same where partitions sort before __remote_log_metadata's (a __consumer_offsets partition, a topic named in
// capitals): their scans need the metadata as they start (their remote plan, or the note of remote offsets not read),
// so each command scans the metadata's partitions first, whatever the order it lists them in.
describe('__remote_log_metadata is read once where other partitions sort before it (strace ranges)', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-bytes-read-remote-first-'))
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }))
  const tiered = path.join(FIXTURES_44, 'tiered')
  const logs = path.join(work, 'logs')
  const copy = tieredCopy(logs, [
    [path.join(FIXTURES_44, 'groups/logs/__consumer_offsets-0'), '__consumer_offsets-0'],
    [path.join(ORDERS, 'orders-11-0'), 'Orders-0'],
  ])
  for (const c of PARTITION_COMMANDS)
    for (const remote of [false, true])
      it(`${c[0]}${remote ? ' --remote-storage' : ''}`, (ctx) => {
        copy(ctx)
        const args = [...c, ...(remote ? ['--remote-storage', path.join(tiered, 'remote')] : []), logs]
        expectNoByteTwice(args, fs.realpathSync(work))
      })
})

// __remote_log_metadata in its partitions' own scans under --no-resync too (their frames are the metadata readers' up
// to damage; a partition whose scan stopped at damage is read alone after it, as the readers resync), and txns
// --transactional-id scans them before the coordinator's partitions, whose scans ask for the metadata as they start
// (scan/txns-partition.ts timelinesAhead). The build before read the metadata alone under --no-resync, and for the
// coordinator's scans in txns --transactional-id, then again as partitions of the log dir.
describe('__remote_log_metadata is read once under --no-resync and by txns --transactional-id (strace ranges)', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-bytes-read-remote-meta-'))
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }))
  // the tiered log dir with orders' coordinator partition and a partition of its transactions beside it
  const logs = path.join(work, 'logs')
  const copy = tieredCopy(
    logs,
    ['__transaction_state-2', 'orders-11-0'].map((p) => [path.join(ORDERS, p), p]),
  )
  const cases: string[][] = [
    // (doctor has no --no-resync)
    ...PARTITION_COMMANDS.filter((c) => c[0] !== 'doctor').map((c) => [...c, '--no-resync']),
    ['txns', '--transactional-id', 'tx-rw-1'],
    ['txns', '--json', '--transactional-id', 'tx-rw-1'],
    ['txns', '--no-resync', '--transactional-id', 'tx-rw-1'],
  ]
  for (const c of cases)
    it(c.join(' '), (ctx) => {
      copy(ctx)
      expectNoByteTwice([...c, logs], fs.realpathSync(work))
    })
})

// --remote-storage with a partition that has no local segment (every one of its segments in remote storage): its
// remote plan is made when the paths are resolved (whether to scan it at all), which reads the metadata alone before
// any scan; that read holds the metadata partitions' segments (up to 4 MiB: scan/remote-metadata-read.ts) and their
// partition scans read them from there. The build before read __remote_log_metadata-1 and -2 twice.
describe('__remote_log_metadata is read once with a partition of no local segment (strace ranges)', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-bytes-read-no-local-'))
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }))
  const logs = path.join(work, 'logs')
  // tiered-0 without its local segments
  const copy = tieredCopy(logs, [], (l) => {
    for (const n of fs.readdirSync(path.join(l, 'tiered-0')))
      if (/\.(log|index|timeindex)$/.test(n)) fs.rmSync(path.join(l, 'tiered-0', n))
  })
  const remote = ['--remote-storage', path.join(FIXTURES_44, 'tiered', 'remote')]
  for (const c of PARTITION_COMMANDS)
    it(c[0]!, (ctx) => {
      copy(ctx)
      expectNoByteTwice([...c, ...remote, logs], fs.realpathSync(work))
    })
})

// dump --verify-index-only reads no segment whole: each .index entry's batch and each batch the .timeindex check walks
// is framed from the log by its header alone, a marker and a legacy entry too, once across both checks, and the records
// of a .timeindex entry's batch are read from the rest of its bytes (commands/dump/framed-headers.ts). The build before
// framed a marker by its header and then read it whole, framed the batches at the .index's positions again for the
// .timeindex, and read each .timeindex entry's batch again from its start (kafka-dump-log's own reads, 61-1,986 bytes
// twice per fixture segment), and framed again a position where nothing frames (damage an entry points at).
/** `dump mode` on a copy of interleaved and of 4.4's transactions damaged by each of INDEX_DAMAGE */
function damagedIndexCases(mode: string): OnceCase[] {
  return [path.join(FIXTURES, 'interleaved'), path.join(FIXTURES_44, 'transactions')].flatMap((fixture) =>
    INDEX_DAMAGE.map(
      (damage): OnceCase => ({
        name: `dump ${mode}, a copy of ${path.basename(fixture)} damaged by ${damage.name}`,
        args: (logs) => ['dump', mode, logs],
        root: fixture,
        damage,
      }),
    ),
  )
}

describe('dump --verify-index-only frames each entry once (strace ranges)', () => {
  const cases: OnceCase[] = [
    ...(
      [
        [FIXTURES_44, 'flink-pooling'],
        [FIXTURES_44, 'transactions'],
        [FIXTURES_44, 'groups'],
        [FIXTURES, 'codecs'],
        [FIXTURES, 'interleaved'],
      ] as const
    ).map(
      ([dir, fixture]): OnceCase => ({
        name: `${path.basename(dir)}/${fixture}`,
        args: (logs) => ['dump', '--verify-index-only', logs],
        root: path.join(dir, fixture, 'logs'),
      }),
    ),
    ...damagedIndexCases('--verify-index-only'),
  ]
  cases.forEach((c, i) => {
    it(c.name, (ctx) => {
      if (!haveStrace()) ctx.skip('strace is not installed (apt-get install strace): bytes read cannot be counted')
      if (!fs.existsSync(c.root)) ctx.skip(`${c.root} is absent`)
      const logs = c.damage === undefined ? c.root : damagedLogs(c.root, c.damage, 300 + i)
      expectEachByteOnce(c.args(logs), fs.realpathSync(logs), /\.log$/)
    })
  })
})

// The active segment's .index and .timeindex as the broker leaves them: preallocated to segment.index.bytes (10 MiB,
// Kafka's default), zero-filled after the entries (AbstractIndex resizes them only when the segment rolls). The dump
// holds each file's windows up to its first zero entry (decode/entry-windows.ts entryPrefix, io/prefix-source.ts):
// the .timeindex is read before the .log as a small one is, and the .index once for its dump and the .timeindex
// check's lookups. The build before read a .timeindex over 4 MiB only after the .log, and so each entry's batch from
// the log again, and the whole 10 MiB .index again for the .timeindex check (every .log byte the entries point at
// and 512 KiB of the .index twice).
describe('dump of a segment with preallocated index files reads each byte once (strace ranges)', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-bytes-read-prealloc-'))
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }))
  const SEGMENT_INDEX_BYTES = 10 * 1024 * 1024
  for (const mode of [[], ['--deep-iteration'], ['--compat'], ['--verify-index-only']]) {
    it(`dump ${mode.join(' ')}`, (ctx) => {
      if (!haveStrace()) ctx.skip('strace is not installed (apt-get install strace): bytes read cannot be counted')
      if (!fs.existsSync(INTERLEAVED)) ctx.skip(`${INTERLEAVED} is absent`)
      const dir = path.join(work, 'mixed-0')
      if (!fs.existsSync(dir)) {
        fs.mkdirSync(dir)
        for (const ext of ['.log', '.index', '.timeindex'])
          fs.copyFileSync(
            path.join(INTERLEAVED, 'mixed-0', `00000000000000000000${ext}`),
            path.join(dir, `00000000000000000000${ext}`),
          )
        for (const ext of ['.index', '.timeindex'])
          fs.truncateSync(path.join(dir, `00000000000000000000${ext}`), SEGMENT_INDEX_BYTES)
      }
      const root = fs.realpathSync(work)
      const per = bytesReadTwice(['dump', ...mode, dir], root)
      expect(
        [...per.keys()].filter((f) => f.endsWith('.timeindex')).length,
        'strace saw no read of the .timeindex',
      ).toBe(1)
      const twice = [...per]
        .filter(([, r]) => r.twice > 0)
        .map(([f, r]) => `${path.relative(root, f)}: ${r.twice} of ${r.read} bytes read twice`)
      expect(twice).toEqual([])
    })
  }
})

// dump --compat (and --no-resync) stops at a segment's first damage, as kafka-dump-log does, while its read window
// holds the bytes after it; the index checks then frame the entries there as kafka-dump-log's do, through what the
// window held (BatchPositions.stoppedAt, io/held-range-source.ts). The build before read those bytes again from the
// file: 61-1,252 bytes of each damaged segment twice.
describe('dump --compat and --no-resync on damaged copies: the index checks read no byte of the log again (strace ranges)', () => {
  const cases = ['--compat', '--no-resync'].flatMap(damagedIndexCases)
  cases.forEach((c, i) => {
    it(c.name, (ctx) => {
      if (!haveStrace()) ctx.skip('strace is not installed (apt-get install strace): bytes read cannot be counted')
      if (!fs.existsSync(c.root)) ctx.skip(`${c.root} is absent`)
      const logs = damagedLogs(c.root, c.damage!, 400 + i)
      expectEachByteOnce(c.args(logs), fs.realpathSync(logs), /\.(log|index|timeindex)$/)
    })
  })
})

// dump of a partition's side files reads each byte once: a producer snapshot's entries are printed from what its CRC's
// pass read (held: io/held-segments.ts `once`), a checkpoint's printing and the epoch check walk what its check read,
// and the leader-epoch check is answered from the dump's own read of the segments when a cache entry starts inside a
// run of one epoch (the cache's start offsets read before the segments end the runs: commands/dump/epoch-runs.ts). The
// build before read each snapshot's entries twice, each checkpoint 2-4 times, and log-start's segments again for the
// check (ls-0's entry at offset 5 lies inside its run of epoch 0).
describe('dump reads a snapshot, the checkpoints and the segments for the epoch check once (strace ranges)', () => {
  const LOG_START = path.join(FIXTURES_44, 'log-start/logs')
  const CODECS44 = path.join(FIXTURES_44, 'codecs/logs')
  const cases: Array<{ name: string; args: string[]; root: string }> = [
    ...[[], ['--deep-iteration'], ['--compat'], ['--json']].map((mode) => ({
      name: `dump ${mode.join(' ')} broker-4.4/log-start`,
      args: ['dump', ...mode, LOG_START],
      root: LOG_START,
    })),
    { name: 'dump broker-4.4/codecs', args: ['dump', CODECS44], root: CODECS44 },
    {
      name: "dump of the log dir's checkpoints and a leader-epoch-checkpoint alone",
      args: [
        'dump',
        ...['replication-offset-checkpoint', 'log-start-offset-checkpoint', 'ls-0/leader-epoch-checkpoint'].map((f) =>
          path.join(LOG_START, f),
        ),
      ],
      root: LOG_START,
    },
  ]
  for (const c of cases) {
    it(c.name, (ctx) => {
      if (!haveStrace()) ctx.skip('strace is not installed (apt-get install strace): bytes read cannot be counted')
      if (!fs.existsSync(c.root)) ctx.skip(`${c.root} is absent`)
      expectNoByteTwice(c.args, fs.realpathSync(c.root))
    })
  }

  it('reads a snapshot of 100,000 producers (4.6 MB: past the CRC window and the held memory) once', (ctx) => {
    if (!haveStrace()) ctx.skip('strace is not installed (apt-get install strace): bytes read cannot be counted')
    const d = new LogDir()
    try {
      const entries = Array.from({ length: 100_000 }, (_v, i) => ({
        producerId: BigInt(1000 + i),
        producerEpoch: i % 7,
        lastOffset: BigInt(i),
      }))
      d.snapshot('snap', 0, 100_000n, entries)
      const root = fs.realpathSync(d.root)
      const file = path.join(root, 'snap-0', `${'100000'.padStart(20, '0')}.snapshot`)
      const run = spawnSync(process.execPath, [BIN, 'dump', file], { encoding: 'utf8', maxBuffer: 1 << 28 })
      // every entry printed: the held bytes gave them all
      expect(run.stdout.split('\n').filter((l) => l.startsWith('producerId: ')).length).toBe(100_000)
      expect(run.stdout).toContain('producerId: 100999 producerEpoch: 4')
      const n = rangesReadTwice(['dump', file], root).get(file)
      expect(n, 'strace saw no read of the snapshot').toBeDefined()
      expect(n!, `${n} bytes of ${fs.statSync(file).size} read twice`).toBe(0)
    } finally {
      d.remove()
    }
  })
})
