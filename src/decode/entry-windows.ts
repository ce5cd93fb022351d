// Files of fixed-size entries (.index, .timeindex, .txnindex, the entries of a producer snapshot) read in
// windows of whole entries, never whole: any size works and memory is one window.
import type { SegmentSource } from './segment-source.js'

/** Entries per window: 1.5 MiB of 24-byte pairs of .timeindex entries, 768 KiB of .index, 2.9 MiB of producer snapshot entries */
export const WINDOW_ENTRIES = 1 << 16

export interface EntryRange {
  /** byte position of the first entry (after a header) */
  start?: number
  /** how many entries; else as many whole entries as the source holds after `start` */
  count?: number
  /** entries per window (tests make it small, to cross windows) */
  windowEntries?: number
  /**
   * read every window into one buffer (the decoder keeps nothing of it): a fresh window each time is
   * external memory V8 frees only at its next full collection, and 70 MB of them made a 1.5 M-producer
   * snapshot's dump peak at 131 MiB
   */
  reuse?: boolean
}

/**
 * The entries of `src` in windows of whole entries: `decode(window, firstIndex)` decodes one window; a
 * decoder that stops early (the zero tail of a preallocated index) ends the whole file. Bytes after the
 * last whole entry are not read.
 */
export function* entryWindows<T>(
  src: SegmentSource,
  entrySize: number,
  decode: (window: Buffer, firstIndex: number) => Iterable<T>,
  range: EntryRange = {},
): Generator<T> {
  for (const { window, first } of entryWindowBuffers(src, entrySize, range)) {
    let got = 0
    for (const e of decode(window, first)) {
      got++
      yield e
    }
    if (got < window.length / entrySize) return
  }
}

/** The windows themselves (a fresh buffer each, which the caller may keep), with the index of each one's first entry. */
export function* entryWindowBuffers(
  src: SegmentSource,
  entrySize: number,
  range: EntryRange = {},
): Generator<{ window: Buffer; first: number }> {
  const start = range.start ?? 0
  const entries = range.count ?? Math.floor(Math.max(0, src.size - start) / entrySize)
  const per = Math.max(1, range.windowEntries ?? WINDOW_ENTRIES)
  const shared =
    range.reuse === true && entries > 0 ? Buffer.allocUnsafeSlow(Math.min(per, entries) * entrySize) : undefined
  for (let first = 0; first < entries; first += per) {
    const n = Math.min(per, entries - first)
    const at = start + first * entrySize
    yield {
      window:
        shared === undefined
          ? src.readAt(at, n * entrySize)
          : shared.subarray(0, src.readInto(shared, at, n * entrySize)),
      first,
    }
  }
}

/**
 * The windows of `src` entryWindows reads, up to the one in which `decode` stops early (the zero-filled space of a
 * preallocated index) or until `maxBytes` are held, as one buffer: `complete` when it holds every entry the file has.
 * Whoever reads the file after reads these bytes from here (io/prefix-source.ts), none twice.
 */
export function entryPrefix(
  src: SegmentSource,
  entrySize: number,
  decode: (window: Buffer, firstIndex: number) => Iterable<unknown>,
  maxBytes: number,
): { bytes: Buffer; complete: boolean } {
  const windows: Buffer[] = []
  let held = 0
  let complete = true
  for (const { window, first } of entryWindowBuffers(src, entrySize)) {
    if (held >= maxBytes) {
      complete = false
      break
    }
    windows.push(window)
    held += window.length
    let got = 0
    for (const _ of decode(window, first)) got++
    if (got < window.length / entrySize) break
  }
  // copy: the windows made one, for the index checks' lookups
  return { bytes: windows.length === 1 ? windows[0]! : Buffer.concat(windows), complete }
}
