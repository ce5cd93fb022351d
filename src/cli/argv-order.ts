// Options may come before the subcommand (`tsdump --json reconcile DIR`). The dump is the default command,
// so without this commander would read `reconcile` as a file to dump. Options that precede the first
// positional argument are moved after it when that argument names a subcommand; which options take a
// value is read from the commands' own declarations, so `--width 100 txns DIR` keeps 100 with --width.
import type { Command } from 'commander'

export function hoistSubcommand(argv: readonly string[], program: Command): string[] {
  const names = new Set(program.commands.map((c) => c.name()))
  const takesValue = new Map<string, 'required' | 'optional'>()
  for (const c of program.commands) {
    for (const o of c.options) {
      const kind = o.required ? 'required' : o.optional ? 'optional' : undefined
      if (kind === undefined) continue
      if (o.long !== undefined) takesValue.set(o.long, kind)
      if (o.short !== undefined) takesValue.set(o.short, kind)
    }
  }
  let i = 0
  while (i < argv.length) {
    const a = argv[i]!
    if (a === '--' || !a.startsWith('-') || a === '-') break
    const kind = a.includes('=') ? undefined : takesValue.get(a)
    if (kind === 'required') i += 2
    else if (kind === 'optional' && i + 1 < argv.length && !argv[i + 1]!.startsWith('-') && !names.has(argv[i + 1]!))
      i += 2
    else i += 1
  }
  if (i === 0 || i >= argv.length || !names.has(argv[i]!)) return [...argv]
  return [argv[i]!, ...argv.slice(0, i), ...argv.slice(i + 1)]
}
