// `tsdump export -o DIR`: the dataset's files. tsdump never writes to what it reads, so an output directory
// inside an input (a partition or log directory, or the directory of an input file) is refused before
// anything is read, whatever symbolic links lead there.
import * as fs from 'node:fs'
import * as path from 'node:path'

/** the real path of `p`, or of its nearest existing ancestor with the rest appended (the output may not exist yet) */
function realish(p: string): string {
  const abs = path.resolve(p)
  try {
    return fs.realpathSync(abs)
  } catch {
    const parent = path.dirname(abs)
    return parent === abs ? abs : path.join(realish(parent), path.basename(abs))
  }
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory()
  } catch {
    return false
  }
}

/** whether nothing is at `p` (not even a link): a missing input, which the command names as such */
function missing(p: string): boolean {
  try {
    fs.lstatSync(p)
    return false
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    return code === 'ENOENT' || code === 'ENOTDIR'
  }
}

/**
 * the input `out` would be written into (equal to it or below it), or null when it is outside every input; an input
 * that does not exist holds nothing to write into (its nearest existing ancestor is not the input)
 */
export function outputInsideInput(out: string, inputs: readonly string[]): string | null {
  const o = realish(out)
  for (const i of inputs) {
    if (i === '-' || missing(i)) continue
    const r = realish(i)
    const dir = isDir(r) ? r : path.dirname(r)
    if (o === dir || o.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep)) return i
  }
  return null
}

/** One output file, created (or replaced) on open. */
export interface OutputFile {
  /** writes all of `bytes` @throws the fs error (ENOSPC ...) */
  write: (bytes: Uint8Array) => void
  close: () => void
}

/** Opens `relative` under `root`, making the directories on the way. @throws the fs error (EACCES, ENOTDIR ...) */
export function openOutputFile(root: string, relative: string): OutputFile {
  const file = path.join(root, relative)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const fd = fs.openSync(file, 'w')
  return {
    write(bytes) {
      for (let at = 0; at < bytes.length; ) at += fs.writeSync(fd, bytes, at, bytes.length - at)
    },
    close() {
      fs.closeSync(fd)
    },
  }
}
