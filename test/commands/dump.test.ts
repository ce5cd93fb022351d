// Dump behaviours beyond plain batch lines: index verification, --max-bytes, decoders, KRaft metadata.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { CORPUS, corpusAvailable, FIXTURES } from '../support/paths.js'

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-dump-'))
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))
const have = corpusAvailable()
const P0 = path.join(FIXTURES, 'orders/logs/orders-11-0/00000000000000000000.log')

function lines(s: string, prefix: string): string[] {
  return s.split('\n').filter((l) => l.startsWith(prefix))
}

describe.skipIf(!have)('index verification against the segment', () => {
  const src = path.join(CORPUS, 'idempotent-rolled/timeindex_test-0')
  const dir = path.join(tmp, 'timeindex_test-0')
  const index = path.join(dir, '00000000000000007729.index')
  beforeAll(() => {
    // a scratch copy: some cases damage it
    fs.mkdirSync(dir, { recursive: true })
    for (const f of fs.readdirSync(src)) fs.copyFileSync(path.join(src, f), path.join(dir, f))
  })

  it('a healthy index verifies clean', async () => {
    const r = await runCli(['--verify-index-only', index])
    expect(r.code).toBe(0)
    expect(r.stdout).not.toContain('offset:')
  })
  it("an entry pointing at the wrong batch is a mismatch with its position, exit 1; --compat prints Kafka's block", async () => {
    const buf = fs.readFileSync(index)
    const pos10 = buf.readInt32BE(10 * 8 + 4)
    buf.writeInt32BE(buf.readInt32BE(11 * 8 + 4), 10 * 8 + 4) // entry 10 now points at entry 11's batch
    const bad = path.join(dir, 'bad', '00000000000000007729.index')
    fs.mkdirSync(path.dirname(bad), { recursive: true })
    fs.writeFileSync(bad, buf)
    fs.copyFileSync(path.join(dir, '00000000000000007729.log'), path.join(dir, 'bad', '00000000000000007729.log'))
    const r = await runCli(['--verify-index-only', bad])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(
      /position 80: entry 10: index offset \d+ but the batch at log position \d+ ends at offset \d+ \[INDEX_MISMATCH\]/,
    )
    const c = await runCli(['--compat', '--verify-index-only', bad])
    expect(c.stderr).toContain(`Mismatches in :${path.resolve(bad)}`)
    expect(c.stderr).toMatch(/ {2}Index offset: \d+, log offset: \d+/)
    expect(pos10).toBeGreaterThan(0)
  })
  it('--index-sanity-check passes a healthy index', async () => {
    const r = await runCli(['--index-sanity-check', index])
    expect(r.stdout).toContain(`${index} passed sanity check.`)
    expect(r.code).toBe(0)
  })
  it('an index without its segment still prints its entries and warns', async () => {
    const lone = path.join(tmp, 'lone', '00000000000000007729.index')
    fs.mkdirSync(path.dirname(lone), { recursive: true })
    fs.copyFileSync(index, lone)
    const r = await runCli([lone])
    expect(lines(r.stdout, 'offset: ')).toHaveLength(252)
    expect(r.stderr).toContain('NO_SEGMENT')
    expect(fs.readdirSync(path.dirname(lone))).toEqual(['00000000000000007729.index']) // nothing created (Kafka would)
  })
})

describe('dump options', () => {
  it('--max-bytes keeps only whole batches below the limit and drops the trailing-bytes line', async () => {
    const r = await runCli(['--compat', '--max-bytes', String(433 + 78), P0])
    expect(lines(r.stdout, 'baseOffset: ')).toHaveLength(2)
    expect(r.stdout).not.toContain('invalid bytes')
  })
  it('a --max-bytes limit that cuts a batch is a read limit, not damage: exit 0, no TRUNCATED_TAIL, with and without --compat (issue #12 item 2)', async () => {
    // 500 ends inside the third batch of P0 (positions 433..511)
    const compat = await runCli(['--compat', '--max-bytes', '500', P0])
    expect(compat.code).toBe(0)
    expect(compat.stderr).toBe('') // kafka-dump-log says nothing
    const plain = await runCli(['--max-bytes', '500', P0])
    expect(plain.code).toBe(0)
    expect(plain.stderr).not.toMatch(/TRUNCATED_TAIL|SHORT_TAIL|error/)
    expect(plain.stderr).toMatch(/^tsdump: info: .*position 433: --max-bytes 500: .*\[READ_LIMIT\]$/m)
    // the limit at a batch boundary cuts nothing: no note
    expect((await runCli(['--max-bytes', '511', P0])).stderr).not.toContain('READ_LIMIT')
    // a real truncation inside the limit is still damage
    const cut = path.join(tmp, '00000000000000000000.log')
    fs.writeFileSync(cut, fs.readFileSync(P0).subarray(0, 500))
    const damaged = await runCli(['--max-bytes', '100000', cut])
    expect(damaged.code).toBe(1)
    expect(damaged.stderr).toContain('TRUNCATED_TAIL')
  })
  it('--skip-record-metadata prints payloads only and blank lines for control records', async () => {
    const r = await runCli(['--compat', '--print-data-log', '--skip-record-metadata', P0])
    const body = r.stdout
      .split('\n')
      .filter((l) => !l.startsWith('baseOffset') && !l.startsWith('Dumping') && !l.startsWith('Log starting'))
    expect(body.filter((l) => l.startsWith(' payload: ') || l.startsWith('| key: '))).toHaveLength(14)
    expect(body.filter((l) => l === '').length).toBeGreaterThanOrEqual(2)
  })
  it('--value-decoder hex and int decoders render bytes', async () => {
    const r = await runCli(['--value-decoder', 'hex', P0])
    const rec = lines(r.stdout, '| offset: 0 ')[0]!
    expect(rec).toMatch(/payload: [0-9a-f]+$/)
    const kafkaClass = await runCli(['--value-decoder-class', 'org.apache.kafka.tools.api.StringDecoder', P0])
    expect(lines(kafkaClass.stdout, '| offset: 0 ')[0]).toMatch(/payload: /)
  })
  it('an unknown decoder is a usage error', async () => {
    const r = await runCli(['--value-decoder', 'protobuf', P0])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('is not a decoder')
  })
  it('dumps the partition-level files kafka-dump-log reads none of, and --compat still skips them', async () => {
    const dir = path.join(FIXTURES, 'orders/logs/orders-11-0')
    const r = await runCli([dir])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('endTxnMarker: ABORT')
    expect(r.stderr).not.toContain('Ignoring')
    // the file's own text (version, count, `<epoch> <startOffset>`; `topic_id: <id>`) is the truth
    const lec = fs
      .readFileSync(path.join(dir, 'leader-epoch-checkpoint'), 'utf8')
      .trim()
      .split('\n')
      .slice(2)
      .map((l) => l.split(' ').map(Number))
    const id = /topic_id: (\S+)/.exec(fs.readFileSync(path.join(dir, 'partition.metadata'), 'utf8'))![1]
    expect(r.stdout).toContain(`partition metadata version: 0 topicId: ${id}`)
    expect(r.stdout).toContain(
      [
        'leader epoch cache version: 0 entries: ' + lec.length,
        ...lec.map(([e, o]) => `epoch: ${e} startOffset: ${o}`),
      ].join('\n'),
    )
    const j = await runCli(['--json', dir])
    expect(j.code).toBe(0)
    const objs = j.stdout
      .trim()
      .split('\n')
      .map(
        (l) => JSON.parse(l) as { type: string; file?: string; fileType?: string; entries?: unknown; topicId?: string },
      )
    expect(objs.filter((e) => e.type === 'skipped')).toEqual([])
    const files = objs.filter((e) => e.type === 'partition-file')
    expect(files.map((f) => [path.basename(f.file!), f.fileType])).toEqual([
      ['leader-epoch-checkpoint', 'leader-epoch-checkpoint'],
      ['partition.metadata', 'partition.metadata'],
    ])
    expect(files[0]!.entries).toEqual(lec.map(([epoch, startOffset]) => ({ epoch, startOffset })))
    expect(files[1]!.topicId).toBe(id)
    // kafka-dump-log reads none of them: --compat skips them without a word on stderr, as before
    const c = await runCli(['--compat', '--json', dir].filter((a) => a !== '--json'))
    expect(c.stdout).not.toContain('leader epoch cache')
    expect(c.stderr).not.toContain('Ignoring')
    // any other file is named on stderr with kafka-dump-log's wording
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-skip-'))
    try {
      fs.copyFileSync(path.join(dir, '00000000000000000000.log'), path.join(tmp, '00000000000000000000.log'))
      fs.writeFileSync(path.join(tmp, '00000000000000000000.log.deleted'), '')
      const d = await runCli([tmp])
      expect(d.code).toBe(0)
      expect(d.stderr).toMatch(/^Ignoring .*00000000000000000000\.log\.deleted: .+$/m)
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true })
    }
  })
})

describe.skipIf(!have)('KRaft metadata', () => {
  it('--cluster-metadata-decoder names every record type; LEADER_CHANGE control batches are not markers', async () => {
    const r = await runCli([
      '--cluster-metadata-decoder',
      path.join(CORPUS, 'kraft-metadata/__cluster_metadata-0/00000000000000000000.log'),
    ])
    expect(r.code).toBe(0)
    const payloads = r.stdout.split('\n').filter((l) => l.includes(' payload: '))
    expect(payloads.length).toBe(3072 - 5)
    expect(payloads.every((l) => /payload: \{"type":"[A-Z_]+","version":\d+,"data":/.test(l))).toBe(true)
    expect(payloads.some((l) => l.includes('"type":"REGISTER_BROKER_RECORD"'))).toBe(true)
    expect(r.stdout).not.toMatch(/endTxnMarker/)
    expect(r.stdout.match(/LeaderChange: /g)?.length).toBe(10) // batch line + record line, 5 batches
  })
})

describe('the summary line counts what kafka-dump-log lists', () => {
  // Truth: kafka-dump-log's shallow dump stored beside each broker fixture (one line per batch, with its
  // count, isTransactional and isControl). Records include the control records, as kafka-dump-log's counts do;
  // "transactional data batches" leave the control batches out (they are counted under "control batches").
  const manifest = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'orders', 'manifest.json'), 'utf8')) as {
    dumps: Array<{ file: string; mode: string; stdout: string; exitCode: number }>
  }
  const logs = manifest.dumps.filter((d) => d.mode === 'shallow' && d.file.endsWith('.log') && d.exitCode === 0)
  it.each(logs.map((d) => [d.file, d] as const))('%s', async (_f, d) => {
    const batches = lines(fs.readFileSync(path.join(FIXTURES, 'orders', d.stdout), 'utf8'), 'baseOffset: ')
    const count = (re: RegExp): number => batches.filter((l) => re.test(l)).length
    const records = batches.reduce((n, l) => n + Number(/ count: (\d+) /.exec(l)![1]), 0)
    const data = count(/isTransactional: true isControl: false/)
    const r = await runCli([path.join(FIXTURES, 'orders', 'logs', d.file)])
    const summary = lines(r.stdout, 'Summary: ')[0]!
    expect(summary).toContain(
      `Summary: ${batches.length} batch${batches.length === 1 ? '' : 'es'}, ${records} record${records === 1 ? '' : 's'}, `,
    )
    expect(summary).toContain(`, ${data} transactional data batch${data === 1 ? '' : 'es'}, `)
  })
  it('covers a log with both kinds', () => {
    expect(logs.some((d) => d.file === 'orders-11-0/00000000000000000000.log')).toBe(true)
  })
})
