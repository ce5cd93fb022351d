// The one file tsdump writes: a command's output named with -o (e.g. `report -o report.html`).
// It refuses to overwrite any file that is being read, so the inputs stay untouched.
import * as fs from 'node:fs'
import * as path from 'node:path'

function realOrResolved(p: string): string {
  try {
    return fs.realpathSync(p)
  } catch {
    return path.resolve(p)
  }
}

/** true when `output` names the same file as one of `inputs` (after following symbolic links) */
export function isInputFile(output: string, inputs: readonly string[]): boolean {
  const out = realOrResolved(output)
  return inputs.some((i) => realOrResolved(i) === out)
}

/** Write `text` to `file` (created or replaced). @throws the fs error (ENOENT, EACCES ...) */
export function writeOutputFile(file: string, text: string): void {
  fs.writeFileSync(file, text)
}
