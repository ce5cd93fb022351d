// XXH32 (xxHash, 32-bit), needed by the LZ4 frame format: the frame descriptor checksum byte and the
// optional block checksums. Reference: github.com/Cyan4973/xxHash doc/xxhash_spec.md.

const PRIME1 = 0x9e3779b1
const PRIME2 = 0x85ebca77
const PRIME3 = 0xc2b2ae3d
const PRIME4 = 0x27d4eb2f
const PRIME5 = 0x165667b1

function rotl(x: number, r: number): number {
  return (x << r) | (x >>> (32 - r))
}

function round(acc: number, lane: number): number {
  return Math.imul(rotl((acc + Math.imul(lane, PRIME2)) | 0, 13), PRIME1)
}

function readU32LE(b: Uint8Array, i: number): number {
  return b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)
}

/** XXH32 of `data[start, end)` with `seed`, as an unsigned 32-bit number. */
export function xxhash32(data: Uint8Array, seed = 0, start = 0, end = data.length): number {
  let i = start
  let h: number
  if (end - start >= 16) {
    let v1 = (seed + PRIME1 + PRIME2) | 0
    let v2 = (seed + PRIME2) | 0
    let v3 = seed | 0
    let v4 = (seed - PRIME1) | 0
    const limit = end - 16
    while (i <= limit) {
      v1 = round(v1, readU32LE(data, i))
      v2 = round(v2, readU32LE(data, i + 4))
      v3 = round(v3, readU32LE(data, i + 8))
      v4 = round(v4, readU32LE(data, i + 12))
      i += 16
    }
    h = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) | 0
  } else {
    h = (seed + PRIME5) | 0
  }
  h = (h + (end - start)) | 0
  while (i + 4 <= end) {
    h = Math.imul(rotl((h + Math.imul(readU32LE(data, i), PRIME3)) | 0, 17), PRIME4)
    i += 4
  }
  while (i < end) {
    h = Math.imul(rotl((h + Math.imul(data[i]!, PRIME5)) | 0, 11), PRIME1)
    i++
  }
  h = Math.imul(h ^ (h >>> 15), PRIME2)
  h = Math.imul(h ^ (h >>> 13), PRIME3)
  return (h ^ (h >>> 16)) >>> 0
}
