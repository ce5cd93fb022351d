// Every command's --help fits the terminal (80 columns when it is not one) and lists only options the command
// takes: each --option in its Options section is one of the command's own, not hidden, and parsing it is not
// refused as unknown. The wrapping itself (cli/help-format.ts) keeps example commands runnable.
import { describe, expect, it } from 'vitest'
import { main } from '../../src/cli/main.js'
import { buildProgram } from '../../src/cli/program.js'
import { wrapHelpLine } from '../../src/cli/help-format.js'
import type { CommandContext } from '../../src/commands/context.js'
import { StringWriter } from '../../src/format/writer.js'
import { runCli } from '../support/run-cli.js'

function ctxOf(columns?: number): CommandContext & { stdout: StringWriter; stderr: StringWriter } {
  return {
    stdout: new StringWriter(),
    stderr: new StringWriter(),
    colorLevel: 0,
    stderrIsTTY: false,
    env: {},
    now: () => 0,
    ...(columns !== undefined ? { terminalColumns: () => columns } : {}),
  }
}

const COMMANDS = buildProgram(ctxOf(), () => {}).commands.map((c) => c.name())

describe('--help', () => {
  it('knows the commands', () => {
    for (const c of [
      'dump',
      'reconcile',
      'txns',
      'transactions',
      'lso',
      'report',
      'replicas',
      'cleanup',
      'remote',
      'kafka-dump-log',
    ])
      expect(COMMANDS).toContain(c)
  })

  for (const name of ['', ...COMMANDS]) {
    it(`tsdump ${name} --help: 80 columns when not a terminal, the terminal's width on one; only its own options`, async () => {
      const argv = name === '' ? ['--help'] : [name, '--help']
      const r = await runCli(argv)
      expect(r.code).toBe(0)
      const over = r.stdout.split('\n').filter((l) => l.length > 80)
      expect(over, 'lines over 80 columns').toEqual([])
      for (const width of [100, 132]) {
        const ctx = ctxOf(width)
        expect(await main(argv, ctx)).toBe(0)
        expect(
          ctx.stdout.text.split('\n').filter((l) => l.length > width),
          `lines over ${width}`,
        ).toEqual([])
      }
      if (name === '') return
      const cmd = buildProgram(ctxOf(), () => {}).commands.find((c) => c.name() === name)!
      const own = new Set(cmd.options.filter((o) => !o.hidden).map((o) => o.long))
      const start = r.stdout.indexOf('\nOptions:\n')
      expect(start).toBeGreaterThan(0)
      const section = r.stdout.slice(start).split('\n\n')[0]!
      const listed = [...section.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1]!)
      expect(listed.length).toBeGreaterThan(0)
      for (const o of listed) if (o !== '--help') expect(own, `${name} lists ${o}`).toContain(o)
      for (const o of own) {
        const opt = cmd.options.find((x) => x.long === o)!
        const run = await runCli([name, o!, ...(opt.required || opt.optional ? ['1'] : []), '/nonexistent-tsdump-path'])
        expect(run.stderr, `${name} ${o}`).not.toContain('unknown option')
      }
    })
  }

  it('wraps an example with a shell continuation, never inside quotes, and puts its comment under it', () => {
    const line =
      '  $ tsdump transactions --json /var/lib/kafka/data | jq \'.transactions[] | select(.outcome=="open")\'   # the open ones'
    const out = wrapHelpLine(line, 60).split('\n')
    expect(out[0]).toBe('  $ tsdump transactions --json /var/lib/kafka/data | jq \\')
    expect(out[1]).toBe('      \'.transactions[] | select(.outcome=="open")\'')
    expect(out[2]).toBe('      # the open ones')
  })
})
