// Damaging copies of fixtures at the positions Kafka's kafka-dump-log printed for their batches (the stored
// `<segment>.log.shallow.txt` beside each fixture), so that what tsdump is tested on is placed by a reader other
// than tsdump.
import * as fs from 'node:fs'

/** one batch line of kafka-dump-log's text */
export interface KafkaBatch {
  position: number
  size: number
  baseOffset: number
  lastOffset: number
  control: boolean
}

/** the batches of kafka-dump-log's text `file`, in its order */
export function kafkaBatches(file: string): KafkaBatch[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('baseOffset:'))
    .map((l) => ({
      position: Number(/ position: (\d+)/.exec(l)![1]),
      size: Number(/ size: (\d+)/.exec(l)![1]),
      baseOffset: Number(/^baseOffset: (\d+)/.exec(l)![1]),
      lastOffset: Number(/ lastOffset: (\d+)/.exec(l)![1]),
      control: l.includes('isControl: true'),
    }))
}

/** `bytes` written over `file` at `position` */
export function overwrite(file: string, position: number, bytes: Buffer): void {
  const fd = fs.openSync(file, 'r+')
  try {
    fs.writeSync(fd, bytes, 0, bytes.length, position)
  } finally {
    fs.closeSync(fd)
  }
}

/** the byte of `file` at `position` changed (xor 0x5a: never the same byte) */
export function flipByte(file: string, position: number): void {
  const b = Buffer.alloc(1)
  const fd = fs.openSync(file, 'r+')
  try {
    fs.readSync(fd, b, 0, 1, position)
    b[0]! ^= 0x5a
    fs.writeSync(fd, b, 0, 1, position)
  } finally {
    fs.closeSync(fd)
  }
}
