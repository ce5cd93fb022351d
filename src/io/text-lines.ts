// The small text files (checkpoints, partition.metadata, meta.properties) read line by line through one
// 64 KiB chunk, as Java's BufferedReader.readLine serves Kafka's CheckpointFile: memory is the chunk and one
// line, whatever the file holds (a 4 M-line leader-epoch-checkpoint split into strings at once cost `dump`
// 1.36 GiB). A line longer than the caller's bound is never built as a string.
import { FileSource, MAX_SMALL_FILE_BYTES } from './file-source.js'
import { InputError } from './input-error.js'

/** what lines are read from: a FileSource, or bytes already in memory */
export interface LineSource {
  readonly size: number
  readAt: (position: number, length: number) => Buffer
}

export interface TextLine {
  /** the line without its `\n` (and a `\r` before it); null when longer than the bound */
  text: string | null
  /** the byte position the line starts at */
  position: number
}

const CHUNK = 64 * 1024

export function bufferLines(buf: Buffer): LineSource {
  return { size: buf.length, readAt: (p, l) => buf.subarray(p, Math.min(buf.length, p + l)) }
}

function lineText(bytes: Buffer): string {
  const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length
  return bytes.toString('utf8', 0, end)
}

/**
 * Every line of `src` in order: each `\n`-terminated one, and a last one without `\n` when it is not empty
 * (a file ending in `\n` has no empty last line). A line of more than `maxLine` bytes comes with text null.
 */
export function* textLines(src: LineSource, maxLine: number): Generator<TextLine> {
  let carry: Buffer | null = null // the start of a line that runs past the chunk; null when too long
  let carryLen = 0
  let lineStart = 0
  for (let pos = 0; pos < src.size; ) {
    const chunk = src.readAt(pos, Math.min(CHUNK, src.size - pos))
    if (chunk.length === 0) break
    let from = 0
    for (;;) {
      const nl = chunk.indexOf(0x0a, from)
      const end = nl < 0 ? chunk.length : nl
      const len = carryLen + end - from
      if (nl < 0) {
        // the line continues in the next chunk: keep its bytes while they fit the bound
        if (len > maxLine) carry = null
        else if (carryLen === 0 || carry !== null)
          carry =
            carry === null ? Buffer.from(chunk.subarray(from, end)) : Buffer.concat([carry, chunk.subarray(from, end)])
        carryLen = len
        break
      }
      let text: string | null = null
      if (len <= maxLine && (carryLen === 0 || carry !== null))
        text = lineText(carryLen === 0 ? chunk.subarray(from, end) : Buffer.concat([carry!, chunk.subarray(from, end)]))
      yield { text, position: lineStart }
      carry = null
      carryLen = 0
      from = end + 1
      lineStart = pos + from
    }
    pos += chunk.length
  }
  if (carryLen > 0) yield { text: carryLen <= maxLine && carry !== null ? lineText(carry) : null, position: lineStart }
}

/**
 * The file at `file` opened for textLines, refused as readSmallFile refuses (not a regular file, larger than
 * MAX_SMALL_FILE_BYTES) with an InputError. The caller closes it.
 */
export function openSmallFile(file: string): FileSource {
  const src = new FileSource(file)
  if (src.size > MAX_SMALL_FILE_BYTES) {
    src.close()
    throw new InputError(
      'FILE_TOO_LARGE',
      file,
      `${src.size} bytes, more than the ${MAX_SMALL_FILE_BYTES} bytes tsdump reads of a file of this kind: not read`,
    )
  }
  return src
}
