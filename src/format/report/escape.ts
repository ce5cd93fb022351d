// Escaping for the report's HTML: every string that comes from the data (topic names, paths, finding
// messages, ids) goes through esc() before it lands in text or in a double-quoted attribute. Topic
// names are legal with few characters, but directory names, file paths and messages are not checked
// by anyone, so the page treats them all as hostile.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** text or double/single-quoted attribute value */
export function esc(v: string | number | boolean | null | undefined): string {
  if (v === null || v === undefined) return ''
  return String(v).replace(/[&<>"']/g, (c) => ENTITIES[c]!)
}

/** ` name="value"` pairs, escaped; null/undefined values are left out */
export function attrs(a: Record<string, string | number | boolean | null | undefined>): string {
  let out = ''
  for (const k of Object.keys(a)) {
    const v = a[k]
    if (v === null || v === undefined) continue
    out += ` ${k}="${esc(v)}"`
  }
  return out
}
