// A whole `lso` result replayed through a printer's stream, its partitions' text held in memory (the result holds
// them already), so that the library's result and the streaming command print through one path.
import type { LsoResult, LsoStream } from '../analysis/partition-results.js'
import type { HeldWriter } from './printer.js'
import type { Writer } from './writer.js'
import { StringWriter } from './writer.js'

/** a HeldWriter in memory */
class HeldString extends StringWriter implements HeldWriter {
  writeTo(to: Writer): void {
    if (this.text !== '') to.write(this.text)
    this.text = ''
  }
}

export function heldInMemory(): HeldWriter {
  return new HeldString()
}

export function replayLso(s: LsoStream, r: LsoResult): void {
  for (const p of r.partitions) s.partition(p)
  s.end(r)
}
