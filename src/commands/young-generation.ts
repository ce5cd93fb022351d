// V8's young generation held at a size for the long single-threaded runs of the command line: V8 doubles the new
// space (1 -> 16 MiB a semi-space, two of them committed) whenever the bytes that survived its scavenges since the last
// doubling pass its size, which a run of millions of batches always does sooner or later, however little of each
// survives: the 32 MiB it ends at were a quarter of `txns`' peak RSS at 1,000,000 transactions. The size can be
// bounded only when the heap is set up (--max-semi-space-size, which node takes on its command line, not
// bin/tsdump.js at run time); the growth factor is read at each growth, and a factor of 1 set once the new space is
// as large as wanted keeps it there (V8 raises a factor below 2 given when the heap is set up, Heap::ConfigureHeap).
// A process-wide setting: the command line sets it, never the library.
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

/**
 * `txns` at 1M transactions (bench/RESULTS.md): 126 MiB peak RSS with the new space at its 32 MiB, 104 held at 16,
 * 94 at 8, for 4-5% more CPU (the command-line flag that bounds it at 8 MiB cost 35%)
 */
export const YOUNG_GENERATION_BYTES = 16 * 1024 * 1024

export class YoungGenerationCap {
  private held = false

  constructor(private readonly bytes = YOUNG_GENERATION_BYTES) {}

  /** stops the new space's growth once it has reached the bound (cheap: a heap statistics call, until then) */
  check(): void {
    if (this.held) return
    const v8 = require('node:v8') as typeof import('node:v8')
    const s = v8.getHeapSpaceStatistics().find((x) => x.space_name === 'new_space')
    if (s === undefined || s.space_size < this.bytes) return
    v8.setFlagsFromString('--semi-space-growth-factor=1')
    this.held = true
  }
}
