// V8's young generation (two semi-spaces) doubles whenever the bytes that survived its scavenges since it last grew
// exceed its size. That is a sum over the whole run, so a long run of short-lived objects always reaches V8's
// largest, 16 MiB a semi-space in Node 20 (32 MiB of RSS), however few objects survive at a time: a loop keeping
// at most 2,000 small objects alive reaches it (bench/RESULTS.md, doctor's young generation). The largest size is
// fixed when the heap is made (--max-semi-space-size given at run time is ignored), but the factor it grows by is
// read at each growth, and 1 keeps it where it is (V8 refuses 1 only at start-up, where it would hold it at 1 MiB:
// doctor at 100,000 transactions then took 40% more CPU).
import { createRequire } from 'node:module'
import type * as V8 from 'node:v8'

// loaded at the first look, not at import: node:v8 costs every short run its load (bin/tsdump.js)
const v8 = (): typeof V8 => createRequire(import.meta.url)('node:v8') as typeof V8

/** both semi-spaces at this size (8 MiB each) are enough for the scan's and the join's garbage */
export const HOLD_AT_BYTES = 16 * 1024 * 1024
/** tick()s between two looks at the young generation's size */
const LOOK_EVERY = 4096
/** V8's own factor (Node sets none) */
const V8_GROWTH_FACTOR = 2

/** holds in force in this process (the flag is the process's): V8's growth comes back when the last one ends */
let holding = 0

function hold(): void {
  if (holding++ === 0) v8().setFlagsFromString('--semi-space-growth-factor=1')
}

function letGo(): void {
  if (--holding === 0) v8().setFlagsFromString(`--semi-space-growth-factor=${V8_GROWTH_FACTOR}`)
}

/**
 * The young generation held where it is while `f` runs: the discovery of thousands of partitions keeps what it
 * makes (a directory each, its files), and that alone doubled it twice before the first partition was scanned
 * (bench/make-remote.mjs' 5,000 partitions: 8 to 32 MiB, in doctor and cleanup)
 */
export function holdDuring<T>(f: () => T): T {
  hold()
  try {
    return f()
  } finally {
    letGo()
  }
}

let forGood = false
/**
 * The young generation held where it is from now to the process's end (the S3 I/O bridge, io/remote/sync-bridge.ts):
 * a YoungGenerationHold released later does not give V8 its growth back
 */
export function holdYoungGenerationForGood(): void {
  if (forGood) return
  forGood = true
  hold()
}

/**
 * Holds the young generation once it has grown to HOLD_AT_BYTES: tick() often (a batch), check() at a step's end,
 * release() when done (the process, a library's host, gets V8's growth back once no other hold is in force).
 */
export class YoungGenerationHold {
  private ticks = 0
  private held = false
  private released = false

  /** @param atBytes the size tick() and check() hold it at once grown to it */
  constructor(private readonly atBytes = HOLD_AT_BYTES) {}

  tick(): void {
    if (++this.ticks >= LOOK_EVERY) {
      this.ticks = 0
      this.check(this.atBytes)
    }
  }

  /**
   * Its size looked at: held from here on when it has grown to `atLeast` (less than HOLD_AT_BYTES where what is left
   * of a run is a short step: a small input's young generation is never held)
   */
  check(atLeast = this.atBytes): void {
    if (this.held || this.released) return
    const young = v8()
      .getHeapSpaceStatistics()
      .find((s) => s.space_name === 'new_space')
    if (young === undefined || young.space_size < atLeast) return
    hold()
    this.held = true
  }

  /** for good: later ticks and checks do nothing */
  release(): void {
    this.released = true
    if (!this.held) return
    letGo()
    this.held = false
  }
}
