// JSON.stringify for outputs that can outgrow one string (V8 caps strings near 512 MiB; `txns --json`
// on a 1 GiB segment of small transactions goes past it). Same text as JSON.stringify(value), written
// in pieces: containers element by element, flat objects and arrays of scalars in one call.
import type { Writer } from './writer.js'

function flat(value: object): boolean {
  for (const v of Object.values(value)) if (v !== null && typeof v === 'object') return false
  return true
}

export function writeJson(w: Writer, value: unknown): void {
  if (Array.isArray(value)) {
    if (value.length <= 64 && flat(value)) {
      w.write(JSON.stringify(value))
      return
    }
    w.write('[')
    for (let i = 0; i < value.length; i++) {
      if (i > 0) w.write(',')
      const v: unknown = value[i]
      // JSON.stringify writes null for array holes, undefined and functions
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') w.write('null')
      else writeJson(w, v)
    }
    w.write(']')
    return
  }
  if (
    value !== null &&
    typeof value === 'object' &&
    (value as { toJSON?: unknown }).toJSON === undefined &&
    !flat(value)
  ) {
    w.write('{')
    let first = true
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue
      w.write(first ? `${JSON.stringify(k)}:` : `,${JSON.stringify(k)}:`)
      first = false
      writeJson(w, v)
    }
    w.write('}')
    return
  }
  w.write(JSON.stringify(value))
}
