// Hostile inputs of the newer commands (transactions, cleanup, remote, replicas, lso with the coordinator's
// states): the internal topics' records and framing, the checkpoints and meta.properties as those commands read
// them, and unreadable paths met by a user who cannot read them. Fast tier only: small log directories, each
// command run once per instance, so fewer instances than the other classes (perClass) keep the tier's time. Same shape as classes.mjs (make(rnd, dir) -> { inputs, runs }).
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { smallBatches, transactionStateLog } from './builders.mjs'
import { FileWriter, batch, record } from './encode.mjs'

const LOG = '00000000000000000000.log'
const NOW = ['--now', '2030-01-01T00:00:00Z']
const exitIs =
  (...codes) =>
  (r) =>
    codes.includes(r.code) ? undefined : `exit ${r.code}, expected ${codes.join(' or ')}`
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
const FRAMING =
  /\[(TRUNCATED_TAIL|SHORT_TAIL|BAD_LENGTH|BAD_MAGIC)\]|"code":"(TRUNCATED_TAIL|SHORT_TAIL|BAD_LENGTH|BAD_MAGIC)"/

/** a broker log directory: a data partition, __transaction_state-0 and the offset checkpoints */
function brokerDir(rnd, dir) {
  const logs = path.join(dir, 'logs')
  for (const d of ['orders-0', '__transaction_state-0']) fs.mkdirSync(path.join(logs, d), { recursive: true })
  smallBatches(path.join(logs, 'orders-0', LOG), 1 + rnd.int(40))
  transactionStateLog(path.join(logs, '__transaction_state-0', LOG), 3 + rnd.int(60), 1 + rnd.int(6))
  for (const f of [
    'replication-offset-checkpoint',
    'log-start-offset-checkpoint',
    'recovery-point-offset-checkpoint',
    'cleaner-offset-checkpoint',
  ]) {
    fs.writeFileSync(path.join(logs, f), '0\n1\norders 0 1\n')
  }
  fs.writeFileSync(path.join(logs, 'meta.properties'), 'version=1\nnode.id=1\ncluster.id=AAAAAAAAAAAAAAAAAAAAAA\n')
  return logs
}

/** the batch starts of a segment (each entry: 12 bytes of offset and length, then that many) */
function batchStarts(file) {
  const b = fs.readFileSync(file)
  const out = []
  for (let p = 0; p + 12 <= b.length; p += 12 + b.readInt32BE(p + 8)) out.push(p)
  return out
}

/** one internal-topic record batch: key, value */
function internalLog(file, records) {
  const w = new FileWriter(file)
  records.forEach(([key, value], i) => {
    w.write(batch({ baseOffset: i, count: 1, baseTimestamp: 1700000000000 + i }, record({ key, value })))
  })
  w.close()
}
const bytesOf = (rnd, n) => Buffer.from(Array.from({ length: n }, () => rnd.int(256)))
const int16 = (n) => {
  const b = Buffer.alloc(2)
  b.writeInt16BE(n)
  return b
}
const str = (s) => Buffer.concat([int16(Buffer.byteLength(s)), Buffer.from(s)])

const labelOf = (a) => a[0] + (a.includes('--json') ? '-json' : '')
// (cleanup --json joins these runs once its findings carry their file and position: today they carry code and message only)
const COMMANDS = [
  ['transactions'],
  ['transactions', '--json'],
  ['txns'],
  ['lso', ...NOW],
  ['lso', '--json', ...NOW],
  ['cleanup', ...NOW],
]

export const INTERNAL_CLASSES = [
  // a torn tail or a length field that cannot be right in __transaction_state: the dump's finding, in every command
  {
    name: 'internal-topic-framing',
    tiers: ['fast'],
    perClass: 12,
    make(rnd, dir) {
      const logs = brokerDir(rnd, dir)
      const f = path.join(logs, '__transaction_state-0', LOG)
      const starts = batchStarts(f)
      if (rnd.int(2) === 0) {
        fs.truncateSync(f, fs.statSync(f).size - 1 - rnd.int(40)) // inside the last batch (each is over 61 bytes)
      } else {
        const b = fs.readFileSync(f)
        b.writeInt32BE(rnd.pick([-1, 3, 0x7ffffff0]), rnd.pick(starts) + 8)
        fs.writeFileSync(f, b)
      }
      return {
        inputs: [logs],
        runs: COMMANDS.map((a) => ({
          label: labelOf(a),
          argv: [...a, logs],
          stdout: 'capture',
          // cleanup's text has no stderr lines; its --json carries the finding; every other command says it
          expect: all(
            exitIs(1),
            a[0] === 'cleanup' && !a.includes('--json') ? () => undefined : says(FRAMING, 'a framing finding'),
          ),
        })),
      }
    },
  },
  // records that lie: a __transaction_state value or an offset commit of a version outside the definitions,
  // metadata and remote-log-metadata values of random bytes; never a crash, never exit 2
  {
    name: 'internal-topic-records',
    tiers: ['fast'],
    perClass: 12,
    make(rnd, dir) {
      const logs = brokerDir(rnd, dir)
      const version = rnd.pick([-1, -32768, 2, 7, 32767])
      const txn = path.join(logs, '__transaction_state-0', LOG)
      internalLog(txn, [
        [Buffer.concat([int16(0), str('lying-0')]), Buffer.concat([int16(version), bytesOf(rnd, rnd.int(40))])],
      ])
      fs.mkdirSync(path.join(logs, '__consumer_offsets-0'))
      internalLog(path.join(logs, '__consumer_offsets-0', LOG), [
        [
          Buffer.concat([int16(1), str('g'), str('orders'), Buffer.from([0, 0, 0, 0])]),
          Buffer.concat([int16(version), bytesOf(rnd, rnd.int(30))]),
        ],
      ])
      for (const t of ['__cluster_metadata-0', '__remote_log_metadata-0']) {
        fs.mkdirSync(path.join(logs, t))
        internalLog(
          path.join(logs, t, LOG),
          Array.from({ length: 1 + rnd.int(4) }, () => [
            null,
            Buffer.concat([Buffer.from([1, rnd.int(30), rnd.int(4)]), bytesOf(rnd, rnd.int(60))]),
          ]),
        )
      }
      return {
        inputs: [logs],
        runs: [...COMMANDS, ['remote', '--remote-storage', path.join(dir, 'remote')]].map((a) => ({
          label: labelOf(a),
          argv: [...a, logs],
          stdout: 'null',
          setup: () => {
            fs.mkdirSync(path.join(dir, 'remote'), { recursive: true })
          },
          expect: exitIs(0, 1),
        })),
      }
    },
  },
  // checkpoints and meta.properties as the newer commands read them: versions, counts and lines that lie,
  // entries that go back, partition.metadata of another version; replicas compares two copies
  {
    name: 'checkpoints-and-meta',
    tiers: ['fast'],
    perClass: 12,
    make(rnd, dir) {
      const logs = brokerDir(rnd, dir)
      const other = path.join(dir, 'logs2')
      fs.cpSync(logs, other, { recursive: true })
      const lies = [
        '1\n1\norders 0 5\n',
        '0\n3\norders 0 5\n',
        '0\n1\norders 0 -7\n',
        '0\n1\norders x 5\n',
        '',
        '0\n',
        '0\n1\n\n',
        bytesOf(rnd, rnd.int(64)).toString('latin1'),
      ]
      for (const f of [
        'replication-offset-checkpoint',
        'log-start-offset-checkpoint',
        'recovery-point-offset-checkpoint',
        'cleaner-offset-checkpoint',
      ]) {
        if (rnd.int(2) === 0) fs.writeFileSync(path.join(logs, f), rnd.pick(lies))
      }
      fs.writeFileSync(
        path.join(logs, 'orders-0', 'leader-epoch-checkpoint'),
        rnd.pick([
          '0\n2\n0 10\n1 5\n',
          '0\n2\n3 0\n2 4\n',
          '0\n1\n0 0\n',
          '9\n',
          bytesOf(rnd, rnd.int(40)).toString('latin1'),
        ]),
      )
      fs.writeFileSync(
        path.join(logs, 'orders-0', 'partition.metadata'),
        rnd.pick(['version: 1\ntopic_id: AAAAAAAAAAAAAAAAAAAAAA\n', 'version: 0\ntopic_id: short\n', 'garbage']),
      )
      fs.writeFileSync(
        path.join(logs, 'meta.properties'),
        rnd.pick(['', 'node.id=\n', 'node.id=x\ncluster.id=\n', bytesOf(rnd, rnd.int(80)).toString('latin1')]),
      )
      const runs = [
        ['dump', path.join(logs, 'orders-0')],
        ['reconcile', logs],
        ['lso', ...NOW, logs],
        ['cleanup', ...NOW, logs],
        ['replicas', logs, other],
        ['replicas', '--json', logs, other],
        ['transactions', logs],
      ]
      return {
        inputs: [logs, other],
        runs: runs.map((a) => ({ label: labelOf(a), argv: a, stdout: 'null', expect: exitIs(0, 1) })),
      }
    },
  },
  // unreadable paths, run as uid 65534 (root reads everything): a partition directory, a segment, a checkpoint;
  // a finding, never a stack trace (the CLI's input-size probe once died on EACCES); no runs where the machine
  // cannot switch user (said once, below)
  {
    name: 'unreadable-as-nobody',
    tiers: ['fast'],
    perClass: 3,
    make(rnd, dir) {
      if (nobodyWhy !== null) return { inputs: [], runs: [] }
      const logs = brokerDir(rnd, dir)
      const other = path.join(dir, 'logs2')
      fs.cpSync(logs, other, { recursive: true })
      spawnSync('chmod', ['-R', 'a+rX', dir])
      const closed = rnd.pick([
        path.join(logs, 'orders-0'),
        path.join(logs, 'orders-0', LOG),
        path.join(logs, 'replication-offset-checkpoint'),
        path.join(logs, '__transaction_state-0'),
      ])
      const runs = [
        ['dump', logs],
        ['reconcile', logs],
        ['txns', logs],
        ['lso', ...NOW, logs],
        ['transactions', logs],
        ['cleanup', ...NOW, logs],
        ['replicas', logs, other],
      ]
      return {
        inputs: [],
        runs: runs.map((a, i) => ({
          label: a[0],
          argv: a,
          stdout: 'null',
          childOnly: true,
          wrap: AS_NOBODY,
          setup:
            i === 0
              ? () => {
                  fs.chmodSync(closed, 0o000)
                }
              : undefined,
          expect: exitIs(0, 1, 2),
        })),
      }
    },
  },
]

const AS_NOBODY = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups']
/** why this machine cannot run the CLI as uid 65534, or null */
const nobodyWhy = (() => {
  if (process.getuid?.() !== 0) return 'not running as root'
  const r = spawnSync(AS_NOBODY[0], [...AS_NOBODY.slice(1), process.execPath, '-e', '0'])
  if (r.error !== undefined || r.status !== 0)
    return `setpriv cannot switch to uid 65534 (${r.error?.message ?? `exit ${r.status}`})`
  return null
})()
if (nobodyWhy !== null) console.log(`fuzz: unreadable-as-nobody runs nothing: ${nobodyWhy}`)
