// Analyzer options that the commands cannot pass through scanPartition (commands/partition-scan.ts)
// yet: its ScanOptions carries only `timeline: true`. A command wraps its scanPartition call in
// withAnalyzerOptions and the analyzer (and its timeline recorder) created inside picks them up.
// Synchronous by construction (scanPartition is), so the scope cannot leak into another scan.
// When ScanOptions can carry these, they move into AnalyzerOptions and this file goes away.
import type { TimelineOptions } from './timeline.js'

export interface ScopedAnalyzerOptions {
  /** where the timeline's runs go (`txns`); without it, an analyzer with `timeline: true` collects them */
  timeline?: TimelineOptions
  /**
   * false: do not keep each producer's last marker coordinator epoch (only `lso` reads it; with 1 M
   * producer ids the table is about 27 MiB per scan, more while it grows)
   */
  markerEpochs?: boolean
}

let current: ScopedAnalyzerOptions = {}

export function withAnalyzerOptions<T> (o: ScopedAnalyzerOptions, fn: () => T): T {
  const prev = current
  current = o
  try { return fn() } finally { current = prev }
}

export function scopedAnalyzerOptions (): ScopedAnalyzerOptions { return current }
