// What a command needs from the outside world: writers, colour level, environment.
// Commands never touch process.stdout or process.exit; cli/main.ts builds this and owns those.
import type { Writer } from '../format/writer.js'

export interface CommandContext {
  stdout: Writer
  stderr: Writer
  /** chalk colour level for stdout (0 = none) */
  colorLevel: 0 | 1 | 2 | 3
  /** stderr is a terminal: progress lines allowed */
  stderrIsTTY: boolean
  env: Record<string, string | undefined>
  /** current time, injectable for tests of age computations */
  now: () => number
  /** stdin is a terminal: `-` is refused (nothing to read but typing) */
  stdinIsTTY?: boolean
  /** the terminal's transient line (progress); absent when stderr is not a terminal */
  status?: StatusSink
  /** the width of the terminal fd 1 or 2 writes to; undefined when it is not a terminal (help then takes 80) */
  terminalColumns?: (fd: 1 | 2) => number | undefined
}

/** The terminal's one transient line (cli/status-line.ts implements it). */
export interface StatusSink {
  show(text: string): void
  clear(): void
  /** a line will probably be shown soon: get ready (start the Ctrl-C watchdog, which takes a moment) */
  prepare?(): void
  close?(): void
}
