// Shared helpers of the hostile-input suite: in-process CLI runs, finding parsing, real-file locations.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { StringWriter } from '../../src/format/writer.js'
import type { CommandContext } from '../../src/commands/context.js'
import { CORPUS, FIXTURES as BROKER_FIXTURES } from '../support/paths.js'
import { runCli, TEST_NOW } from '../support/run-cli.js'

export { CORPUS, FIXTURES as BROKER_FIXTURES, REPO_ROOT as REPO } from '../support/paths.js'

export interface RunResult {
  code: number
  stdout: string
  stderr: string
}

export function testContext(): CommandContext & { stdout: StringWriter; stderr: StringWriter } {
  return {
    stdout: new StringWriter(),
    stderr: new StringWriter(),
    colorLevel: 0,
    stderrIsTTY: false,
    env: {},
    now: () => TEST_NOW,
  }
}

/** Run the whole CLI in-process, as `tsdump <argv>`. */
export async function run(argv: string[]): Promise<RunResult> {
  return await runCli(argv)
}

export interface ParsedFinding {
  severity: string
  file: string | undefined
  position: number | undefined
  message: string
  code: string
}

const FINDING = /^tsdump: (error|warning|info): (?:(.*?): )?(?:position (\d+): )?(.*) \[([A-Z0-9_]+)\]$/

/** Finding lines of stderr (`tsdump: <severity>: <file>: position <p>: <message> [<CODE>]`). */
export function findings(stderr: string): ParsedFinding[] {
  const out: ParsedFinding[] = []
  for (const line of stderr.split('\n')) {
    const m = FINDING.exec(line)
    if (m === null) continue
    out.push({
      severity: m[1]!,
      file: m[2],
      position: m[3] === undefined ? undefined : Number(m[3]),
      message: m[4]!,
      code: m[5]!,
    })
  }
  return out
}

export function codes(stderr: string): string[] {
  return findings(stderr).map((f) => f.code)
}

/** Nothing a user should never see: stack frames or the internal-error line. */
export function expectNoCrash(r: RunResult): void {
  if (/internal error|\n\s+at .+:\d+:\d+\)?\n/.test(r.stderr)) throw new Error(`crash output:\n${r.stderr}`)
  if (![0, 1, 2].includes(r.code)) throw new Error(`exit code ${r.code}`)
}

export function tmp(prefix = 'tsdump-hostile-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix))
}

export function rmrf(p: string): void {
  fs.rmSync(p, { recursive: true, force: true })
}

/** Segment files of the read-only corpus (absolute paths), or [] when the corpus is absent. */
export function corpusLogs(): string[] {
  if (!fs.existsSync(CORPUS)) return []
  const out: string[] = []
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name)
      if (e.isDirectory()) walk(p)
      else if (e.name.endsWith('.log')) out.push(p)
    }
  }
  walk(CORPUS)
  return out.sort()
}

/** Partition directories of the broker fixtures (fixtures/broker/<scenario>/logs/<topic-partition>). */
export function brokerPartitions(): string[] {
  if (!fs.existsSync(BROKER_FIXTURES)) return []
  const out: string[] = []
  for (const s of fs.readdirSync(BROKER_FIXTURES).sort()) {
    const logs = path.join(BROKER_FIXTURES, s, 'logs')
    if (!fs.existsSync(logs)) continue
    for (const p of fs.readdirSync(logs, { withFileTypes: true })) {
      if (p.isDirectory()) out.push(path.join(logs, p.name))
    }
  }
  return out.sort()
}

/** A snapshot copy of a file (broker fixtures may still be growing). */
export function readStable(p: string): Buffer {
  return fs.readFileSync(p)
}

export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0

/** Entry boundaries of the well-framed prefix of a log: [0, end of entry 1, ..., end of the last complete entry]. */
export function frameBoundaries(buf: Buffer): number[] {
  const out = [0]
  let p = 0
  while (p + 17 < buf.length) {
    const size = buf.readInt32BE(p + 8)
    if (size < 14 || p + 12 + size > buf.length) break
    p += 12 + size
    out.push(p)
  }
  return out
}

/** Real log files to damage: every corpus log and one log per broker-fixture partition (largest first is not needed). */
export function realLogs(): string[] {
  const out = corpusLogs()
  for (const part of brokerPartitions()) {
    const logs = fs
      .readdirSync(part)
      .filter((n) => n.endsWith('.log'))
      .sort()
    if (logs.length > 0) out.push(path.join(part, logs[0]!))
  }
  return out
}

export function writeLog(dir: string, buf: Buffer, name = '00000000000000000000.log'): string {
  const part = path.join(dir, 'damaged-0')
  fs.mkdirSync(part, { recursive: true })
  const p = path.join(part, name)
  fs.writeFileSync(p, buf)
  return p
}

/** `baseOffset:` / `offset:` batch lines of a text dump */
export function batchLines(stdout: string): string[] {
  return stdout.split('\n').filter((l) => l.startsWith('baseOffset: ') || /^offset: \d+ position: /.test(l))
}

export function summaryOf(stdout: string): { batches: number; trailing: number; crc: number } | undefined {
  const m = /^Summary: (\d+) batch(?:es)?, .*CRC failures: (\d+), trailing bytes: (\d+)/m.exec(stdout)
  return m === null ? undefined : { batches: Number(m[1]), crc: Number(m[2]), trailing: Number(m[3]) }
}
