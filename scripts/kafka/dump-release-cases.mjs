#!/usr/bin/env node
// The kafka-dump-log cases the broker fixtures do not cover (legacy magic 0/1 files, index mismatches,
// --verify-index-only / --index-sanity-check, damaged files, odd file names, option parsing), run with the
// DumpLogSegments of several releases over COPIES of the inputs (the tool may open files for writing).
// Complements dump-releases.mjs; the differences it shows are in docs/kafka-versions.md.
//
//   node scripts/kafka/dump-release-cases.mjs <release>=<lib dir> ... --out <dir> [--case name ...]
//
// Output per release: <out>/<release>/cases/<case>.stdout, .stderr, and cases.json (args, exit code).
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs, runTool } from './releases-lib.mjs'

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..')
const CORPUS = path.join(ROOT, '../shared/corpus')
const only = []
const { releases, out } = parseArgs(process.argv.slice(2), { '--case': (v) => only.push(v) })
for (const r of releases) r.lib = path.resolve(r.lib)
if (!fs.existsSync(CORPUS)) throw new Error(`${CORPUS} is absent`)

// Fresh copy of the inputs for each release, so no release sees what an earlier run may have written.
function prepare(dir) {
  fs.rmSync(dir, { recursive: true, force: true })
  fs.mkdirSync(dir, { recursive: true })
  const copy = (from, to) => {
    fs.mkdirSync(path.dirname(path.join(dir, to)), { recursive: true })
    fs.copyFileSync(from, path.join(dir, to))
    fs.chmodSync(path.join(dir, to), 0o644)
  }
  for (const sub of ['idempotent-rolled/timeindex_test-0', 'kafka-0.11/test0-0', 'plain-multi-record/test_topic_a-0']) {
    for (const f of fs.readdirSync(path.join(CORPUS, sub))) copy(path.join(CORPUS, sub, f), path.join(sub, f))
  }
  for (const rs of fs.readdirSync(path.join(CORPUS, 'record-sets'))) {
    copy(path.join(CORPUS, 'record-sets', rs, '00000000000000000000.log'), `record-sets/${rs}/00000000000000000000.log`)
  }
  // damaged copies of idempotent-rolled (base offset 7729, 252 index entries)
  const base = 'idempotent-rolled/timeindex_test-0/00000000000000007729'
  fs.mkdirSync(path.join(dir, 'bad'), { recursive: true })
  for (const ext of ['log', 'index', 'timeindex', 'snapshot'])
    copy(path.join(CORPUS, `${base}.${ext}`), `bad/00000000000000007729.${ext}`)
  const idx = fs.readFileSync(path.join(dir, 'bad/00000000000000007729.index'))
  idx.writeInt32BE(idx.readInt32BE(8 * 3) + 1, 8 * 3) // entry 3: offset one past the batch at its position
  fs.writeFileSync(path.join(dir, 'bad/00000000000000007729.index'), idx)
  // the same mismatching entry twice in a row (entries 3 and 4)
  fs.mkdirSync(path.join(dir, 'repeat'), { recursive: true })
  for (const ext of ['log', 'timeindex'])
    copy(path.join(CORPUS, `${base}.${ext}`), `repeat/00000000000000007729.${ext}`)
  idx.copy(idx, 8 * 4, 8 * 3, 8 * 4)
  fs.writeFileSync(path.join(dir, 'repeat/00000000000000007729.index'), idx)
  const tix = fs.readFileSync(path.join(dir, 'bad/00000000000000007729.timeindex'))
  tix.writeBigInt64BE(tix.readBigInt64BE(12 * 2) + 5n, 12 * 2) // entry 2: timestamp mismatch
  tix.writeBigInt64BE(tix.readBigInt64BE(12 * 4) - 1000000n, 12 * 4) // entry 4: out of order
  tix.writeInt32BE(tix.readInt32BE(12 * 6 + 8) + 1000000, 12 * 6 + 8) // entry 6: offset not in the log
  fs.writeFileSync(path.join(dir, 'bad/00000000000000007729.timeindex'), tix)
  const snap = fs.readFileSync(path.join(dir, 'bad/00000000000000007729.snapshot'))
  snap[snap.length - 1] ^= 0xff // CRC no longer valid
  fs.writeFileSync(path.join(dir, 'bad/00000000000000007729.snapshot'), snap)
  // trailing garbage and a too-small batch size after the last batch
  const log = fs.readFileSync(path.join(CORPUS, 'plain-multi-record/test_topic_a-0/00000000000000000000.log'))
  fs.writeFileSync(path.join(dir, 'bad/00000000000000000000.log'), Buffer.concat([log, Buffer.alloc(10, 0x41)]))
  const small = Buffer.alloc(12)
  small.writeBigInt64BE(999n, 0)
  small.writeInt32BE(5, 8)
  fs.mkdirSync(path.join(dir, 'small'), { recursive: true })
  fs.writeFileSync(path.join(dir, 'small/00000000000000000000.log'), Buffer.concat([log, small, Buffer.alloc(20)]))
  // odd names
  fs.writeFileSync(path.join(dir, 'nodot'), log)
  fs.writeFileSync(path.join(dir, 'bad/00000000000000000000.foo'), log)
  fs.writeFileSync(path.join(dir, 'bad/abc.log'), log)
}

const IR = 'idempotent-rolled/timeindex_test-0/00000000000000007729'
const PM = 'plain-multi-record/test_topic_a-0/00000000000000000000'
const CASES = {
  'legacy-magic0-deep': ['--deep-iteration', '--files', 'record-sets/magic0-gzip/00000000000000000000.log'],
  'legacy-magic0-data': ['--print-data-log', '--files', 'record-sets/magic0-gzip/00000000000000000000.log'],
  'legacy-magic0-shallow': ['--files', 'record-sets/magic0-gzip/00000000000000000000.log'],
  'legacy-magic1-deep': ['--deep-iteration', '--files', 'record-sets/magic1-gzip/00000000000000000000.log'],
  'legacy-magic1-data': ['--print-data-log', '--files', 'record-sets/magic1-gzip/00000000000000000000.log'],
  'mixed-v1-v2-data': ['--print-data-log', '--files', 'record-sets/mixed-v1-v2/00000000000000000000.log'],
  'v2-gzip-data': ['--print-data-log', '--files', 'record-sets/v2-gzip/00000000000000000000.log'],
  'v2-snappy-raw-deep': ['--deep-iteration', '--files', 'record-sets/v2-snappy-raw/00000000000000000000.log'],
  'kafka011-data': [
    '--print-data-log',
    '--files',
    'kafka-0.11/test0-0/00000000000000000000.log,kafka-0.11/test0-0/00000000000000000000.timeindex,kafka-0.11/test0-0/00000000000000000011.snapshot',
  ],
  'rolled-index': ['--files', `${IR}.index,${IR}.timeindex,${IR}.snapshot`],
  'rolled-verify': ['--verify-index-only', '--files', `${IR}.index,${IR}.timeindex`],
  'rolled-sanity': ['--index-sanity-check', '--files', `${IR}.index,${IR}.timeindex`],
  'plain-index': [
    '--files',
    `${PM}.index,${PM}.timeindex,plain-multi-record/test_topic_a-0/00000000000000000362.index,plain-multi-record/test_topic_a-0/00000000000000000362.snapshot`,
  ],
  'plain-sanity': [
    '--index-sanity-check',
    '--files',
    `${PM}.index,${PM}.timeindex,plain-multi-record/test_topic_a-0/00000000000000000362.index`,
  ],
  'plain-skip-meta': ['--print-data-log', '--skip-record-metadata', '--files', `${PM}.log`],
  'plain-max-bytes': ['--print-data-log', '--max-bytes', '5000', '--files', `${PM}.log`],
  'bad-index': ['--files', 'bad/00000000000000007729.index,bad/00000000000000007729.timeindex'],
  'bad-index-verify': [
    '--verify-index-only',
    '--files',
    'bad/00000000000000007729.index,bad/00000000000000007729.timeindex',
  ],
  'bad-index-sanity': [
    '--index-sanity-check',
    '--files',
    'bad/00000000000000007729.index,bad/00000000000000007729.timeindex',
  ],
  'bad-index-repeat': ['--files', 'repeat/00000000000000007729.index'],
  'old-decoder-two-files': [
    '--value-decoder-class',
    'kafka.serializer.StringDecoder',
    '--files',
    `${PM}.index,${PM}.log,record-sets/v2-gzip/00000000000000000000.log`,
  ],
  'bad-snapshot': ['--files', 'bad/00000000000000007729.snapshot'],
  'trailing-bytes': ['--files', 'bad/00000000000000000000.log'],
  'trailing-bytes-max': ['--max-bytes', '100000', '--files', 'bad/00000000000000000000.log'],
  'small-batch': ['--files', 'small/00000000000000000000.log'],
  'no-dot-name': ['--files', 'nodot'],
  'unknown-suffix': ['--files', 'bad/00000000000000000000.foo'],
  'non-numeric-name': ['--files', 'bad/abc.log'],
  'missing-file': ['--files', 'bad/00000000000000000123.log'],
  'missing-files-option': ['--deep-iteration'],
  'unknown-option': ['--no-such-option', '--files', `${PM}.log`],
  help: ['--help'],
  version: ['--version'],
  'share-decoder': ['--share-group-state-decoder', '--files', `${PM}.log`],
  'rlmm-decoder': ['--remote-log-metadata-decoder', '--files', `${PM}.log`],
  'old-decoder-class': ['--value-decoder-class', 'kafka.serializer.StringDecoder', '--files', `${PM}.log`],
  'bad-decoder-class': ['--value-decoder-class', 'no.such.Decoder', '--files', `${PM}.log`],
  'int-decoder-class': ['--key-decoder-class', 'org.apache.kafka.tools.api.IntegerDecoder', '--files', `${PM}.log`],
}

for (const { rel, lib } of releases) {
  const inputs = path.join(out, rel, 'cases-input')
  prepare(inputs)
  const dest = path.join(out, rel, 'cases')
  fs.mkdirSync(dest, { recursive: true })
  const summary =
    only.length && fs.existsSync(path.join(dest, 'cases.json'))
      ? JSON.parse(fs.readFileSync(path.join(dest, 'cases.json'), 'utf8'))
      : {}
  for (const [name, args] of Object.entries(CASES)) {
    if (only.length && !only.includes(name)) continue
    const r = runTool(rel, lib, args, inputs)
    // slf4j's "no binding" and log4j 1's "no appenders" notices are the classpath's, not the tool's
    const stderr = r.stderr.replace(/^(SLF4J: |log4j:WARN ).*\n/gm, '')
    fs.writeFileSync(path.join(dest, `${name}.stdout`), r.stdout)
    fs.writeFileSync(path.join(dest, `${name}.stderr`), stderr)
    summary[name] = { args, exitCode: r.status }
    console.log(`${rel} ${name} exit ${r.status}`)
  }
  fs.writeFileSync(path.join(dest, 'cases.json'), JSON.stringify(summary, null, 1))
}
