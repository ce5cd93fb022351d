// The only import of crc-32/crc32c. Kafka's v2 batches and producer snapshots use CRC-32C (Castagnoli).
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
// crc-32 is CommonJS; loading it through require keeps the ESM build free of interop guesses.
const impl = require('crc-32/crc32c') as { buf(data: Uint8Array, seed?: number): number }

/** CRC-32C of `data`, as an unsigned 32-bit number (crc-32 returns a signed int). */
export function crc32c (data: Uint8Array): number {
  return impl.buf(data, 0) >>> 0
}
