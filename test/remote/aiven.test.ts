// Remote segments written by Aiven's tiered-storage plugin (fixtures/broker-4.4/tiered-aiven-{plain,zstd,encrypted}:
// a 4.4.0 broker, the plugin's FileSystemStorage, key prefix tsdump/). Truth: the Java consumers' counts
// (expected.json tiered.partitions), kafka-dump-log's text of the reassembled segments (stored for plain, whose
// .log objects are the segments' bytes; for zstd and encrypted, Kafka 4.4.0's DumpLogSegments run here on the
// segments as this test's own reader reassembles them, with node:crypto and fzstd, from the plugin's classes).
import { spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { toDumpOptions } from '../../src/cli/commands/dump.js'
import { runDump } from '../../src/commands/dump.js'
import { reconcile } from '../../src/commands/reconcile.js'
import { remoteInventory } from '../../src/commands/remote.js'
import { closeRemoteStores } from '../../src/io/remote/store.js'
import { FIXTURES_44, REPO_ROOT } from '../support/paths.js'
import { runCli } from '../support/run-cli.js'
import { testContext } from '../hostile/support.js'

const fzstd = createRequire(import.meta.url)('fzstd') as { decompress: (b: Uint8Array) => Uint8Array }
const VARIANTS = ['plain', 'zstd', 'encrypted'] as const
const dirOf = (v: string): string => path.join(FIXTURES_44, `tiered-aiven-${v}`)
const KEY = path.join(dirOf('encrypted'), 'keys/private.pem')
interface Expected {
  topic: string
  partition: number
  readCommittedRecords: number
  readUncommittedRecords: number
}
const expectedOf = (v: string): Expected[] =>
  (JSON.parse(fs.readFileSync(path.join(dirOf(v), 'expected.json'), 'utf8')) as { tiered: { partitions: Expected[] } })
    .tiered.partitions
const remoteOf = (v: string, storage = path.join(dirOf(v), 'remote')): { storage: string; keyFile?: string } =>
  v === 'encrypted' ? { storage, keyFile: KEY } : { storage }
const counts = (r: ReturnType<typeof reconcile>): Array<[string, number, number]> =>
  r.partitions.map((p) => [p.label, Number(p.report.readCommitted), Number(p.report.readUncommitted)])
const errors = (r: ReturnType<typeof reconcile>): string[] =>
  r.partitions.flatMap((p) =>
    p.report.findings.filter((f) => f.severity === 'error').map((f) => `${f.code} ${f.file ?? ''}: ${f.message}`),
  )
const tmpDirs: string[] = []
function tmp(): string {
  const d = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'tsdump-aiven-'))
  tmpDirs.push(d)
  return d
}
afterAll(() => {
  closeRemoteStores()
  for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true })
})

/** the fixture's remote tree copied, to damage */
function copyRemote(v: string): string {
  const to = path.join(tmp(), 'remote')
  fs.cpSync(path.join(dirOf(v), 'remote'), to, { recursive: true })
  return to
}
function objects(root: string, suffix: string): string[] {
  const out: string[] = []
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name)
      if (e.isDirectory()) walk(p)
      else if (p.endsWith(suffix)) out.push(p)
    }
  }
  walk(root)
  return out.sort()
}

/**
 * The test's own reader of the plugin's format (SegmentManifestV1, ChunkSizesBinaryCodec, AesEncryptionProvider,
 * RsaEncryptionProvider): a segment's bytes from its .log object and manifest.
 */
function reassemble(logObject: string, keyPem: Buffer | null): Buffer {
  const m = JSON.parse(fs.readFileSync(logObject.replace(/\.log$/, '.rsm-manifest'), 'utf8'))
  const obj = fs.readFileSync(logObject)
  const ci = m.chunkIndex
  const n = Math.ceil(ci.originalFileSize / ci.originalChunkSize)
  let sizes: number[]
  if (ci.type === 'fixed')
    sizes = Array.from({ length: n }, (_, i) => (i === n - 1 ? ci.finalTransformedChunkSize : ci.transformedChunkSize))
  else {
    const b = Buffer.from(fzstd.decompress(Buffer.from(ci.transformedChunks, 'base64')))
    const count = b.readInt32BE(0)
    if (count === 1) sizes = [b.readInt32BE(4)]
    else {
      const base = b.readInt32BE(4)
      const w = b[8]!
      sizes = []
      for (let i = 0; i < count - 1; i++) sizes.push(base + b.readUIntBE(9 + i * w, w))
      sizes.push(b.readInt32BE(9 + (count - 1) * w))
    }
  }
  let key: Buffer | null = null
  if (m.encryption !== undefined) {
    key = crypto.privateDecrypt(
      { key: keyPem!, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha3-512' },
      Buffer.from(m.encryption.dataKey.split(':')[1], 'base64'),
    )
  }
  const parts: Buffer[] = []
  let at = 0
  for (const size of sizes) {
    let c = obj.subarray(at, at + size)
    at += size
    if (key !== null) {
      const d = crypto.createDecipheriv('aes-256-gcm', key, c.subarray(0, 12))
      d.setAAD(Buffer.from(m.encryption.aad, 'base64'))
      d.setAuthTag(c.subarray(c.length - 16))
      c = Buffer.concat([d.update(c.subarray(12, c.length - 16)), d.final()])
    }
    if (m.compression === true) c = Buffer.from(fzstd.decompress(c))
    parts.push(c)
  }
  return Buffer.concat(parts)
}

describe.each(VARIANTS)('Aiven %s: every command reads the remote segments', (v) => {
  const logs = path.join(dirOf(v), 'logs')
  const expected = expectedOf(v)
  const java = expected.map((e) => [`${e.topic}-${e.partition}`, e.readCommittedRecords, e.readUncommittedRecords])

  it('reconcile over local + remote equals the Java consumers (7/20), with no error finding; local alone does not', () => {
    const parts = expected.map((e) => path.join(logs, `${e.topic}-${e.partition}`))
    expect(counts(reconcile(parts))).not.toEqual(java)
    const r = reconcile(parts, { remote: remoteOf(v) })
    expect(counts(r)).toEqual(java)
    expect(errors(r)).toEqual([])
    // the broker's log directory as the path: the same
    expect(counts(reconcile([logs], { remote: remoteOf(v) })).filter(([l]) => !l.startsWith('__'))).toEqual(java)
  })

  it("remote: no segment missing, the sizes the metadata records match the manifests'", () => {
    const r = remoteInventory([logs], remoteOf(v))
    expect(r.unusable).toEqual([])
    const all = [...r.findings, ...r.partitions.flatMap((p) => p.findings)]
    expect(all.filter((f) => f.severity === 'error').map((f) => `${f.code}: ${f.message}`)).toEqual([])
    const copied = r.partitions.find((p) => p.topic === 'tiered')!.segments.filter((s) => s.verdict !== 'deleted')
    expect(copied.map((s) => [Number(s.startOffset), s.sizeInBytes, s.storedBytes])).toEqual([
      [5, 258, 258],
      [9, 588, 588],
    ])
  })

  it('the CLI: remote, reconcile, txns, lso, transactions and report read them, with the counts; report exits as lso does', async () => {
    const flags = [
      '--remote-storage',
      path.join(dirOf(v), 'remote'),
      ...(v === 'encrypted' ? ['--remote-key', KEY] : []),
    ]
    const part = path.join(logs, 'tiered-0')
    const rem = await runCli(['remote', logs, ...flags])
    expect(rem.code, rem.stderr).toBe(0)
    const rec = await runCli(['reconcile', part, ...flags, '--json'])
    expect(rec.code, rec.stderr).toBe(0)
    expect(rec.stdout).toMatch(/"readCommitted":\s*"?7"?/)
    for (const cmd of ['txns', 'lso', 'transactions']) {
      const r = await runCli([cmd, part, ...flags])
      expect(r.stderr, cmd).not.toMatch(/REMOTE_|internal error/)
      expect(r.code, `${cmd}: ${r.stderr}`).toBeLessThan(2)
    }
    const out = path.join(tmp(), 'r.html')
    const rep = await runCli(['report', part, ...flags, '-o', out])
    // the fixture's transaction left open is hanging at the tests' clock: report judges it as lso does (exit 1)
    const l = await runCli(['lso', part, ...flags])
    expect(rep.stderr).not.toMatch(/REMOTE_|internal error/)
    expect(rep.code, rep.stderr).toBe(l.code)
  })
})

const sections = (text: string): Map<string, string> => {
  const out = new Map<string, string>()
  for (const part of text.split(/^Dumping /m).slice(1)) {
    const nl = part.indexOf('\n')
    out.set(part.slice(0, nl), part.slice(nl + 1))
  }
  return out
}
const MODES = { shallow: [], deep: ['--deep-iteration'], data: ['--print-data-log'] } as const
const kafkaLib = path.join(REPO_ROOT, '.cache/kafka-4.4.0/lib')

describe.each(VARIANTS)(
  'dump --remote-storage (Aiven %s): each remote segment as kafka-dump-log prints the reassembled segment',
  (v) => {
    it.for(Object.keys(MODES) as Array<keyof typeof MODES>)('%s', async (mode, ctx) => {
      const remote = path.join(dirOf(v), 'remote')
      const r = await runCli([
        '--compat',
        ...MODES[mode],
        path.join(dirOf(v), 'logs/tiered-0'),
        '--remote-storage',
        remote,
        ...(v === 'encrypted' ? ['--remote-key', KEY] : []),
      ])
      expect(r.code, r.stderr).toBe(0)
      const got = sections(r.stdout)
      const names = [...got.keys()].filter((n) => n.startsWith(remote))
      expect(names.map((n) => path.basename(n).slice(0, 20))).toEqual(['00000000000000000005', '00000000000000000009'])
      for (const n of names) {
        const base = path.basename(n).slice(0, 20)
        let want: string
        if (v === 'plain') {
          // stored: kafka-dump-log 4.4.0 on the .log objects under local names (remote-as-local/)
          const dir = fs.readdirSync(path.join(dirOf(v), 'dump/remote-as-local'))[0]!
          want = fs.readFileSync(path.join(dirOf(v), 'dump/remote-as-local', dir, `${base}.log.${mode}.txt`), 'utf8')
        } else {
          if (!fs.existsSync(kafkaLib)) {
            console.log(`skipping: no ${kafkaLib} (bash scripts/kafka/install.sh 4.4.0)`)
            ctx.skip()
            return
          }
          const d = tmp()
          fs.writeFileSync(path.join(d, `${base}.log`), reassemble(n, v === 'encrypted' ? fs.readFileSync(KEY) : null))
          const j = spawnSync(
            'java',
            [
              '-Xmx256m',
              '-XX:+UseSerialGC',
              '-XX:TieredStopAtLevel=1',
              '-cp',
              `${kafkaLib}/*`,
              'org.apache.kafka.tools.DumpLogSegments',
              ...MODES[mode],
              '--files',
              `${base}.log`,
            ],
            { cwd: d, encoding: 'utf8' },
          )
          expect(j.status, j.stderr).toBe(0)
          want = j.stdout
        }
        expect(got.get(n), `${n} ${mode}`).toBe(want.slice(want.indexOf('\n') + 1))
      }
    })
  },
)

describe('dump --threads on Aiven segments', () => {
  it('a transformed object is never cut into ranges for the workers (they read files): the same text as one thread', async () => {
    const run = async (threads: number): Promise<[number, string, string]> => {
      const ctx = testContext()
      const code = await runDump(
        {
          ...toDumpOptions([path.join(dirOf('zstd'), 'logs/tiered-0')], { progress: false, deepIteration: true }),
          threads,
          remote: path.join(dirOf('zstd'), 'remote'),
        },
        ctx,
        { parallelMinBytes: 0, rangeBytes: 64 },
      )
      return [code, ctx.stdout.text, ctx.stderr.text]
    }
    const one = await run(1)
    expect(one[0], one[2]).toBe(0)
    expect(one[1]).toMatch(/00000000000000000009-dD80p5CTQuO8ByuEYSOfMw\.log/)
    expect(await run(2)).toEqual(one)
  })
})

describe('keys, damage and layouts', () => {
  const logs = (v: string): string => path.join(dirOf(v), 'logs/tiered-0')
  const codes = (r: ReturnType<typeof reconcile>): string[] =>
    r.partitions.flatMap((p) => p.report.findings.map((f) => f.code))

  it('encrypted without a key: each remote segment is a REMOTE_KEY_UNUSABLE finding naming it; the local ones are still read', () => {
    const saved = process.env.TSDUMP_REMOTE_KEY
    delete process.env.TSDUMP_REMOTE_KEY
    try {
      const r = reconcile([logs('encrypted')], { remote: { storage: path.join(dirOf('encrypted'), 'remote') } })
      const f = r.partitions[0]!.report.findings.filter((x) => x.code === 'REMOTE_KEY_UNUSABLE')
      // each segment's .log once (its .txnindex, in the .indexes object, is not read: the segment is not)
      expect(f.map((x) => path.basename(x.file ?? ''))).toEqual([
        '00000000000000000005-oFoZ8vTrS9m_zuVc7JK0fw.log',
        '00000000000000000009-BG3NXL_JTkeFjkWiyciFww.log',
      ])
      expect(f[0]!.message).toMatch(/--remote-key/)
      expect(Number(r.partitions[0]!.report.readUncommitted)).toBeGreaterThan(0)
    } finally {
      if (saved !== undefined) process.env.TSDUMP_REMOTE_KEY = saved
    }
  })

  it('the key from TSDUMP_REMOTE_KEY works as --remote-key does', async () => {
    const r = await runCli(
      ['reconcile', logs('encrypted'), '--remote-storage', path.join(dirOf('encrypted'), 'remote')],
      {},
    )
    expect(r.stderr).toMatch(/REMOTE_KEY_UNUSABLE/)
    process.env.TSDUMP_REMOTE_KEY = KEY
    try {
      const ok = reconcile([logs('encrypted')], { remote: { storage: path.join(dirOf('encrypted'), 'remote') } })
      expect(counts(ok)).toEqual([['tiered-0', 7, 20]])
    } finally {
      delete process.env.TSDUMP_REMOTE_KEY
    }
  })

  it('a wrong key: REMOTE_KEY_UNUSABLE naming the manifest and the key id, exit 1, the rest printed', async () => {
    const d = tmp()
    const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
    const pem = path.join(d, 'other.pem')
    fs.writeFileSync(pem, privateKey.export({ type: 'pkcs8', format: 'pem' }))
    const r = await runCli([
      'reconcile',
      logs('encrypted'),
      '--remote-storage',
      path.join(dirOf('encrypted'), 'remote'),
      '--remote-key',
      pem,
    ])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/rsm-manifest.*\[REMOTE_KEY_UNUSABLE\]/)
    expect(r.stderr).toMatch(/tsdump-test/)
    expect(r.stdout).toMatch(/^tiered-0 /m)
  })

  it.each(['zstd', 'encrypted'])(
    '%s: a corrupt chunk is REMOTE_CHUNK_UNREADABLE naming the object and the chunk; the other segment is read',
    (v) => {
      const remote = copyRemote(v)
      const target = objects(remote, '.log').find((p) => path.basename(p).startsWith('00000000000000000009'))!
      const b = fs.readFileSync(target)
      // the first byte of chunk 1: its IV (encrypted) or its zstd frame's magic number
      const sizes = v === 'zstd' ? 264 : 211
      b[sizes]! ^= 0xff
      fs.writeFileSync(target, b)
      const r = reconcile([logs(v)], { remote: remoteOf(v, remote) })
      const f = r.partitions[0]!.report.findings.filter((x) => x.code === 'REMOTE_CHUNK_UNREADABLE')
      expect(f).toHaveLength(1)
      expect(f[0]!.file).toBe(target)
      expect(f[0]!.message).toMatch(/^chunk 1 \(object bytes \d+\.\.\d+, segment bytes \d+\.\.588\)/)
      // segment 5..8, the first chunk of 9..16 and the local segments are read
      const local = Number(reconcile([logs(v)]).partitions[0]!.report.readUncommitted)
      expect(Number(r.partitions[0]!.report.readUncommitted)).toBeGreaterThanOrEqual(local + 4)
    },
  )

  it('a segment whose first chunk cannot be read is not read, and its .txnindex entries are not counted either', () => {
    const remote = copyRemote('encrypted')
    const target = objects(remote, '.log').find((p) => path.basename(p).startsWith('00000000000000000009'))!
    const b = fs.readFileSync(target)
    b[30]! ^= 0xff // inside chunk 0's ciphertext
    fs.writeFileSync(target, b)
    const r = reconcile([logs('encrypted')], { remote: remoteOf('encrypted', remote) })
    const got = codes(r)
    expect(got).toContain('REMOTE_CHUNK_UNREADABLE')
    // its aborted transaction's entry would otherwise name an ABORT marker that was never read
    expect(got).not.toContain('TXNINDEX_UNEXPECTED_ENTRY')
    expect(got).not.toContain('CONSUMER_VIEW_DIFFERS')
  })

  it.each([
    ['Aiven plain', 'plain'],
    ['LocalTieredStorage', 'tiered'],
  ])('%s: a zero-filled remote .log is lost data (REMOTE_ZERO_FILLED, error), not a preallocated tail', (_name, v) => {
    const remote = path.join(tmp(), 'remote')
    fs.cpSync(v === 'tiered' ? path.join(FIXTURES_44, 'tiered/remote') : path.join(dirOf(v), 'remote'), remote, {
      recursive: true,
    })
    const target = objects(remote, '.log').find((p) => path.basename(p).startsWith('00000000000000000005'))!
    fs.writeFileSync(target, Buffer.alloc(fs.statSync(target).size))
    const part = v === 'tiered' ? path.join(FIXTURES_44, 'tiered/logs/tiered-0') : logs(v)
    const f = reconcile([part], { remote }).partitions[0]!.report.findings
    const z = f.filter((x) => x.code === 'REMOTE_ZERO_FILLED')
    expect(z.map((x) => [x.file, x.severity])).toEqual([[target, 'error']])
    expect(f.map((x) => x.code)).not.toContain('ZERO_TAIL')
  })

  it('a directory whose name is not UTF-8 costs only itself: a finding naming it, the segments read', () => {
    const remote = copyRemote('plain')
    fs.mkdirSync(Buffer.concat([Buffer.from(remote + '/tsdump/'), Buffer.from([0x62, 0xff, 0x61, 0x64])]))
    const r = reconcile([logs('plain')], { remote })
    expect(counts(r)).toEqual([['tiered-0', 7, 20]])
    const f = r.partitions[0]!.report.findings.filter((x) => x.code === 'REMOTE_UNREADABLE')
    expect(f.map((x) => x.message)).toEqual([
      'tsdump/b\\xffad: its name is not UTF-8 (no storage layout names objects so): not read; the rest of the storage is read',
    ])
  })

  it('an unreadable partition directory costs only itself', (ctx) => {
    if (process.getuid?.() === 0) {
      console.log('skipping: running as root, a mode-000 directory stays readable')
      ctx.skip()
      return
    }
    const remote = copyRemote('plain')
    const bad = path.join(remote, 'tsdump/other-AAAAAAAAAAAAAAAAAAAAAA')
    fs.mkdirSync(path.join(bad, '0'), { recursive: true })
    fs.chmodSync(bad, 0)
    try {
      const r = reconcile([logs('plain')], { remote })
      expect(counts(r)).toEqual([['tiered-0', 7, 20]])
      expect(
        r.partitions[0]!.report.findings.filter((x) => x.code === 'REMOTE_UNREADABLE').map((x) => x.message)[0],
      ).toMatch(/^tsdump\/other-AAAAAAAAAAAAAAAAAAAAAA: EACCES/)
    } finally {
      fs.chmodSync(bad, 0o755)
    }
  })

  it('remote offsets (REMOTE_OFFSETS_MISMATCH) and leader epochs (REMOTE_EPOCHS_MISMATCH) are checked against __remote_log_metadata: a mismatch names the object', () => {
    const remote = copyRemote('plain')
    const [seg5, seg9] = ['00000000000000000005', '00000000000000000009'].map(
      (b) => objects(remote, '.log').find((p) => path.basename(p).startsWith(b))!,
    )
    // the segment of offsets 9..16 (with its manifest) where 5..8 should be
    fs.copyFileSync(seg9!, seg5!)
    fs.copyFileSync(seg9!.replace(/\.log$/, '.rsm-manifest'), seg5!.replace(/\.log$/, '.rsm-manifest'))
    // and 9..16's first batch claiming leader epoch 7 (partitionLeaderEpoch, bytes 12..15, outside the CRC)
    const b = fs.readFileSync(seg9!)
    b.writeInt32BE(7, 12)
    fs.writeFileSync(seg9!, b)
    const found = reconcile([logs('plain')], { remote }).partitions[0]!.report.findings
    const f = found.filter((x) => x.code === 'REMOTE_OFFSETS_MISMATCH')
    expect(f.map((x) => [x.file, x.message])).toEqual([
      [seg5, 'its batches hold offsets 9..16, its __remote_log_metadata entry says 5..8'],
    ])
    const e = found.filter((x) => x.code === 'REMOTE_EPOCHS_MISMATCH')
    expect(e.map((x) => [x.file, x.position, x.message])).toEqual([
      [
        seg5,
        0,
        expect.stringMatching(
          /^epoch 0 starts at the batch at offset 9 \(byte 0\), the metadata's lineage starts it at offset 5: its batches' lineage is \{0=9\}, its __remote_log_metadata entry's \{0=5\}/,
        ),
      ],
      [
        seg9,
        0,
        expect.stringMatching(
          /^the batch at offset 9 \(byte 0\) has leader epoch 7, which the metadata's lineage does not have: its batches' lineage is \{7=9, 0=\d+\}/,
        ),
      ],
    ])
  })

  it('a chunk index that lies (plain, fixed chunks of 256 said to be 250): REMOTE_CHUNK_UNREADABLE naming chunk 0', () => {
    const remote = copyRemote('plain')
    const m = objects(remote, '.rsm-manifest').find((p) => path.basename(p).startsWith('00000000000000000009'))!
    fs.writeFileSync(m, fs.readFileSync(m, 'utf8').replace('"transformedChunkSize":256', '"transformedChunkSize":250'))
    const r = reconcile([logs('plain')], { remote: remote })
    const f = r.partitions[0]!.report.findings.filter((x) => x.code === 'REMOTE_CHUNK_UNREADABLE')
    expect(f.map((x) => x.message.slice(0, 8))).toEqual(['chunk 0 '])
    expect(f[0]!.message).toMatch(/holds 250 bytes, the chunk index says 256/)
    const inv = remoteInventory([path.join(dirOf('plain'), 'logs')], remote)
    expect(
      inv.partitions
        .flatMap((p) => p.findings)
        .filter((x) => x.code === 'REMOTE_SIZE_MISMATCH')
        .map((x) => x.message),
    ).toEqual(["the manifest's chunk index totals 576 bytes, the object has 588"])
  })

  it('a storage in no known layout is a usage error naming what was found, never a missing segment', async () => {
    const d = tmp()
    fs.mkdirSync(path.join(d, 'backup/x'), { recursive: true })
    fs.writeFileSync(path.join(d, 'backup/x/segment-5.bin'), 'x')
    const r = reconcile([logs('plain')], { remote: d })
    expect(r.unusable.map((f) => f.code)).toEqual(['REMOTE_LAYOUT_UNKNOWN'])
    expect(r.unusable[0]!.message).toMatch(/backup\/x\/segment-5\.bin/)
    const cli = await runCli(['remote', path.join(dirOf('plain'), 'logs'), '--remote-storage', d])
    expect(cli.code).toBe(2)
    expect(cli.stderr).toMatch(/backup\/x\/segment-5\.bin/)
    expect(cli.stderr).not.toMatch(/REMOTE_SEGMENT_MISSING/)
    const dump = await runCli([logs('plain'), '--remote-storage', d])
    expect(dump.code).toBe(2)
    expect(dump.stderr).toMatch(/REMOTE_LAYOUT_UNKNOWN/)
  })

  it('both layouts in one storage, or Aiven objects under two prefixes: a usage error; --remote-layout / --remote-prefix settle it', () => {
    const both = tmp()
    fs.cpSync(path.join(dirOf('plain'), 'remote'), both, { recursive: true })
    fs.cpSync(path.join(FIXTURES_44, 'tiered/remote/kafka-tiered-storage'), both, { recursive: true })
    expect(
      reconcile([logs('plain')], { remote: both })
        .unusable.map((f) => f.message)
        .join(),
    ).toMatch(/both layouts/)
    expect(counts(reconcile([logs('plain')], { remote: { storage: both, layout: 'aiven' } }))).toEqual([
      ['tiered-0', 7, 20],
    ])
    const two = tmp()
    fs.cpSync(path.join(dirOf('plain'), 'remote/tsdump'), path.join(two, 'a'), { recursive: true })
    fs.cpSync(path.join(dirOf('plain'), 'remote/tsdump'), path.join(two, 'b'), { recursive: true })
    expect(
      reconcile([logs('plain')], { remote: two })
        .unusable.map((f) => f.message)
        .join(),
    ).toMatch(/2 key prefixes \(a\/, b\/\)/)
    expect(counts(reconcile([logs('plain')], { remote: { storage: two, prefix: 'b/' } }))).toEqual([
      ['tiered-0', 7, 20],
    ])
    // Kafka's own layout is still detected as before
    expect(
      counts(
        reconcile([path.join(FIXTURES_44, 'tiered/logs/tiered-0')], {
          remote: path.join(FIXTURES_44, 'tiered/remote'),
        }),
      )[0]![0],
    ).toBe('tiered-0')
  })
})
