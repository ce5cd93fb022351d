// Parsers for option values: they throw InvalidArgumentError, which commander turns into a usage error (exit 2).
import { InvalidArgumentError } from 'commander'
import type { DecoderName } from '../format/value-decoders.js'
import { DECODER_NAMES, decoderFromKafkaClass } from '../format/value-decoders.js'

/** `16MiB`, `64k`, `1048576` → bytes */
export function parseSize (s: string): number {
  const m = /^(\d+)\s*(b|k|kb|kib|m|mb|mib|g|gb|gib)?$/i.exec(s.trim())
  if (m === null) throw new InvalidArgumentError(`'${s}' is not a size (examples: 1048576, 64KiB, 16MiB, 1GiB)`)
  const unit = (m[2] ?? 'b').toLowerCase()
  const mult = unit.startsWith('k') ? 1024 : unit.startsWith('m') ? 1024 ** 2 : unit.startsWith('g') ? 1024 ** 3 : 1
  const n = Number(m[1]) * mult
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError(`'${s}' is out of range`)
  return n
}

export function parseDecoder (s: string): DecoderName {
  if ((DECODER_NAMES as readonly string[]).includes(s)) return s as DecoderName
  const k = decoderFromKafkaClass(s)
  if (k !== undefined) return k
  throw new InvalidArgumentError(`'${s}' is not a decoder: use one of ${DECODER_NAMES.join(', ')} (or a Kafka decoder class name)`)
}

/** minutes (fractions allowed), e.g. --max-transaction-timeout */
export function parseMinutes (s: string): number {
  const n = Number(s)
  if (s.trim() === '' || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError(`'${s}' is not a non-negative number of minutes`)
  return n
}
