// The properties every run must have (issue #14 "Done when"): no stack trace or internal error, an exit
// code of 0/1/2, no run over 60 s or 128 MiB peak RSS, no write to any input, and in --json every finding
// located: `file` and a byte `position`, or for a partition-level finding the `partition` and the offsets.
import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'

// seconds: CPU time (user + sys) of a child run, wall time of an in-process run. CPU time because the
// harness shares machines (2 cores, several jobs): wall time there says more about the neighbours than
// about tsdump. A hang uses no CPU; hangSeconds of wall time catch it.
export const LIMITS = { seconds: 60, rssMiB: 128, hangSeconds: 180 }

/** What is wrong with a run's stderr and exit code, or undefined. */
export function crashProblem(code, stderr) {
  if (/internal error/.test(stderr))
    return `internal error: ${stderr.split('\n').find((l) => /internal error/.test(l))}`
  if (/\n\s+at .+:\d+:\d+\)?$/m.test(stderr) || /^\s+at .+\(.+:\d+:\d+\)$/m.test(stderr)) return 'stack trace on stderr'
  if (/JavaScript heap out of memory|FATAL ERROR/.test(stderr)) return 'V8 out of memory'
  if (![0, 1, 2].includes(code)) return `exit code ${code}`
  return undefined
}

const isFinding = (o) =>
  o !== null &&
  typeof o === 'object' &&
  !Array.isArray(o) &&
  typeof o.severity === 'string' &&
  typeof o.code === 'string' &&
  typeof o.message === 'string'

/** A finding names its file and byte position, or (partition-level) its partition and the offsets it is about. */
export function located(f) {
  if (typeof f.file === 'string' && Number.isInteger(f.position)) return true
  const hasPartition = f.partition !== undefined && f.partition !== null
  return hasPartition && Object.keys(f).some((k) => /offset/i.test(k) && f[k] !== null && f[k] !== undefined)
}

function collect(v, out) {
  if (Array.isArray(v)) {
    for (const x of v) collect(x, out)
    return
  }
  if (v === null || typeof v !== 'object') return
  if (isFinding(v)) out.push(v)
  for (const x of Object.values(v)) if (x !== null && typeof x === 'object') collect(x, out)
}

/** Codes of the --json findings that lack a location; undefined when the output is not JSON. */
export function unlocatedCodes(stdout) {
  const found = []
  const text = stdout.trimStart()
  if (!text.startsWith('{')) return undefined
  const lines = text.split('\n')
  try {
    // NDJSON (dump) or one object (reconcile, txns, lso)
    if (lines.length > 1 && lines[0].trimEnd().endsWith('}') && lines[1].trimStart().startsWith('{')) {
      for (const l of lines) if (l.includes('"severity"')) collect(JSON.parse(l), found)
    } else {
      collect(JSON.parse(text), found)
    }
  } catch {
    return undefined
  } // cut output (EPIPE, size cap): nothing to judge
  return { all: found.map((f) => f.code), unlocated: found.filter((f) => !located(f)).map((f) => f.code) }
}

function hashFile(p, size) {
  const h = createHash('sha1')
  const fd = fs.openSync(p, 'r')
  try {
    const chunk = Buffer.allocUnsafe(64 << 10)
    // whole files up to 16 MiB; larger ones (sparse multi-GiB inputs) at 64 spread-out 64 KiB samples,
    // the first and last included (size, mtime and ctime catch any other write)
    const positions =
      size <= 16 << 20
        ? Array.from({ length: Math.ceil(size / chunk.length) }, (_, i) => i * chunk.length)
        : Array.from({ length: 64 }, (_, i) => Math.floor(((size - chunk.length) * i) / 63))
    for (const pos of positions) {
      const n = fs.readSync(fd, chunk, 0, chunk.length, pos)
      h.update(chunk.subarray(0, n))
    }
  } finally {
    fs.closeSync(fd)
  }
  return h.digest('hex')
}

/** Size, times and content hash of every regular file under the inputs (FIFOs and devices: their type only). */
export function snapshotInputs(roots) {
  const out = new Map()
  // p is a string or, for names that are not UTF-8, a Buffer; keys are printable and unique
  const key = (p) => (typeof p === 'string' ? p : `bytes:${p.toString('hex')}`)
  const visit = (p, depth) => {
    let st
    try {
      st = fs.lstatSync(p)
    } catch {
      return
    }
    if (st.isDirectory() && depth < 4) {
      const names = fs.readdirSync(p, { encoding: 'buffer' })
      out.set(
        key(p),
        `dir ${names
          .map((b) => b.toString('hex'))
          .sort()
          .join(',')}`,
      )
      for (const n of names) visit(joinRaw(p, n), depth + 1)
    } else if (st.isFile()) {
      out.set(key(p), `file ${st.size} ${st.mtimeMs} ${st.ctimeMs} ${hashFile(p, st.size)}`)
    } else {
      out.set(key(p), `${st.isSymbolicLink() ? 'link' : 'special'} ${st.mtimeMs} ${st.ctimeMs}`)
    }
  }
  for (const r of roots) visit(r, 0)
  return out
}

function joinRaw(dir, name) {
  const d = typeof dir === 'string' ? Buffer.from(dir) : dir
  const utf8 = name.toString('utf8')
  if (typeof dir === 'string' && Buffer.from(utf8).equals(name)) return path.join(dir, utf8)
  return Buffer.concat([d, Buffer.from(path.sep), name])
}

export function compareInputs(before, after) {
  for (const [p, v] of before) {
    const w = after.get(p)
    if (w !== v) return `input changed: ${p} (${v} -> ${w ?? 'gone'})`
  }
  for (const p of after.keys()) if (!before.has(p)) return `input created: ${p}`
  return undefined
}
