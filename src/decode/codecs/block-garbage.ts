// fzstd's streaming decoder allocates a new buffer for every block it decodes (up to 128 KiB each), and a raw
// block is copied out of the read window. Node gives each such buffer its own off-heap memory, which V8 releases
// only when it collects the young generation; with the heap itself quiet, that waits for V8's external-memory
// trigger, about 64 MiB of dead block outputs. A deep dump of one 200 MiB zstd batch (a 91 MiB payload) peaked at
// 125-130 MiB that way. Asking V8 for a young-generation collection (a scavenge, a few ms with a small heap) after
// every 4 MiB of output holds it at 108-110 MiB, CPU within the noise (bench/RESULTS.md).
// `gc` exists only with --expose-gc, which the bin cannot pass on its command line: the flag is set when first needed,
// and the function taken from a new context, where V8 installs it.
import { createRequire } from 'node:module'
import type * as V8 from 'node:v8'
import type * as Vm from 'node:vm'

const COLLECT_EVERY = 4 * 1024 * 1024
let since = 0
let collect: ((options: { type: 'minor' }) => void) | undefined

/** `bytes` of block output the caller has done with: a young-generation collection after every COLLECT_EVERY of them */
export function blockOutputDone(bytes: number): void {
  since += bytes
  if (since < COLLECT_EVERY) return
  since = 0
  if (collect === undefined) {
    // loaded here, not at import: node:v8 and node:vm cost every short run their load (bin/tsdump.js)
    const load = createRequire(import.meta.url)
    ;(load('node:v8') as typeof V8).setFlagsFromString('--expose-gc')
    collect = (load('node:vm') as typeof Vm).runInNewContext('gc') as (options: { type: 'minor' }) => void
  }
  collect({ type: 'minor' })
}
