// A progress line on stderr for long scans, only on a terminal and only after the first second.
import type { CommandContext } from '../context.js'

export class Progress {
  private readonly start = Date.now()
  private last = 0
  private shown = false
  private reads = 0
  batches = 0

  constructor(
    private readonly ctx: CommandContext,
    private readonly name: string,
    private readonly total: number,
    private readonly enabled: boolean,
  ) {}

  update(position: number): void {
    if (!this.enabled || !this.ctx.stderrIsTTY) return
    // a file that needs more than one read (this is the second) may well take a second: the terminal's line gets ready
    if (++this.reads === 2) this.ctx.status?.prepare?.()
    const now = Date.now()
    // TSDUMP_PROGRESS_DELAY_MS (tests): show the line after that many ms instead of 1 s
    const delay = Number(this.ctx.env.TSDUMP_PROGRESS_DELAY_MS ?? 1000)
    if (now - this.start < delay || now - this.last < Math.min(200, delay)) return
    this.last = now
    this.shown = true
    const secs = (now - this.start) / 1000
    const rate = position / secs
    const eta = rate > 0 ? (this.total - position) / rate : 0
    const pct = this.total > 0 ? ((100 * position) / this.total).toFixed(1) : '100'
    // a stream (stdin) has no size until its end: no share, no ETA
    const text =
      this.total >= Number.MAX_SAFE_INTEGER
        ? `${this.name}: ${mib(position)} MiB read, ${mib(rate)} MiB/s ${Math.round(this.batches / secs)} batches/s`
        : `${this.name}: ${mib(position)}/${mib(this.total)} MiB (${pct}%) ` +
          `${mib(rate)} MiB/s ${Math.round(this.batches / secs)} batches/s ETA ${eta.toFixed(0)}s`
    // output so far goes out first, so the line sits below it (cli/status-line.ts erases it before more)
    this.ctx.stdout.flush()
    if (this.ctx.status !== undefined) {
      this.ctx.status.show(text)
      return
    }
    this.ctx.stderr.write(`\r\x1b[K${text}`)
    this.ctx.stderr.flush()
  }

  done(): void {
    if (!this.shown) return
    if (this.ctx.status !== undefined) {
      this.ctx.status.clear()
      return
    }
    this.ctx.stderr.write('\r\x1b[K')
    this.ctx.stderr.flush()
  }
}

function mib(n: number): string {
  return (n / 1048576).toFixed(0)
}
