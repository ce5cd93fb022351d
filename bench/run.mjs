#!/usr/bin/env node
// tsdump vs kafka-dump-log (Kafka 3.9.1 and 4.4.0, the real jars), side by side on large broker-made segments (issues #6, #15).
//
//   npm run bench                                   # full: 6 kinds x 1 GiB + 4 GiB, both Kafka versions, 3 runs (~1-1.5 h on 2 cores)
//   npm run bench:quick                             # regression check: 256 MiB inputs, 1 run, no 4 GiB, no CRC bench or checks,
//                                                   #   written to bench/data/RESULTS-quick.md (not the committed RESULTS.md)
//   KAFKA_VERSION=4.4.0 node bench/run.mjs ...      # one kafka-dump-log version only (default: --kafka 3.9.1,4.4.0)
//   node bench/run.mjs --threads 1,2,4              # also shallow/deep/reconcile with --threads N (skipped, with a note,
//                                                   #   while tsdump has no --threads option)
//   node bench/run.mjs --size 256MiB --runs 3 --no-big
//   node bench/run.mjs --inputs plain --modes shallow,reconcile --runs 5
//   node bench/run.mjs --private-build              # compile src/ into bench/data/dist first and time that
//   node bench/run.mjs --profile                    # also node --cpu-prof every tsdump mode that misses its target
//
// Options:
//   --size S           size of the per-kind inputs (default 1GiB)          --big S | --no-big   4 GiB input (default 4GiB)
//   --runs N           alternating runs per pair (default 3)                --inputs plain,zstd-lz4,txn,large-txn
//   --modes M          cat,read,shallow,no-crc,deep,reconcile (default all) --no-checks  skip EPIPE / TTY checks
//   --kafka V,..       kafka-dump-log versions (default 3.9.1,4.4.0; env KAFKA_VERSION=V overrides with one)
//   --threads N,..     tsdump --threads values to sweep (shallow, deep, reconcile), when tsdump has the option
//   --no-crc-bench     skip the CRC-32C library comparison                 --no-kafka   tsdump only
//   --data DIR         inputs + scratch (default bench/data, git-ignored)   --out FILE   (default bench/RESULTS.md)
//   --tsdump FILE      node entry of tsdump (default bin/tsdump.js)          --dist DIR   use DIR/cli/main.js instead
//   --java-opts "..."  JVM options for kafka-dump-log (default: kafka-run-class.sh's defaults, see below)
//   --deep-runs N      runs for the deep pair (default 2)                   --deep-inputs K,..  deep for these kinds (plain,txn,mid;
//                      zstd-lz4 deep costs kafka-dump-log ~10 min per run at 1 GiB, add it explicitly)
//   --big-runs N       runs per tool on the 4 GiB input (default 1)         --big-modes shallow,reconcile[,deep]
//   --timeout S        kill a run after S seconds, recorded as such (600)   --profile-size S  inputs profiled (256MiB)
//
// Every run goes through /usr/bin/time -v (peak RSS = "Maximum resident set size"), stdout to /dev/null.
// In each iteration the commands of a pair run back to back, the order alternating between iterations.
// Raw numbers: <data>/results-<timestamp>.json. Results table: bench/RESULTS.md (rewritten as it goes).
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureSegments, parseSize, sizeLabel, segmentPath } from './make-segments.mjs'
import { summarizeProfile } from './profile-summary.mjs'
import { kafkaDumpLog, kafkaVersions } from './kafka-dump-log.mjs'
import { TARGETS, ratio, renderResults, summarize } from './report.mjs'
import { devnull, timed } from './timed.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const repo = path.resolve(here, '..')

// kafka-run-class.sh (Kafka 3.9) defaults when KAFKA_HEAP_OPTS / KAFKA_JVM_PERFORMANCE_OPTS / KAFKA_JMX_OPTS are unset:
// this is what `kafka-dump-log.sh` runs with out of the box. The same options are used for 4.4.0 (its script was not
// re-checked here; the lead's quiet re-run can compare with --java-opts).
const KAFKA_RUN_CLASS_OPTS = [
  '-Xmx256M',
  '-server',
  '-XX:+UseG1GC',
  '-XX:MaxGCPauseMillis=20',
  '-XX:InitiatingHeapOccupancyPercent=35',
  '-XX:+ExplicitGCInvokesConcurrent',
  '-XX:MaxInlineLevel=15',
  '-Djava.awt.headless=true',
  '-Dcom.sun.management.jmxremote',
  '-Dcom.sun.management.jmxremote.authenticate=false',
  '-Dcom.sun.management.jmxremote.ssl=false',
]

function parseArgs(argv) {
  const o = {
    size: '1GiB',
    big: '4GiB',
    runs: 3,
    inputs: ['plain', 'zstd-lz4', 'txn', 'orders-11', 'mid', 'large-txn'],
    modes: ['cat', 'read', 'shallow', 'no-crc', 'deep', 'reconcile'],
    kafka: undefined,
    threads: undefined,
    checks: true,
    crcBench: true,
    useKafka: true,
    data: path.join(here, 'data'),
    out: path.join(here, 'RESULTS.md'),
    tsdump: path.join(repo, 'bin', 'tsdump.js'),
    dist: undefined,
    javaOpts: undefined,
    profile: false,
    privateBuild: false,
    bigRuns: undefined,
    deepRuns: 2,
    deepInputs: ['plain', 'txn', 'mid'],
    timeout: 600,
    profileSize: '256MiB',
    bigModes: ['shallow', 'reconcile'],
  }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const v = () => argv[++i]
    switch (a) {
      case '--quick':
        o.size = '256MiB'
        o.big = '0'
        o.runs = 1
        o.deepRuns = 1
        o.crcBench = false
        o.checks = false
        o.quick = true
        break
      case '--size':
        o.size = v()
        break
      case '--big':
        o.big = v()
        break
      case '--no-big':
        o.big = '0'
        break
      case '--runs':
        o.runs = Number(v())
        break
      case '--big-runs':
        o.bigRuns = Number(v())
        break
      case '--big-modes':
        o.bigModes = v().split(',')
        break
      case '--deep-runs':
        o.deepRuns = Number(v())
        break
      case '--deep-inputs':
        o.deepInputs = v().split(',')
        break
      case '--timeout':
        o.timeout = Number(v())
        break
      case '--profile-size':
        o.profileSize = v()
        break
      case '--inputs':
        o.inputs = v().split(',')
        break
      case '--modes':
        o.modes = v().split(',')
        break
      case '--no-checks':
        o.checks = false
        break
      case '--no-crc-bench':
        o.crcBench = false
        break
      case '--no-kafka':
        o.useKafka = false
        break
      case '--kafka':
        o.kafka = v().split(',')
        break
      case '--threads':
        o.threads = v().split(',').map(Number)
        break
      case '--data':
        o.data = path.resolve(v())
        break
      case '--out':
        o.out = path.resolve(v())
        break
      case '--tsdump':
        o.tsdump = path.resolve(v())
        break
      case '--dist':
        o.dist = path.resolve(v())
        break
      case '--java-opts':
        o.javaOpts = v().split(/\s+/).filter(Boolean)
        break
      case '--profile':
        o.profile = true
        break
      case '--private-build':
        o.privateBuild = true
        break
      case '-h':
      case '--help':
        {
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
        }
        process.exit(0)
        break
      default:
        console.error(`unknown argument ${a} (see --help)`)
        process.exit(2)
    }
  }
  o.sizeBytes = parseSize(o.size)
  o.bigBytes = parseSize(o.big) || undefined
  o.bigRuns ??= 1
  o.kafkaVersions = o.useKafka ? kafkaVersions(o.kafka) : []
  if (o.quick && !argv.includes('--out')) o.out = path.join(o.data, 'RESULTS-quick.md')
  return o
}

const log = (...a) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...a)

// ---------------------------------------------------------------------------------------------- commands

function makeCommands(o) {
  const javaOpts = o.javaOpts ?? KAFKA_RUN_CLASS_OPTS
  const tools = Object.fromEntries(o.kafkaVersions.map((v) => [v, kafkaDumpLog(repo, v, log)]))
  /** kafka-dump-log of version v */
  const kdl = (v, args) => [
    'java',
    ...javaOpts,
    `-Dlog4j.configuration=file:${tools[v].log4j}`,
    '-cp',
    `${tools[v].lib}/*`,
    tools[v].mainClass,
    ...args,
  ]
  let entry = o.tsdump
  if (o.dist) {
    entry = path.join(o.data, 'tsdump-shim.mjs')
    fs.writeFileSync(
      entry,
      `// generated by bench/run.mjs --dist\nimport { main } from ${JSON.stringify(path.join(o.dist, 'cli', 'main.js'))}\nprocess.exitCode = await main(process.argv.slice(2))\n`,
    )
  }
  const probe = path.join(here, 'io-probe.cjs')
  const ts = (args, nodeFlags = []) => ['node', ...nodeFlags, '--require', probe, entry, ...args]
  // the --threads sweep only runs once tsdump has the option (issue #15 item 2 adds it)
  const help = spawnSync('node', [entry, 'dump', '--help'], { encoding: 'utf8' }).stdout ?? ''
  return { kdl, ts, entry, javaOpts, tools, hasThreads: /--threads\b/.test(help) }
}

// ---------------------------------------------------------------------------------------------- environment

function sh(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8' })
  return ((r.stdout ?? '') + (r.stderr ?? '')).trim()
}

function environment(o, cmds) {
  const cpu = os.cpus()
  const git = sh('git', ['-C', repo, 'rev-parse', '--short', 'HEAD'])
  const dirty = sh('git', ['-C', repo, 'status', '--porcelain', '--', 'src']).split('\n').filter(Boolean).length
  return {
    date: new Date().toISOString(),
    host: `${os.type()} ${os.release()} ${os.arch()}`,
    cpu: `${cpu.length} × ${cpu[0]?.model ?? '?'}`,
    memGiB: (os.totalmem() / 1024 ** 3).toFixed(1),
    node: process.version,
    java: sh('java', ['-version']).split('\n')[0],
    kafka:
      Object.values(cmds.tools)
        .map((t) => `${t.version} (${t.mainClass}, jars in ${path.relative(repo, t.lib)})`)
        .join('; ') || 'not run',
    javaOpts: cmds.javaOpts.join(' '),
    tsdump: `git ${git}${dirty ? ` + ${dirty} uncommitted change(s) under src/` : ''}, entry ${path.relative(repo, cmds.entry)}`,
    fs: sh('df', ['-h', '--output=source,fstype,size,avail', o.data]).split('\n').slice(1).join(' '),
  }
}

// ---------------------------------------------------------------------------------------------- checks

function runChecks(o, cmds, file) {
  const out = []
  const q = (s) => `'${s.replace(/'/g, "'\\''")}'`
  const tsCmd = ['node', cmds.entry].map(q).join(' ')
  // 1. | head: exit 0 and no EPIPE trace
  {
    const r = spawnSync(
      'bash',
      [
        '-c',
        `${tsCmd} ${q(file)} 2>${q(path.join(o.data, '.head-err.txt'))} | head -n 5 >/dev/null; echo "\${PIPESTATUS[0]}"`,
      ],
      { encoding: 'utf8', timeout: 300000 },
    )
    const code = Number(r.stdout.trim())
    const err = fs.readFileSync(path.join(o.data, '.head-err.txt'), 'utf8')
    out.push({
      what: '`tsdump <1 GiB file> | head` exits 0 without an EPIPE trace',
      ok: code === 0 && !/EPIPE|Error/.test(err),
      detail: `exit ${code}, stderr ${JSON.stringify(err.slice(0, 200))}`,
    })
  }
  // 2. progress line on a TTY (script -qc gives the child a pty for stdin/stdout/stderr)
  {
    const tty = path.join(o.data, '.tty.txt')
    const r = spawnSync('script', ['-qec', `${tsCmd} ${q(file)} >/dev/null`, tty], {
      encoding: 'utf8',
      timeout: 300000,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    const seen = fs.readFileSync(tty, 'utf8')
    const progress = /MiB\/s/.test(seen)
    out.push({
      what: 'progress line appears on stderr when stderr is a TTY (script -qec)',
      ok: progress && r.status === 0,
      detail: `exit ${r.status}, ${progress ? 'progress seen' : 'no progress line'}: ${JSON.stringify(
        seen
          .replace(/\x1b\[K/g, '')
          .split('\r')
          .filter(Boolean)
          .slice(1, 2)
          .join('')
          .slice(0, 120),
      )}`,
    })
  }
  // 3. no progress when stderr is not a TTY
  {
    const r = spawnSync('node', [cmds.entry, file], {
      encoding: 'utf8',
      timeout: 300000,
      stdio: ['ignore', devnull, 'pipe'],
    })
    out.push({
      what: 'no progress line when stderr is not a TTY',
      ok: r.status === 0 && r.stderr === '',
      detail: `exit ${r.status}, stderr ${r.stderr.length} bytes`,
    })
  }
  return out
}

// ---------------------------------------------------------------------------------------------- main

async function main() {
  const argv = process.argv.slice(2)
  const o = parseArgs(argv)
  fs.mkdirSync(o.data, { recursive: true })
  if (o.privateBuild) {
    const dist = path.join(o.data, 'dist')
    log(`compiling src/ into ${path.relative(repo, dist)}`)
    fs.rmSync(dist, { recursive: true, force: true })
    spawnSync(
      path.join(repo, 'node_modules', '.bin', 'tsc'),
      ['-p', path.join(repo, 'tsconfig.json'), '--outDir', dist],
      { stdio: 'inherit' },
    )
    o.dist = dist
  }
  const cmds = makeCommands(o)
  const env = environment(o, cmds)
  log(env)
  const segs = ensureSegments({
    out: o.data,
    size: o.sizeBytes,
    big: o.bigBytes,
    only: [...o.inputs, ...(o.bigBytes ? ['big'] : [])],
    log,
  })
  const threadsNote =
    o.threads && !cmds.hasThreads
      ? `tsdump (${path.relative(repo, cmds.entry)}) has no --threads option yet; --threads ${o.threads.join(',')} was not run.`
      : undefined
  if (threadsNote) log(threadsNote)
  const res = {
    threadsNote,
    argv,
    segments: segs.map((s) => ({ name: s.input.name, desc: s.input.desc, stats: s.stats })),
    rows: [],
    big: [],
    checks: [],
    profiles: [],
    crc: undefined,
  }
  // bytes read by node itself (modules, ...) for a run that reads no input: subtracted from tsdump's read-byte counts
  res.rcharBaseline = (await timed(cmds.ts(['--version']), o)).probe?.rchar ?? 0
  log(`tsdump start-up reads ${res.rcharBaseline} bytes (subtracted from read-byte counts)`)
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  const jsonOut = path.join(o.data, `results-${stamp}.json`)
  const save = () => {
    fs.writeFileSync(o.out, renderResults(o, env, res))
    fs.writeFileSync(jsonOut, JSON.stringify({ env, options: o, ...res }, null, 2))
  }

  const warm = (file) => {
    log(`warming page cache: ${path.relative(repo, file)}`)
    spawnSync('cat', [file], { stdio: ['ignore', devnull, 'inherit'] })
  }
  const readFloor = [
    'node',
    '-e',
    'const fs=require("fs");const fd=fs.openSync(process.argv[1]);const b=Buffer.allocUnsafe(16<<20);let n;while((n=fs.readSync(fd,b,0,b.length,null))>0);',
  ]

  for (const s of segs.filter((s) => !s.input.big)) {
    const file = s.file
    const dir = path.dirname(file)
    warm(file)
    // kdl: kafka-dump-log arguments (run for each version); kdlOf: the mode whose kafka-dump-log runs are this mode's peer
    const plan = {
      cat: { peer: ['cat', file] },
      read: { peer: [...readFloor, file] },
      shallow: { kdl: ['--files', file], ts: (x) => [...x, file] },
      'no-crc': { kdlOf: 'shallow', ts: (x) => ['--no-crc', ...x, file] },
      deep: {
        kdl: ['--deep-iteration', '--print-data-log', '--files', file],
        ts: (x) => ['--deep-iteration', '--print-data-log', ...x, file],
      },
      reconcile: { kdlOf: 'shallow', ts: (x) => ['reconcile', ...x, dir] },
    }
    // default sweep once the option exists: 1..cores
    const sweep = cmds.hasThreads ? (o.threads ?? Array.from({ length: os.cpus().length }, (_, i) => i + 1)) : []
    // shallow, --no-crc and reconcile share the peer's shallow runs: each iteration runs them all, order alternating
    const modes = o.modes.filter((m) => !s.input.modes || s.input.modes.includes(m))
    const groups = [
      ['cat', 'read'].filter((m) => modes.includes(m)),
      ['shallow', 'no-crc', 'reconcile'].filter((m) => modes.includes(m)),
      ['deep'].filter((m) => modes.includes(m) && (!o.deepInputs || o.deepInputs.includes(s.input.kind))),
    ].filter((g) => g.length)
    for (const g of groups) {
      const cmdsInGroup = []
      const peerModes = new Set(g.map((m) => (plan[m].kdl ? m : plan[m].kdlOf)).filter(Boolean))
      for (const pm of peerModes)
        for (const v of o.kafkaVersions) cmdsInGroup.push({ key: `${pm}:kdl@${v}`, argv: cmds.kdl(v, plan[pm].kdl) })
      for (const m of g) {
        if (plan[m].peer) cmdsInGroup.push({ key: `${m}:floor`, argv: plan[m].peer })
        if (plan[m].ts) cmdsInGroup.push({ key: `${m}:ts`, argv: cmds.ts(plan[m].ts([])) })
        if (plan[m].ts && m !== 'no-crc')
          for (const n of sweep)
            cmdsInGroup.push({ key: `${m}:ts@threads=${n}`, argv: cmds.ts(plan[m].ts(['--threads', String(n)])) })
      }
      const runs = Object.fromEntries(cmdsInGroup.map((c) => [c.key, []]))
      const nRuns = g.includes('deep') ? o.deepRuns : o.runs
      for (let i = 0; i < nRuns; i++) {
        const order = i % 2 === 0 ? cmdsInGroup : [...cmdsInGroup].reverse()
        for (const c of order) {
          const r = await timed(c.argv, o)
          runs[c.key].push(r)
          log(
            `${s.input.name} ${c.key} #${i + 1}: ${r.wall.toFixed(2)} s, CPU ${(r.user + r.sys).toFixed(2)} s, ${(r.rssKiB / 1024).toFixed(0)} MiB, exit ${r.code}${r.code && r.stderr ? ` (${r.stderr.split('\n')[0].slice(0, 120)})` : ''}`,
          )
        }
      }
      for (const m of g) {
        const base = { input: s.input.name, mode: m, bytes: s.stats.bytes }
        if (plan[m].peer) {
          res.rows.push({ ...base, ts: summarize(runs[`${m}:floor`]), floor: true })
          continue
        }
        const pm = plan[m].kdl ? m : plan[m].kdlOf
        const kdl = Object.fromEntries(o.kafkaVersions.map((v) => [v, summarize(runs[`${pm}:kdl@${v}`])]))
        const kdlStderr = Object.fromEntries(
          o.kafkaVersions.map((v) => [v, runs[`${pm}:kdl@${v}`]?.[0]?.stderr?.slice(0, 500)]),
        )
        res.rows.push({
          ...base,
          kdl,
          kdlStderr,
          ts: summarize(runs[`${m}:ts`]),
          tsStderr: runs[`${m}:ts`]?.[0]?.stderr?.slice(0, 500),
        })
        for (const n of m === 'no-crc' ? [] : sweep)
          res.rows.push({ ...base, threads: n, kdl, ts: summarize(runs[`${m}:ts@threads=${n}`]) })
      }
      save()
    }
  }
  // floors have no peer: show them in the kafka column as "—" and their time in the tsdump column
  save()

  // 4 GiB: memory stays flat? kafka-dump-log refuses files over 2 GiB.
  for (const s of segs.filter((s) => s.input.big)) {
    warm(s.file)
    const dir = path.dirname(s.file)
    const items = [
      { tool: 'cat', mode: 'cat', argv: ['cat', s.file] },
      ...o.kafkaVersions.map((v) => ({
        tool: `kafka-dump-log ${v}`,
        mode: 'shallow',
        argv: cmds.kdl(v, ['--files', s.file]),
        once: true,
      })),
      ...(o.bigModes.includes('shallow') ? [{ tool: 'tsdump', mode: 'shallow', argv: cmds.ts([s.file]) }] : []),
      ...(o.bigModes.includes('deep')
        ? [
            {
              tool: 'tsdump',
              mode: 'deep (--deep-iteration --print-data-log)',
              argv: cmds.ts(['--deep-iteration', '--print-data-log', s.file]),
            },
          ]
        : []),
      ...(o.bigModes.includes('reconcile')
        ? [{ tool: 'tsdump', mode: 'reconcile', argv: cmds.ts(['reconcile', dir]) }]
        : []),
    ]
    for (const it of items) {
      const runs = []
      for (let i = 0; i < (it.once ? 1 : o.bigRuns); i++) {
        const r = await timed(it.argv, o)
        runs.push(r)
        log(
          `${s.input.name} ${it.tool} ${it.mode} #${i + 1}: ${r.wall.toFixed(2)} s, ${(r.rssKiB / 1024).toFixed(0)} MiB, exit ${r.code}`,
        )
      }
      const note = runs[0].timedOut
        ? `killed after ${o.timeout} s (--timeout)`
        : runs[0].code !== 0
          ? (
              runs[0].stderr.split('\n').find((l) => /Exception|Error|larger|size|memory/i.test(l)) ??
              runs[0].stderr.split('\n')[0] ??
              ''
            ).slice(0, 240)
          : ''
      res.big.push({ input: s.input.name, tool: it.tool, mode: it.mode, s: summarize(runs), note })
      save()
    }
  }

  if (o.crcBench) {
    const files = segs
      .filter((s) => ['orders-11', 'plain', 'mid', 'large-txn'].includes(s.input.kind) && !s.input.big)
      .map((s) => s.file)
    if (files.length) {
      log('CRC-32C per batch, per implementation')
      const r = spawnSync('node', [path.join(here, 'crc.mjs'), ...files], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
        timeout: 600000,
      })
      res.crc = r.stdout.trim() || `crc.mjs failed (exit ${r.status})`
      save()
    }
  }

  if (o.checks) {
    const f = segs.find((s) => s.input.kind === 'plain' && !s.input.big)?.file
    if (f) {
      log('checks: | head, TTY progress')
      res.checks = runChecks(o, cmds, f)
      save()
    }
  }

  if (o.profile) {
    const profDir = path.join(o.data, 'prof')
    fs.mkdirSync(profDir, { recursive: true })
    const misses = res.rows.filter(
      (r) =>
        TARGETS[r.mode] &&
        r.threads === undefined &&
        !Object.values(r.kdl ?? {}).every((k) => ratio(k, r.ts) >= TARGETS[r.mode]),
    )
    const todo = misses.length ? misses : res.rows.filter((r) => r.mode === 'shallow').slice(0, 1)
    const pSize = parseSize(o.profileSize)
    const pSegs = ensureSegments({ out: o.data, size: pSize, big: undefined, only: o.inputs, log })
    const seen = new Set()
    for (const r of todo) {
      const kind = segs.find((x) => x.input.name === r.input).input.kind
      if (seen.has(`${kind}:${r.mode}`)) continue
      seen.add(`${kind}:${r.mode}`)
      const s = pSegs.find((x) => x.input.kind === kind)
      const args =
        r.mode === 'shallow'
          ? [s.file]
          : r.mode === 'no-crc'
            ? ['--no-crc', s.file]
            : r.mode === 'deep'
              ? ['--deep-iteration', '--print-data-log', s.file]
              : ['reconcile', path.dirname(s.file)]
      const name = `${s.input.name}-${r.mode}.cpuprofile`
      fs.rmSync(path.join(profDir, name), { force: true })
      await timed(cmds.ts(args, ['--cpu-prof', '--cpu-prof-dir', profDir, '--cpu-prof-name', name]), o)
      res.profiles.push({
        what: `${s.input.name} ${r.mode} (${path.relative(repo, path.join(profDir, name))})`,
        text: summarizeProfile(path.join(profDir, name), { top: 25, root: repo }),
      })
      save()
    }
  }
  save()
  log(`wrote ${path.relative(process.cwd(), o.out)} and ${path.relative(process.cwd(), jsonOut)}`)
}

await main()
