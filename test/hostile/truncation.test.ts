// Truncated segments (unclean shutdown, full disk, half-copied files): the complete batches are listed,
// the cut-off tail is reported with its position and length, and the exit code says so.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { detachEvent, readLog } from '../../src/decode/log-reader.js'
import type { LogEvent } from '../../src/decode/log-reader.js'
import { BufferSource } from '../../src/io/buffer-source.js'
import {
  batchLines,
  expectNoCrash,
  findings,
  frameBoundaries,
  realLogs,
  rmrf,
  run,
  summaryOf,
  tmp,
  writeLog,
} from './support.js'

const dir = tmp()
afterAll(() => rmrf(dir))

const logs = realLogs()
  .map((p) => ({ p, buf: fs.readFileSync(p) })) // a snapshot: broker fixtures may still be growing
  .filter(({ buf }) => frameBoundaries(buf).length >= 3)
if (logs.length === 0)
  console.log('skipping real-file truncation: neither ../shared/corpus nor fixtures/broker is present')

interface Expected {
  batches: number
  tail?: { position: number; length: number; code: 'TRUNCATED_TAIL' | 'SHORT_TAIL' | 'ZERO_TAIL' }
}

/** What a dump of buf cut at `cut` must report, from the entry boundaries of the intact file. */
function expected(buf: Buffer, bounds: number[], cut: number): Expected {
  let i = 0
  while (i + 1 < bounds.length && bounds[i + 1]! <= cut) i++
  const b = bounds[i]!
  if (b === cut) return { batches: i }
  const rest = buf.subarray(b, cut)
  const code = rest.every((x) => x === 0) ? 'ZERO_TAIL' : cut - b <= 17 ? 'SHORT_TAIL' : 'TRUNCATED_TAIL'
  return { batches: i, tail: { position: b, length: cut - b, code } }
}

function scan(buf: Buffer): LogEvent[] {
  return Array.from(readLog(new BufferSource(buf), { resync: true }), detachEvent)
}

function checkEvents(evs: LogEvent[], exp: Expected, cut: number): void {
  const frames = evs.filter((e) => e.kind === 'batch' || e.kind === 'legacy')
  expect(frames, `cut ${cut}`).toHaveLength(exp.batches)
  for (const f of frames) if (f.kind === 'batch') expect(f.crcValid, `cut ${cut}`).toBe(true)
  const tails = evs.filter((e) => e.kind === 'tail' || e.kind === 'corrupt')
  if (exp.tail === undefined) {
    expect(tails, `cut ${cut}`).toEqual([])
    return
  }
  expect(tails, `cut ${cut}`).toHaveLength(1)
  const t = tails[0]!
  expect(t.kind).toBe('tail')
  if (t.kind !== 'tail') return
  expect([t.position, t.length], `cut ${cut}`).toEqual([exp.tail.position, exp.tail.length])
  expect(t.reason, `cut ${cut}`).toBe(
    exp.tail.code === 'ZERO_TAIL' ? 'zeros' : exp.tail.code === 'SHORT_TAIL' ? 'short' : 'truncated',
  )
}

async function checkCli(buf: Buffer, bounds: number[], cut: number, name: string): Promise<void> {
  const p = writeLog(path.join(dir, `${name}-${cut}`), buf.subarray(0, cut))
  const r = await run(['--no-progress', p])
  expectNoCrash(r)
  const exp = expected(buf, bounds, cut)
  expect(batchLines(r.stdout), `cut ${cut}`).toHaveLength(exp.batches)
  const fs_ = findings(r.stderr).filter((f) => f.code !== 'NAME_NOT_OFFSET')
  if (exp.tail === undefined) {
    expect(fs_, `cut ${cut}`).toEqual([])
    expect(r.code).toBe(0)
  } else {
    expect(
      fs_.map((f) => [f.code, f.position]),
      `cut ${cut}`,
    ).toEqual([[exp.tail.code, exp.tail.position]])
    expect(fs_[0]!.message).toContain(`${exp.tail.length}`)
    expect(r.code, `cut ${cut}`).toBe(exp.tail.code === 'ZERO_TAIL' ? 0 : 1)
    expect(r.stdout).toContain(`Found ${exp.tail.length} invalid bytes at the end of`)
  }
  expect(summaryOf(r.stdout), `cut ${cut}`).toMatchObject({ batches: exp.batches, trailing: exp.tail?.length ?? 0 })
  rmrf(path.dirname(path.dirname(p)))
}

/**
 * Every byte of the last two entries when they are small (≤ 8 KiB together); for big compressed batches
 * every byte of the first and last 100 bytes of each and an even stride in between (≤ ~1000 cuts).
 */
function cutsInLastTwo(bounds: number[]): number[] {
  const from = bounds[bounds.length - 3]!
  const end = bounds[bounds.length - 1]!
  const all = Array.from({ length: end - from + 1 }, (_, i) => from + i)
  if (end - from <= 8192) return all
  const near = (c: number): boolean => bounds.slice(-3).some((b) => Math.abs(c - b) <= 100)
  const stride = Math.ceil((end - from) / 500)
  return all.filter((c) => near(c) || (c - from) % stride === 0)
}

describe.skipIf(logs.length === 0)('truncated real segments', () => {
  it.each(logs.map((l) => [path.relative(path.resolve(l.p, '../../..'), l.p), l] as const))(
    '%s: every cut inside the last two batches (decoder)',
    (_n, l) => {
      // large files: their last 20 entries, so each of the few hundred scans stays small
      const all = frameBoundaries(l.buf)
      const buf = l.buf.length > 32768 ? l.buf.subarray(all[Math.max(0, all.length - 21)]) : l.buf
      const bounds = frameBoundaries(buf)
      for (const cut of cutsInLastTwo(bounds)) checkEvents(scan(buf.subarray(0, cut)), expected(buf, bounds, cut), cut)
    },
  )

  it('every cut inside the last two batches, through the CLI (small files)', async () => {
    const small = logs.filter(({ buf }) => buf.length <= 4096).slice(0, 2)
    for (const { p, buf } of small) {
      const bounds = frameBoundaries(buf)
      const end = bounds[bounds.length - 1]!
      for (let cut = bounds[bounds.length - 3]!; cut <= end; cut++)
        await checkCli(buf, bounds, cut, path.basename(path.dirname(p)))
    }
  })

  it('random cuts of the larger files, through the CLI', async () => {
    let seed = 42
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed % n
    }
    for (const { p, buf } of logs.filter(({ buf }) => buf.length > 4096)) {
      const bounds = frameBoundaries(buf)
      for (let k = 0; k < 4; k++)
        await checkCli(buf, bounds, rand(bounds[bounds.length - 1]! + 1), path.basename(path.dirname(p)))
    }
  })
})

describe('truncation corner cases', () => {
  it('a cut exactly at a batch boundary is a clean, shorter segment: exit 0', async () => {
    const buf = logs[0]?.buf
    if (buf === undefined) return
    const bounds = frameBoundaries(buf)
    const p = writeLog(path.join(dir, 'boundary'), buf.subarray(0, bounds[1]))
    const r = await run([p])
    expect(r.code).toBe(0)
    expect(batchLines(r.stdout)).toHaveLength(1)
    expect(r.stderr).toBe('')
  })

  it('--no-resync and --compat report the same tail (truncation is not damage to resynchronise over)', async () => {
    const buf = logs[0]?.buf
    if (buf === undefined) return
    const bounds = frameBoundaries(buf)
    const cut = bounds[bounds.length - 1]! - 3
    const p = writeLog(path.join(dir, 'modes'), buf.subarray(0, cut))
    for (const flags of [[], ['--no-resync'], ['--deep-iteration']]) {
      const r = await run([...flags, p])
      expect(r.code, flags.join(' ')).toBe(1)
      expect(findings(r.stderr).map((f) => [f.code, f.position])).toEqual([
        ['TRUNCATED_TAIL', bounds[bounds.length - 2]],
      ])
    }
    const c = await run(['--compat', p])
    expect(c.code).toBe(1)
    expect(c.stdout).toContain(
      `Found ${cut - bounds[bounds.length - 2]!} invalid bytes at the end of 00000000000000000000.log`,
    )
  })
})
