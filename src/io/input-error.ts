// Why an input file could not be read as it stood: not a regular file, too large to read whole, or
// changed under us. Thrown by io/ only; commands turn it into a finding that names the file.
export type InputErrorCode =
  | 'NOT_REGULAR_FILE'
  | 'FILE_TOO_LARGE'
  | 'FILE_CHANGED'
  | 'UNREADABLE'
  | 'REMOTE_UNREADABLE'
  | 'REMOTE_LAYOUT_UNKNOWN'
  | 'REMOTE_KEY_UNUSABLE'
  | 'REMOTE_CHUNK_UNREADABLE'

export class InputError extends Error {
  override readonly name = 'InputError'
  constructor(
    readonly code: InputErrorCode,
    readonly file: string,
    message: string,
    readonly position: number = 0,
  ) {
    super(message)
  }
}

/** What a stat says a path is, in words, for "not a regular file" messages. */
export function describeFileType(st: {
  isDirectory: () => boolean
  isFIFO: () => boolean
  isSocket: () => boolean
  isCharacterDevice: () => boolean
  isBlockDevice: () => boolean
}): string {
  if (st.isDirectory()) return 'a directory'
  if (st.isFIFO()) return 'a FIFO (named pipe)'
  if (st.isSocket()) return 'a socket'
  if (st.isCharacterDevice()) return 'a character device'
  if (st.isBlockDevice()) return 'a block device'
  return 'not a regular file'
}
