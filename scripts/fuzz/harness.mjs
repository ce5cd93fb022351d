// Runs one generated input (in-process through main(), or as a child process with time and peak RSS),
// judges it against the properties of checks.mjs and the class's own expectation, and tallies the
// results against the expected-failures list: an unexpected failure fails the run, and so does an
// expected failure that no longer happens ("remove it from the list").
import { LIMITS, compareInputs, crashProblem, snapshotInputs, unlocatedCodes } from './checks.mjs'
import { hasOpen, runChild } from './child.mjs'

// Captures output like the CLI's StringWriter, including the byte-level reserve/commit path.
export class Capture {
  text = ''
  closed = false
  buffer = Buffer.alloc(64 * 1024)
  write(s) {
    this.text += s
  }
  reserve(n) {
    if (n > this.buffer.length) this.buffer = Buffer.alloc(n)
    return 0
  }
  commit(end) {
    this.text += this.buffer.toString('utf8', 0, end)
  }
  writeBytes(bytes) {
    this.text += Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8')
  }
  flush() {}
}

export async function runInProcess(main, argv) {
  const stdout = new Capture()
  const stderr = new Capture()
  const ctx = { stdout, stderr, colorLevel: 0, stderrIsTTY: false, env: {}, now: () => 1_800_000_000_000 }
  const t0 = process.hrtime.bigint()
  let code = -1
  let thrown
  try {
    code = await main(argv, ctx)
  } catch (e) {
    thrown = e
  }
  return {
    code,
    thrown,
    stdout: stdout.text,
    stderr: stderr.text,
    seconds: Number(process.hrtime.bigint() - t0) / 1e9,
    rssMiB: undefined,
    mode: 'in-process',
  }
}

export async function runAsChild(run, opts = {}) {
  const r = await runChild({
    argv: run.argv,
    stdout: run.stdout === 'full' ? 'full' : run.argv.includes('--json') ? 'capture' : (run.stdout ?? 'capture'),
    stderr: run.stderr === 'full' ? 'full' : 'capture',
    timeoutSeconds: opts.timeoutSeconds ?? LIMITS.hangSeconds,
    cpuLimitSeconds: opts.cpuLimitSeconds ?? LIMITS.seconds,
    killRssMiB: opts.killRssMiB ?? 1536,
    ...(run.during !== undefined ? { during: run.during } : {}),
    ...(run.stdin !== undefined ? { stdin: run.stdin } : {}),
    ...(run.wrap !== undefined ? { wrap: run.wrap } : {}),
  })
  return { ...r, mode: 'child' }
}

/** Problems of one run, as [check, message] pairs; `unlocated` receives the location tally. */
export function judge(run, r, integrity, locationTally) {
  const out = []
  if (r.thrown !== undefined)
    out.push([
      'crash',
      `exception escaped main(): ${String(r.thrown.stack ?? r.thrown)
        .split('\n')
        .slice(0, 3)
        .join(' | ')}`,
    ])
  else if (r.killed !== undefined) out.push([/RSS/.test(r.killed) ? 'rss' : 'time', r.killed])
  else {
    const c = crashProblem(r.code, r.stderr ?? '')
    if (c !== undefined) out.push([/out of memory/.test(c) ? 'rss' : 'crash', c])
  }
  const seconds = r.mode === 'child' && Number.isFinite(r.cpuSeconds) ? r.cpuSeconds : r.seconds
  if (seconds > LIMITS.seconds && !out.some(([k]) => k === 'time'))
    out.push(['time', `${seconds.toFixed(1)} s${r.mode === 'child' ? ' CPU' : ''}`])
  // a run killed for time has only a partial RSS: judging it would make the verdict depend on the load
  if (r.rssMiB !== undefined && r.rssMiB > LIMITS.rssMiB && !out.some(([k]) => k === 'rss' || k === 'time'))
    out.push(['rss', `${Math.round(r.rssMiB)} MiB peak RSS`])
  if (integrity !== undefined) out.push(['writes', integrity])
  if (run.expect !== undefined && r.thrown === undefined && r.killed === undefined) {
    const e = run.expect(r)
    if (e !== undefined) out.push(['expect', e])
  }
  if (run.argv.includes('--json') && !r.stdoutCut && r.stdout !== undefined) {
    const u = unlocatedCodes(r.stdout)
    if (u !== undefined) locationTally.add(u)
  }
  return out
}

/** Which finding codes appeared in --json output, and which appeared without a location. */
export class LocationTally {
  seen = new Map()
  unlocated = new Map()
  add({ all, unlocated }) {
    for (const c of all) this.seen.set(c, (this.seen.get(c) ?? 0) + 1)
    for (const c of unlocated) this.unlocated.set(c, (this.unlocated.get(c) ?? 0) + 1)
  }

  /** Problems against the list of codes still expected without a location. */
  verdict(expected) {
    const problems = []
    for (const [c, n] of this.unlocated)
      if (!expected.includes(c))
        problems.push(`${n} findings ${c} without a location (file + position, or partition + offsets)`)
    for (const c of expected) {
      if ((this.seen.get(c) ?? 0) > 0 && !this.unlocated.has(c))
        problems.push(
          `${c} is now always located: remove it from UNLOCATED_CODES in scripts/fuzz/expected-failures.mjs`,
        )
    }
    return problems
  }
}

/** Per `class:label/check` keys: how often run and failed, worst time and RSS. */
export class Tally {
  rows = new Map()
  row(key) {
    let r = this.rows.get(key)
    if (r === undefined) {
      r = { runs: 0, seconds: 0, cpu: 0, rssMiB: 0, failed: new Map() }
      this.rows.set(key, r)
    }
    return r
  }

  add(key, r, problems) {
    const row = this.row(key)
    row.runs++
    row.seconds = Math.max(row.seconds, r.seconds ?? 0)
    if (Number.isFinite(r.cpuSeconds)) row.cpu = Math.max(row.cpu, r.cpuSeconds)
    if (r.rssMiB !== undefined) row.rssMiB = Math.max(row.rssMiB, r.rssMiB)
    for (const [check, msg] of problems) if (!row.failed.has(check)) row.failed.set(check, msg)
  }

  /** Unexpected failures and stale expectations. `expected`: { 'class:label/check': reason } */
  verdict(expected, ranClass) {
    const unexpected = []
    const stale = []
    for (const [key, row] of this.rows)
      for (const [check, msg] of row.failed)
        if (expected[`${key}/${check}`] === undefined) unexpected.push(`${key}/${check}: ${msg}`)
    for (const k of Object.keys(expected)) {
      const [key, check] = [k.slice(0, k.lastIndexOf('/')), k.slice(k.lastIndexOf('/') + 1)]
      const row = this.rows.get(key)
      if (row === undefined) {
        if (ranClass(key.split(':')[0]))
          stale.push(`${k}: this run never happened; fix the key or remove it from the list`)
        continue
      }
      if (!row.failed.has(check)) stale.push(`${k} passes now: remove it from the expected-failures list`)
    }
    return { unexpected, stale }
  }

  table(expected) {
    const lines = [
      '| class:run | runs | worst wall s | worst CPU s | peak RSS MiB | result |',
      '|---|---:|---:|---:|---:|---|',
    ]
    for (const [key, row] of [...this.rows].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const res =
        row.failed.size === 0
          ? 'pass'
          : [...row.failed]
              .map(([c, m]) => `${expected[`${key}/${c}`] !== undefined ? 'expected ' : ''}FAIL ${c}: ${m}`)
              .join('; ')
      lines.push(
        `| ${key} | ${row.runs} | ${row.seconds.toFixed(2)} | ${row.cpu > 0 ? row.cpu.toFixed(2) : '-'} | ${row.rssMiB > 0 ? Math.round(row.rssMiB) : '-'} | ${res.replace(/\|/g, '/')} |`,
      )
    }
    return lines.join('\n')
  }
}

/** Build-time and run-time helpers shared by both tiers. */
export function integrityOf(before, inputs) {
  return before === undefined ? undefined : compareInputs(before, snapshotInputs(inputs))
}
export { hasOpen, snapshotInputs }
