// The one shape of a result printer: `print<Name><Text|Json>(result, out, opts)`, with the result the library
// returns, where to write (stdout for the result, stderr for what is said about it) and how: colour and
// `--wide` (no line cut at 80 columns), which every text printer honours and a JSON printer ignores.
import { Chalk } from 'chalk'
import type { ChalkInstance } from 'chalk'
import type { Severity } from '../analysis/findings.js'
import type { ColorLevel, PrinterOutput } from './printer.js'
import { TABLE_WIDTH } from './table.js'

export interface PrintOptions {
  colorLevel: ColorLevel
  /** every column and no line cut at 80 columns */
  wide: boolean
}

/** a printer of one command's result; `O` are the command's own printing options (cleanup's `top`) */
export type ResultPrinter<R, O extends object = object> = (
  result: R,
  out: PrinterOutput,
  opts: PrintOptions & O,
) => void

/** what a text printer draws with: the colours and the width prose is cut at */
export interface TextStyle {
  chalk: ChalkInstance
  width: number
}

export function textStyle(o: PrintOptions): TextStyle {
  return { chalk: new Chalk({ level: o.colorLevel }), width: o.wide ? Number.POSITIVE_INFINITY : TABLE_WIDTH }
}

/** a finding's severity in colour, as doctor's text shows it */
export function paintSeverity(chalk: ChalkInstance, severity: Severity, text: string): string {
  return severity === 'error' ? chalk.red(text) : severity === 'warning' ? chalk.yellow(text) : chalk.dim(text)
}
