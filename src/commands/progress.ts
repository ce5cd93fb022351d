// A progress line on stderr for long scans, only on a terminal and only after the first second.
import type { CliContext } from './context.js'

export class Progress {
  private readonly start = Date.now()
  private last = 0
  private shown = false
  batches = 0

  constructor (private readonly ctx: CliContext, private readonly name: string, private readonly total: number, private readonly enabled: boolean) {}

  update (position: number): void {
    if (!this.enabled || !this.ctx.stderrIsTTY) return
    const now = Date.now()
    if (now - this.start < 1000 || now - this.last < 200) return
    this.last = now
    this.shown = true
    const secs = (now - this.start) / 1000
    const rate = position / secs
    const eta = rate > 0 ? (this.total - position) / rate : 0
    const pct = this.total > 0 ? (100 * position / this.total).toFixed(1) : '100'
    this.ctx.stderr.write(`\r\x1b[K${this.name}: ${mib(position)}/${mib(this.total)} MiB (${pct}%) ` +
      `${mib(rate)} MiB/s ${Math.round(this.batches / secs)} batches/s ETA ${eta.toFixed(0)}s`)
    this.ctx.stderr.flush()
  }

  done (): void {
    if (this.shown) { this.ctx.stderr.write('\r\x1b[K'); this.ctx.stderr.flush() }
  }
}

function mib (n: number): string { return (n / 1048576).toFixed(0) }
