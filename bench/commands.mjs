#!/usr/bin/env node
// Bench cases for the commands issues #19-#23 added (issue #25 part 1 item 6): `transactions`, `cleanup`, `replicas`,
// and the remote reads (`dump --remote-storage` and `tsdump remote`, from a LocalTieredStorage directory and from
// s3:// on moto's S3 server), each at two or three sizes, with kafka-dump-log side by side where Kafka has an offline
// equivalent (the remote segment's dump, on a link with a local segment name). kafka-transactions.sh needs a
// broker: not run.
//
//   node bench/commands.mjs                 # default sizes, 3 alternating runs (~10 min on 2 busy cores, the inputs
//                                           #   once more the first time); writes bench/RESULTS-commands.md
//   node bench/commands.mjs --quick         # small sizes, 1 run, no profiles (< 1 min): bench/data/commands/RESULTS-quick.md
//   node bench/commands.mjs --cases transactions --txns 10000,100000,200000 --runs 1
//
// Options:
//   --runs N              alternating runs per group (default 3; the medians are reported, peak RSS is the max)
//   --cases C,..          transactions,cleanup,replicas,remote-dir,remote-s3 (default all; remote-s3 is skipped, with
//                         a note, when moto_server is missing: $TSDUMP_MOTO_SERVER, .cache/moto/bin/moto_server, PATH)
//   --txns N,..           transactions per log directory (default 10000,30000: 100,000 take minutes a run, see RESULTS-commands.md)
//   --cleanup-sizes S,..  the compacted partition (default 256MiB,512MiB)
//   --replica-sizes S,..  each broker's copy of 4 partitions (default 64MiB,256MiB)
//   --remote-sizes S,..   the remote segment read (default 128MiB,512MiB)
//   --s3-max S            largest object put on moto (default 128MiB: moto's ranged GETs of a 512 MiB object stalled)
//   --kafka V,..          kafka-dump-log versions (default 3.9.1,4.4.0; KAFKA_VERSION=V overrides) --no-kafka
//   --no-profile          no node --cpu-prof of the cases over 128 MiB or scaling worse than linear
//   --timeout S           kill a run after S seconds (default 600)
//   --data DIR            inputs (default bench/data/commands, git-ignored)   --out FILE  (default bench/RESULTS-commands.md)
//
// Every run: /usr/bin/time -v (bench/timed.mjs), stdout to /dev/null; the commands of a group run back to back,
// their order reversed every other iteration. Scaling: CPU time minus tsdump's start-up (`--version`), against the
// input's units (transactions, bytes), as an exponent between the smallest and the largest size (1 = linear).
// Raw numbers: <data>/commands-<timestamp>.json.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { kafkaDumpLog, kafkaVersions } from './kafka-dump-log.mjs'
import { motoServerPath, startMoto } from './moto.mjs'
import { compacted, replicaBrokers, tieredLayout, txnLogDir } from './make-commands.mjs'
import { parseSize, sizeLabel } from './make-segments.mjs'
import { summarizeProfile } from './profile-summary.mjs'
import { summarize } from './report.mjs'
import { timed } from './timed.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const repo = path.resolve(here, '..')
const RSS_PROMISE_MIB = 128
const log = (...a) => console.error(`[commands ${new Date().toISOString().slice(11, 19)}]`, ...a)
const list = (s, f = (x) => x) => s.split(',').filter(Boolean).map(f)

function parseArgs(argv) {
  const o = {
    runs: 3,
    cases: ['transactions', 'cleanup', 'replicas', 'remote-dir', 'remote-s3'],
    txns: [10000, 30000],
    s3Max: '128MiB',
    cleanupSizes: ['256MiB', '512MiB'],
    replicaSizes: ['64MiB', '256MiB'],
    remoteSizes: ['128MiB', '512MiB'],
    kafka: undefined,
    useKafka: true,
    profile: true,
    timeout: 600,
    data: path.join(here, 'data', 'commands'),
    out: path.join(here, 'RESULTS-commands.md'),
  }
  for (let i = 0; i < argv.length; i++) {
    const v = () => argv[++i]
    switch (argv[i]) {
      case '--quick':
        Object.assign(o, {
          quick: true,
          runs: 1,
          profile: false,
          txns: [2000, 10000],
          cleanupSizes: ['16MiB', '64MiB'],
          replicaSizes: ['8MiB', '32MiB'],
          remoteSizes: ['16MiB', '64MiB'],
        })
        break
      case '--runs':
        o.runs = Number(v())
        break
      case '--cases':
        o.cases = list(v())
        break
      case '--txns':
        o.txns = list(v(), Number)
        break
      case '--cleanup-sizes':
        o.cleanupSizes = list(v())
        break
      case '--replica-sizes':
        o.replicaSizes = list(v())
        break
      case '--remote-sizes':
        o.remoteSizes = list(v())
        break
      case '--s3-max':
        o.s3Max = v()
        break
      case '--kafka':
        o.kafka = list(v())
        break
      case '--no-kafka':
        o.useKafka = false
        break
      case '--no-profile':
        o.profile = false
        break
      case '--timeout':
        o.timeout = Number(v())
        break
      case '--data':
        o.data = path.resolve(v())
        break
      case '--out':
        o.out = path.resolve(v())
        o.outGiven = true
        break
      case '-h':
      case '--help': {
        const ls = fs
          .readFileSync(fileURLToPath(import.meta.url), 'utf8')
          .split('\n')
          .slice(1)
        console.log(
          ls
            .slice(
              0,
              ls.findIndex((l) => !l.startsWith('//')),
            )
            .map((l) => l.slice(3))
            .join('\n'),
        )
        process.exit(0)
        break
      }
      default:
        console.error(`unknown argument ${argv[i]} (see --help)`)
        process.exit(2)
    }
  }
  if (o.quick && !o.outGiven) o.out = path.join(o.data, 'RESULTS-quick.md')
  o.kafkaVersions = o.useKafka ? kafkaVersions(o.kafka) : []
  return o
}

// ---------------------------------------------------------------------------------------------- moto (s3://)

/** moto's own CPU seconds so far (/proc/PID/stat utime + stime): the server's side of a run */
function cpuOf(pid) {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return (Number(f[11]) + Number(f[12])) / 100
  } catch {
    return NaN
  }
}

async function upload(endpoint, env, dir, bucket, prefix, createBucket) {
  const { S3Client, CreateBucketCommand, PutObjectCommand } = await import('@aws-sdk/client-s3')
  const client = new S3Client({
    endpoint,
    region: env.AWS_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY },
  })
  if (createBucket) await client.send(new CreateBucketCommand({ Bucket: bucket }))
  const files = fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
  for (const e of files) {
    const file = path.join(e.parentPath ?? e.path, e.name)
    await client.send(
      new PutObjectCommand({ Bucket: bucket, Key: prefix + path.relative(dir, file), Body: fs.readFileSync(file) }),
    )
  }
  client.destroy()
  return files.length
}

// ---------------------------------------------------------------------------------------------- cases

const q = (s) => (/^[\w./=:,@+-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`)
const rel = (p) => path.relative(repo, p)

/**
 * The groups to run: { case, input, units: { n, what }, items: [{ key, argv, env?, server? }] }. Inputs are made here
 * (once: make-commands.mjs keeps them while their parameters match).
 */
function plan(o, ctx) {
  const groups = []
  const ts = (args) => ['node', path.join(repo, 'bin', 'tsdump.js'), ...args]
  const kdl = (file) =>
    o.kafkaVersions.map((v) => ({ key: `kafka-dump-log ${v}`, peer: true, argv: ctx.kdl(v, ['--files', file]) }))
  if (o.cases.includes('transactions')) {
    for (const n of o.txns) {
      const dir = path.join(o.data, `txn-${n}`)
      const meta = txnLogDir(dir, { transactions: n }, log)
      groups.push({
        case: 'transactions',
        input: `${n} transactions, 8 data + 2 __consumer_offsets + 2 __transaction_state partitions (${mib(meta.bytes)})`,
        units: { n, what: 'transactions' },
        bytes: meta.bytes,
        items: [{ key: 'tsdump transactions', argv: ts(['transactions', dir]) }],
      })
    }
  }
  if (o.cases.includes('cleanup')) {
    for (const s of o.cleanupSizes) {
      const dir = path.join(o.data, `compact-${s}`)
      const meta = compacted(dir, { size: parseSize(s) }, log)
      groups.push({
        case: 'cleanup',
        input: `one compacted partition, ${sizeLabel(parseSize(s))} in ${meta.stats.segments} segments, ${meta.stats.records} records of ${meta.stats.keys} keys`,
        units: { n: meta.bytes, what: 'bytes' },
        bytes: meta.bytes,
        items: [
          {
            key: 'tsdump cleanup',
            argv: ts(['cleanup', '--config', 'cleanup.policy=compact', '--now', '2026-12-01T00:00:00Z', dir]),
          },
        ],
      })
    }
  }
  if (o.cases.includes('replicas')) {
    for (const s of o.replicaSizes) {
      const dir = path.join(o.data, `replicas-${s}`)
      const meta = replicaBrokers(dir, { size: parseSize(s) }, log)
      groups.push({
        case: 'replicas',
        input: `3 brokers x 4 partitions, ${sizeLabel(parseSize(s))} per broker (${meta.stats.batchesPerPartition} batches a partition; broker 2 lags, broker 3 diverges at ${meta.stats.divergesAt})`,
        units: { n: meta.bytes, what: 'bytes' },
        bytes: meta.bytes,
        items: [
          { key: 'tsdump replicas', argv: ts(['replicas', ...[1, 2, 3].map((b) => path.join(dir, `broker-${b}`))]) },
        ],
      })
    }
  }
  const remoteCases = o.cases.filter((c) => c === 'remote-dir' || (c === 'remote-s3' && ctx.s3))
  for (const s of remoteCases.length ? o.remoteSizes : []) {
    const dir = path.join(o.data, `tiered-${s}`)
    const meta = tieredLayout(dir, { size: parseSize(s) }, log)
    const local = path.join(dir, 'as-local', 'tiered-0', '00000000000000000009.log')
    const input = `tiered fixture, tiered-0's remote segment at 9 replaced: ${mib(meta.stats.objectBytes)}, ${meta.stats.records} records`
    const units = { n: meta.stats.objectBytes, what: 'bytes' }
    const base = { units, bytes: meta.stats.objectBytes }
    if (remoteCases.includes('remote-dir')) {
      const store = path.join(dir, 'remote')
      groups.push({
        ...base,
        case: 'dump --remote-storage DIR',
        input,
        items: [
          {
            key: 'tsdump dump --remote-storage DIR',
            argv: ts([path.join(dir, 'logs', 'tiered-0'), '--remote-storage', store]),
          },
          { key: 'tsdump (the same object as a local .log)', peer: true, argv: ts([local]) },
          ...kdl(local),
        ],
      })
      groups.push({
        ...base,
        case: 'remote DIR',
        input,
        items: [
          {
            key: 'tsdump remote --remote-storage DIR',
            argv: ts(['remote', path.join(dir, 'logs'), '--remote-storage', store]),
          },
        ],
      })
    }
    if (remoteCases.includes('remote-s3') && parseSize(s) > parseSize(o.s3Max))
      ctx.notes.push(`s3:// at ${s} skipped: above --s3-max ${o.s3Max}`)
    else if (remoteCases.includes('remote-s3')) {
      const prefix = `tier-${s}/`
      groups.push({
        ...base,
        case: 'dump --remote-storage s3://',
        input,
        s3: { dir: path.join(dir, 'remote'), prefix },
        items: [
          {
            key: 'tsdump dump --remote-storage s3://',
            server: true,
            env: ctx.s3.env,
            argv: ts([path.join(dir, 'logs', 'tiered-0'), '--remote-storage', `s3://bench/${prefix}`]),
          },
          { key: 'tsdump (the same object as a local .log)', peer: true, argv: ts([local]) },
        ],
      })
      groups.push({
        ...base,
        case: 'remote s3://',
        input,
        s3: { dir: path.join(dir, 'remote'), prefix },
        items: [
          {
            key: 'tsdump remote --remote-storage s3://',
            server: true,
            env: ctx.s3.env,
            argv: ts(['remote', path.join(dir, 'logs'), '--remote-storage', `s3://bench/${prefix}`]),
          },
        ],
      })
    }
  }
  return groups
}

const mib = (b) => `${(b / 2 ** 20).toFixed(b < 10 * 2 ** 20 ? 1 : 0)} MiB`

// ---------------------------------------------------------------------------------------------- scaling, profiles

/** CPU exponent between the smallest and largest size of a case's first item: log(cpu ratio) / log(unit ratio) */
function scaling(res, baseCpu) {
  const out = []
  for (const c of [...new Set(res.groups.map((g) => g.case))]) {
    const gs = res.groups.filter((g) => g.case === c && g.rows[0]?.s)
    if (gs.length < 2) continue
    const [a, b] = [gs[0], gs.at(-1)]
    const ca = Math.max(0.01, a.rows[0].s.cpu - baseCpu)
    const cb = Math.max(0.01, b.rows[0].s.cpu - baseCpu)
    const exponent = Math.log(cb / ca) / Math.log(b.units.n / a.units.n)
    out.push({
      case: c,
      key: a.rows[0].key,
      from: a,
      to: b,
      unitRatio: b.units.n / a.units.n,
      cpuRatio: cb / ca,
      exponent,
      rss: [a, ...gs.slice(1)].map((g) => g.rows[0].s.rssKiB / 1024),
    })
  }
  return out
}

// ---------------------------------------------------------------------------------------------- report

const f2 = (x) => (Number.isFinite(x) ? (x < 10 ? x.toFixed(2) : x.toFixed(1)) : '—')
const units = (g) => (g.units.what === 'transactions' ? `${g.units.n} txns` : mib(g.units.n))

function render(o, env, res) {
  const L = ['# Bench: transactions, cleanup, replicas, remote reads', '']
  L.push(
    `Generated by \`node bench/commands.mjs ${res.argv.join(' ')}\` (${res.done ? 'complete' : 'in progress'}). Inputs: bench/make-commands.mjs (synthetic, CRC-valid, written with scripts/fuzz/encode.mjs).`,
    '',
  )
  L.push('## Machine', '')
  for (const [k, v] of Object.entries(env)) L.push(`- ${k}: ${v}`)
  L.push(
    `- load average (1 min) at the start: ${res.loadStart}; at the end: ${res.loadEnd ?? '—'}; median over the runs: ${f2(res.loadMedian)}`,
  )
  L.push(
    `- tsdump start-up (\`tsdump --version\`): ${f2(res.baseCpu)} s CPU, ${(res.baseRssKiB / 1024).toFixed(0)} MiB (subtracted for the scaling exponents)`,
  )
  if (res.notes.length) {
    L.push('')
    for (const n of res.notes) L.push(`Note: ${n}`)
  }
  L.push(
    '',
    `## Results (${o.runs} alternating run(s) per group: medians of wall and CPU = user+sys, peak RSS = the highest of the runs)`,
    '',
  )
  L.push(
    `| case | input | command | wall s | CPU s | CPU per unit | peak RSS | < ${RSS_PROMISE_MIB} MiB | exit | load |`,
    '|---|---|---|---:|---:|---:|---:|:---:|---|---:|',
  )
  for (const g of res.groups) {
    for (const r of g.rows) {
      const s = r.s
      if (!s) continue
      const per =
        g.units.what === 'transactions'
          ? `${f2((1e6 * (s.cpu - res.baseCpu)) / g.units.n)} µs/txn`
          : `${f2(g.units.n / 2 ** 20 / Math.max(0.01, s.cpu - res.baseCpu))} MiB/s`
      const extra = r.serverCpu !== undefined ? ` (+ moto ${f2(r.serverCpu)} s CPU)` : ''
      const ok = r.peer && !r.key.startsWith('tsdump') ? '—' : s.rssKiB / 1024 < RSS_PROMISE_MIB ? 'yes' : '**no**'
      L.push(
        `| ${g.case} | ${units(g)} | ${r.key} | ${f2(s.wall)} | ${f2(s.cpu)}${extra} | ${r.peer ? '' : per} | ${(s.rssKiB / 1024).toFixed(0)} MiB | ${ok} | ${s.codes.join(',')}${r.stderr ? ` (${r.stderr.replace(/\|/g, '/').slice(0, 90)})` : ''} | ${f2(s.load)} |`,
      )
    }
  }
  if (res.scaling.length) {
    L.push('', '## Scaling (CPU minus start-up, smallest to largest size of the case)', '')
    L.push(
      '| case | sizes | units × | CPU × | exponent (1 = linear) | peak RSS by size | verdict |',
      '|---|---|---:|---:|---:|---|---|',
    )
    for (const s of res.scaling) {
      const verdict = [
        s.exponent > 1.15 ? '**worse than linear**' : 'linear or better',
        ...(s.rss.some((m) => m >= RSS_PROMISE_MIB) ? [`**over ${RSS_PROMISE_MIB} MiB**`] : []),
      ].join(', ')
      L.push(
        `| ${s.case} | ${units(s.from)} → ${units(s.to)} | ${f2(s.unitRatio)} | ${f2(s.cpuRatio)} | ${s.exponent.toFixed(2)} | ${s.rss.map((m) => `${m.toFixed(0)}`).join(' / ')} MiB | ${verdict} |`,
      )
    }
  }
  if (res.profiles.length) {
    L.push('', '## Profiles (node --cpu-prof, one run at the largest size; bench/profile-summary.mjs)', '')
    for (const p of res.profiles) L.push(`### ${p.what}`, '', '```', p.text, '```', '')
  }
  L.push(
    '',
    '## Exact commands',
    '',
    'Run from the repository root; `node bin/tsdump.js` is tsdump, stdout to /dev/null, each under `/usr/bin/time -v`. s3:// runs had the environment ' +
      '`AWS_ENDPOINT_URL=<moto> AWS_ACCESS_KEY_ID=tsdump-bench AWS_SECRET_ACCESS_KEY=tsdump-bench AWS_REGION=us-east-1 AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null`.',
    '',
    '```',
  )
  for (const g of res.groups)
    for (const r of g.rows) L.push(r.argv.map((a) => q(a.startsWith(repo + '/') ? rel(a) : a)).join(' '))
  L.push('```', '')
  return L.join('\n') + '\n'
}

// ---------------------------------------------------------------------------------------------- main

function sh(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8' })
  return ((r.stdout ?? '') + (r.stderr ?? '')).trim()
}

async function main() {
  const argv = process.argv.slice(2)
  const o = parseArgs(argv)
  fs.mkdirSync(o.data, { recursive: true })
  const tools = Object.fromEntries(o.kafkaVersions.map((v) => [v, kafkaDumpLog(repo, v, log)]))
  const ctx = {
    kdl: (v, args) => [
      'java',
      '-Xmx256M',
      '-XX:+UseG1GC',
      `-Dlog4j.configuration=file:${tools[v].log4j}`,
      '-cp',
      `${tools[v].lib}/*`,
      tools[v].mainClass,
      ...args,
    ],
  }
  ctx.notes = []
  const res = {
    argv,
    notes: ctx.notes,
    groups: [],
    profiles: [],
    scaling: [],
    loadStart: os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' '),
  }
  const env = {
    date: new Date().toISOString(),
    host: `${os.type()} ${os.release()} ${os.arch()}`,
    cpu: `${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}`,
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    node: process.version,
    java: sh('java', ['-version']).split('\n')[0],
    tsdump: `git ${sh('git', ['-C', repo, 'rev-parse', '--short', 'HEAD'])}`,
    kafka: o.kafkaVersions.join(', ') || 'not run',
  }
  let moto
  if (o.cases.includes('remote-s3')) {
    const exe = motoServerPath()
    if (exe === null)
      res.notes.push(
        'remote-s3 skipped: moto_server not found ($TSDUMP_MOTO_SERVER, .cache/moto/bin/moto_server, PATH)',
      )
    else {
      moto = await startMoto(exe)
      ctx.s3 = moto
      env.moto = `${rel(exe)} at ${moto.endpoint}`
      log(`moto_server at ${moto.endpoint}`)
    }
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  const save = () => {
    fs.writeFileSync(o.out, render(o, env, res))
    fs.writeFileSync(
      path.join(o.data, `commands-${stamp}.json`),
      JSON.stringify({ env, options: o, ...res }, (k, v) => (typeof v === 'bigint' ? String(v) : v), 2),
    )
  }
  try {
    const base = await timed(['node', path.join(repo, 'bin', 'tsdump.js'), '--version'], o)
    res.baseCpu = base.user + base.sys
    res.baseRssKiB = base.rssKiB
    const groups = plan(o, ctx)
    const uploaded = new Set()
    const loads = []
    for (const g of groups) {
      if (g.s3 && !uploaded.has(g.s3.prefix)) {
        log(`uploading ${rel(g.s3.dir)} to s3://bench/${g.s3.prefix}`)
        await upload(moto.endpoint, moto.env, g.s3.dir, 'bench', g.s3.prefix, uploaded.size === 0)
        uploaded.add(g.s3.prefix)
      }
      // the inputs in the page cache, as for every run after the first
      for (const it of g.items)
        spawnSync(it.argv[0], it.argv.slice(1), {
          stdio: 'ignore',
          env: { ...process.env, ...it.env },
          timeout: o.timeout * 1000,
        })
      const runs = g.items.map(() => [])
      const server = g.items.map(() => [])
      for (let i = 0; i < o.runs; i++) {
        const order = g.items.map((_, k) => k)
        if (i % 2 === 1) order.reverse()
        for (const k of order) {
          const it = g.items[k]
          const before = it.server ? cpuOf(moto.child.pid) : NaN
          const r = await timed(it.argv, o, { env: it.env ?? {} })
          if (it.server) server[k].push(cpuOf(moto.child.pid) - before)
          runs[k].push(r)
          loads.push(r.load)
          log(
            `${g.case} ${units(g)} ${it.key} #${i + 1}: ${r.wall.toFixed(2)} s, CPU ${(r.user + r.sys).toFixed(2)} s, ${(r.rssKiB / 1024).toFixed(0)} MiB, exit ${r.code}, load ${r.load.toFixed(1)}`,
          )
        }
      }
      res.groups.push({
        case: g.case,
        input: g.input,
        units: g.units,
        bytes: g.bytes,
        rows: g.items.map((it, k) => ({
          key: it.key,
          peer: it.peer === true,
          argv: it.argv,
          s: summarize(runs[k]),
          serverCpu: it.server ? server[k].sort((a, b) => a - b)[server[k].length >> 1] : undefined,
          stderr:
            runs[k][0]?.code !== 0
              ? (runs[k][0]?.stderr ?? '')
                  .split('\n')
                  .find((l) => /\[[A-Z_]+\]|rror/.test(l))
                  ?.replace(/^.*?(\[[A-Z_]+\])$/, '$1')
                  .slice(0, 120)
              : undefined,
        })),
      })
      res.loadMedian = [...loads].sort((a, b) => a - b)[loads.length >> 1]
      save()
    }
    res.scaling = scaling(res, res.baseCpu)
    if (o.profile) {
      const profDir = path.join(o.data, 'prof')
      fs.mkdirSync(profDir, { recursive: true })
      const flagged = new Set(
        res.scaling.filter((s) => s.exponent > 1.15 || s.rss.some((m) => m >= RSS_PROMISE_MIB)).map((s) => s.case),
      )
      for (const g of res.groups) {
        if (!g.rows[0].s || g.rows[0].s.rssKiB / 1024 >= RSS_PROMISE_MIB) flagged.add(g.case)
      }
      for (const c of flagged) {
        const g = res.groups.filter((x) => x.case === c).at(-1)
        const it = g.rows[0]
        const name = `${c.replace(/[^\w]+/g, '-')}-${g.units.n}.cpuprofile`
        fs.rmSync(path.join(profDir, name), { force: true })
        log(`profiling ${c} at ${units(g)}`)
        await timed(
          [it.argv[0], '--cpu-prof', '--cpu-prof-dir', profDir, '--cpu-prof-name', name, ...it.argv.slice(1)],
          o,
          { env: it.key.includes('s3') ? moto.env : {} },
        )
        res.profiles.push({
          what: `${it.key} on ${g.input} (${rel(path.join(profDir, name))})`,
          text: summarizeProfile(path.join(profDir, name), { top: 20, root: repo }),
        })
        save()
      }
    }
  } finally {
    moto?.stop()
  }
  res.loadEnd = os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')
  res.done = true
  save()
  log(`wrote ${rel(o.out)}`)
}

await main()
