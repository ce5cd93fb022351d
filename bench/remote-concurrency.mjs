#!/usr/bin/env node
// `--remote-concurrency` on many partitions read from S3 (moto's S3 API server): reconcile and remote over
// P partitions of remote segments, at each concurrency, median of RUNS runs, with the machine's load.
//
//   node bench/remote-concurrency.mjs [--partitions 100] [--segments S] [--storage s3|dir] [--runs 3]
//                                     [--concurrency 1,8] [--commands reconcile,remote] [--keep DIR]
//                                     [--tsdump PATH[,PATH]] [--formats json[,text]]
//
// Input: the tiered fixture's partition tiered-0 (fixtures/broker-4.4/tiered: two local segments, two remote
// segments in Kafka's LocalTieredStorage layout, one with a .txnindex) copied as partitions tiered-0..tiered-(P-1)
// of one log dir, their remote objects under tiered-<p>-<topicId>/ put into one moto bucket. There is no
// __remote_log_metadata here (its records name the fixture's two partitions), so the remote segments are found by
// listing. With --segments S, each partition instead has S remote segments of one 2-record batch and one local
// segment above them (bench/make-remote.mjs), to scale the segment count. --storage dir reads the same tree from the directory (no moto: the count scaling without moto's
// time per request). Results: bench/RESULTS.md "Remote concurrency" and "Remote memory by partition and segment
// count". Needs `npm run build`; for s3, moto_server ($TSDUMP_MOTO_SERVER, .cache/moto/bin/moto_server, PATH;
// see .ci/run) and @aws-sdk/client-s3.
import { spawn, execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { motoServerPath, startMoto } from './moto.mjs'
import { remoteSegmentsTree } from './make-remote.mjs'

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const FIXTURE = path.join(repo, 'fixtures', 'broker-4.4', 'tiered')
const args = process.argv.slice(2)
const opt = (name, d) => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : d
}
const P = Number(opt('--partitions', '100'))
const RUNS = Number(opt('--runs', '3'))
const LEVELS = opt('--concurrency', '1,8').split(',').map(Number)
const keep = opt('--keep', null)
const SEGMENTS = opt('--segments', null) === null ? null : Number(opt('--segments', null))
const STORAGE = opt('--storage', 's3')
const COMMANDS = opt('--commands', 'reconcile,remote').split(',')
// reconcile's and remote's outputs: --json (default) and the text table
const FORMATS = opt('--formats', 'json').split(',')
// builds' bin/tsdump.js (a baseline: main's worktree, then this one) run alternately on the same input and moto
const TSDUMPS = opt('--tsdump', path.join(repo, 'bin', 'tsdump.js'))
  .split(',')
  .map((p) => path.resolve(p))

function makeInput(dir) {
  if (SEGMENTS !== null) return remoteSegmentsTree(dir, { partitions: P, segments: SEGMENTS })
  const logs = path.join(dir, 'logs')
  const remote = path.join(dir, 'remote')
  fs.mkdirSync(logs, { recursive: true })
  fs.mkdirSync(remote, { recursive: true })
  const root = path.join(FIXTURE, 'remote', 'kafka-tiered-storage')
  const src = fs.readdirSync(root).find((d) => /^tiered-0-/.test(d))
  const topicId = src.slice('tiered-0-'.length)
  const starts = []
  for (let p = 0; p < P; p++) {
    fs.cpSync(path.join(FIXTURE, 'logs', 'tiered-0'), path.join(logs, `tiered-${p}`), { recursive: true })
    fs.cpSync(path.join(root, src), path.join(remote, `tiered-${p}-${topicId}`), { recursive: true })
    starts.push(`tiered ${p} 5`)
  }
  // the fixture's log start (5, below the first local segment: a tiered topic's) and HW for every copy
  fs.writeFileSync(path.join(logs, 'log-start-offset-checkpoint'), ['0', String(P), ...starts].join('\n') + '\n')
  fs.writeFileSync(
    path.join(logs, 'replication-offset-checkpoint'),
    ['0', String(P), ...starts.map((s) => s.replace(/ 5$/, ' 29'))].join('\n') + '\n',
  )
  const objects = fs
    .readdirSync(remote, { recursive: true })
    .filter((f) => fs.statSync(path.join(remote, f)).isFile()).length
  return { logs, remote, objects }
}

async function upload(endpoint, env, dir, bucket) {
  const { S3Client, CreateBucketCommand, PutObjectCommand } = await import('@aws-sdk/client-s3')
  const client = new S3Client({
    endpoint,
    region: env.AWS_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY },
  })
  await client.send(new CreateBucketCommand({ Bucket: bucket }))
  const files = fs.readdirSync(dir, { recursive: true }).filter((f) => fs.statSync(path.join(dir, f)).isFile())
  // a few PUTs at a time: moto is one process
  for (let i = 0; i < files.length; i += 8) {
    await Promise.all(
      files
        .slice(i, i + 8)
        .map((f) =>
          client.send(new PutObjectCommand({ Bucket: bucket, Key: f, Body: fs.readFileSync(path.join(dir, f)) })),
        ),
    )
  }
  client.destroy()
}

/**
 * One run: wall seconds, CPU seconds (user + sys) and peak RSS (GNU time), stdout. Spawned asynchronously: moto's log is drained by this
 * process's event loop, and a synchronous spawn left moto blocked writing it (a full pipe) after ~1,100 requests.
 */
async function run(argv, env) {
  const t0 = process.hrtime.bigint()
  const child = spawn('/usr/bin/time', ['-f', '%U %S %M', ...argv], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stdout.on('data', (d) => {
    out += d
  })
  child.stderr.on('data', (d) => {
    err += d
  })
  const code = await new Promise((resolve) => child.on('close', (c) => resolve(c)))
  const s = Number(process.hrtime.bigint() - t0) / 1e9
  const [user, sys, rssKiB] = err.trim().split('\n').pop().split(' ').map(Number)
  if (code !== 0 && code !== 1) throw new Error(`${argv.join(' ')}: exit ${code}\n${err}`)
  return { s, cpu: user + sys, rssMiB: rssKiB / 1024, out, code }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const s3 = STORAGE === 's3'
const exe = s3 ? motoServerPath() : null
if (s3 && exe === null) {
  console.error('moto_server not found ($TSDUMP_MOTO_SERVER, .cache/moto/bin/moto_server, PATH)')
  process.exit(2)
}
const dir = keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-bench-s3-'))
const input = makeInput(dir)
// moto's own log (its request lines and any error of its own), for when it stops answering
const motoLog = path.join(os.tmpdir(), `tsdump-bench-moto-${process.pid}.log`)
if (s3) console.error(`moto's log: ${motoLog}`)
const moto = s3 ? await startMoto(exe, { logFile: motoLog }) : null
const results = []
try {
  if (s3) await upload(moto.endpoint, moto.env, input.remote, 'bench')
  const storage = s3 ? 's3://bench/' : input.remote
  for (const cmd of COMMANDS)
    for (const format of FORMATS) {
      const outs = new Set()
      const json = format === 'json' ? ['--json'] : []
      for (const c of s3 ? LEVELS : [null]) {
        const level = c === null ? [] : ['--remote-concurrency', String(c)]
        // the builds alternately, run by run: each build's runs see the same load
        const runs = TSDUMPS.map(() => [])
        for (let i = 0; i < RUNS; i++)
          for (const [b, bin] of TSDUMPS.entries()) {
            const argv = [process.execPath, bin, cmd, ...json, input.logs, '--remote-storage', storage, ...level]
            runs[b].push(await run(argv, s3 ? moto.env : {}))
          }
        for (const [b, bin] of TSDUMPS.entries()) {
          for (const r of runs[b]) outs.add(r.out)
          results.push({
            cmd,
            bin: path.relative(process.cwd(), bin) || bin,
            c: c ?? '-',
            median: median(runs[b].map((r) => r.s)),
            all: runs[b].map((r) => r.s.toFixed(2)),
            cpu: median(runs[b].map((r) => r.cpu)),
            rss: Math.max(...runs[b].map((r) => r.rssMiB)),
            code: runs[b][0].code,
            command: `tsdump ${cmd}${json.length > 0 ? ' --json' : ''} <logs> --remote-storage ${s3 ? 's3://bench/' : '<dir>'}${level.length > 0 ? ` ${level.join(' ')}` : ''}`,
          })
        }
      }
      // the answers depend neither on the concurrency nor on the build
      if (outs.size !== 1) throw new Error(`${cmd} ${format}: the output differs between concurrency levels or builds`)
    }
} finally {
  moto?.stop()
  if (keep === null) fs.rmSync(dir, { recursive: true, force: true })
}
const load = execFileSync('uptime', { encoding: 'utf8' }).trim()
const what = SEGMENTS === null ? "the tiered fixture's tiered-0" : `${SEGMENTS} remote segments`
console.log(
  `${P} partitions (${what} each), ${input.objects} remote objects ${s3 ? 'on moto' : 'in a directory'}, ${RUNS} runs each; uptime after: ${load}`,
)
console.log('| tsdump | command | --remote-concurrency | median s | runs (s) | CPU s | peak RSS MiB | exit |')
console.log('|---|---|---|---|---|---|---|---|')
for (const r of results)
  console.log(
    `| ${r.bin} | \`${r.command}\` | ${r.c} | ${r.median.toFixed(2)} | ${r.all.join(', ')} | ${r.cpu.toFixed(2)} | ${r.rss.toFixed(0)} | ${r.code} |`,
  )
