// What the library throws when it cannot answer at all: a path that cannot be read, options the command
// line would refuse (exit 2), a name (a transactional id) the data does not hold. Problems inside data
// that was read are never thrown: they are findings. `code` is stable; the message is for people.
export type TsdumpErrorCode = 'UNREADABLE' | 'USAGE' | 'NOT_FOUND'

export class TsdumpError extends Error {
  override readonly name = 'TsdumpError'
  constructor(
    readonly code: TsdumpErrorCode,
    message: string,
    readonly file?: string,
  ) {
    super(message)
  }
}
