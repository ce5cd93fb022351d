// "did you mean reconcile?": a first argument that is no existing path and looks like a subcommand name is
// a mistyped subcommand, not a file to dump (dumping first and failing later buries the mistake).

/** Optimal string alignment distance (Damerau-Levenshtein with adjacent transpositions), as commander uses. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_v, i) =>
    Array.from({ length: b.length + 1 }, (_w, j) => (i === 0 ? j : j === 0 ? i : 0)),
  )
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1)
    }
  }
  return d[a.length]![b.length]!
}

/**
 * The subcommand `word` most likely meant, or undefined. A word looks like a command when it has no path
 * characters and is a prefix of one (`recon`) or within a small edit distance (`reconcle`, `lsp` is not: too short).
 */
export function suggestSubcommand(word: string, names: readonly string[]): string | undefined {
  if (word.length < 2 || /[/.\\]/.test(word) || names.includes(word)) return undefined
  const w = word.toLowerCase()
  const prefixed = names.filter((n) => n.startsWith(w))
  if (prefixed.length === 1) return prefixed[0]
  let best: { name: string; d: number } | undefined
  for (const n of names) {
    const d = editDistance(w, n)
    // commander's suggestSimilar rule: at most 40% of the name's characters wrong
    if (d <= Math.max(1, Math.floor(n.length * 0.4)) && (best === undefined || d < best.d)) best = { name: n, d }
  }
  return best?.name
}
