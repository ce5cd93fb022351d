// `tsdump cleanup`: per partition, what the log cleaner and retention will do next and what holds them back.
import type { Finding } from '../analysis/findings.js'
import { TsdumpError } from '../analysis/tsdump-error.js'
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, exitCodeFor } from '../analysis/findings.js'
import type { CleanupPartition, CleanupResult } from '../analysis/cleanup/result.js'
import { CleanupJsonStream } from '../format/cleanup-json.js'
import { CleanupTextStream } from '../format/cleanup-text.js'
import { checkConfigFlags } from '../analysis/cleanup/config-flags.js'
import { BrokerModel } from '../scan/broker-model.js'
import type { CommandContext } from './context.js'
import { CleanupPass } from './cleanup-pass.js'
import type { CleanupHead, CleanupOptions } from './cleanup-pass.js'
import { warnIfNowBeforeData } from './now-check.js'
import { writeUnusable } from './partition-command.js'

export type { CleanupOptions } from './cleanup-pass.js'

/** `tsdump cleanup`'s: the library's and the command line's */
export interface CleanupCommandOptions extends CleanupOptions {
  paths: string[]
  format?: 'text' | 'json'
  color?: boolean
  /** no line cut at 80 columns */
  wide?: boolean
}

/**
 * What the log cleaner and retention will do next to each partition under `paths`.
 * @throws TsdumpError USAGE when `configs` holds a key or value Kafka would refuse (as --config's exit 2)
 */
export function cleanup(
  paths: string[],
  opts: CleanupOptions = {},
): CleanupResult & { unusable: Finding[]; unreadable?: Finding[]; newestTimestamp: bigint | null } {
  const bad = opts.configs === undefined ? null : checkConfigFlags(opts.configs)
  if (bad !== null) throw new TsdumpError('USAGE', bad)
  const model = cleanupModel(paths, opts)
  const pass = new CleanupPass(model, opts)
  const partitions: CleanupPartition[] = []
  pass.run((p) => partitions.push(p))
  return { ...pass.head, partitions, newestTimestamp: pass.newestTimestamp }
}

/** the metadata log's configs are read in its own partition scan, which goes first (CleanupPass) */
function cleanupModel(paths: string[], opts: CleanupOptions): BrokerModel {
  return new BrokerModel(paths, {
    metadataInScan: true,
    ...(opts.resync === false ? { resync: false } : {}),
    ...(opts.remote !== undefined ? { remote: opts.remote } : {}),
  })
}

/**
 * Each partition written as soon as its scan is done: the command holds what the printer keeps between partitions
 * (nothing), not the partitions' results.
 */
export function runCleanup(opts: CleanupCommandOptions, ctx: CommandContext): number {
  const bad = opts.configs === undefined ? null : checkConfigFlags(opts.configs)
  if (bad !== null) {
    ctx.stderr.write(`tsdump: error: ${bad}\n`)
    return EXIT_USAGE
  }
  const { paths, format: _format, color: _color, wide: _wide, ...lib } = opts
  const model = cleanupModel(paths, lib)
  const pass = new CleanupPass(model, { ...lib, now: opts.now ?? ctx.now() })
  writeUnusable([...pass.unusable, ...pass.unreadable], ctx)
  if (pass.unusable.length > 0) return EXIT_USAGE
  const printOpts = {
    colorLevel: opts.color === false ? 0 : ctx.colorLevel,
    wide: opts.wide === true,
    top: opts.top ?? 0,
  }
  const out = opts.format === 'json' ? new CleanupJsonStream(ctx, printOpts) : new CleanupTextStream(ctx, printOpts)
  // the head once the metadata log's partition scan (the first) has read its configs
  let head: CleanupHead | undefined
  const begin = (): CleanupHead => {
    if (head !== undefined) return head
    head = pass.head
    head.nowGiven = opts.now !== undefined
    out.head(head)
    return head
  }
  let found = EXIT_OK
  pass.run((p) => {
    begin()
    out.partition(p)
    found = Math.max(found, exitCodeFor(p.findings))
  })
  const h = begin()
  out.end()
  // after the partitions: the newest timestamp is known once all are read
  warnIfNowBeforeData(ctx, h.nowMs, h.nowGiven, pass.newestTimestamp)
  return Math.min(Math.max(found, exitCodeFor(h.unreadable ?? [])), EXIT_FINDINGS)
}
