// Every text printer honours colour and --wide, as the command line says: with colour on (a colour terminal) its
// text has colour, with --no-color none; without --wide no line is wider than 80 columns unless it is one word that
// cannot be cut (a file's path), with --wide prose is not cut (some line is wider). JSON has no colour either way.
// Relative paths from the repository root, so that no line's width depends on where the checkout is.
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../support/paths.js'
import { runCli } from '../support/run-cli.js'

const NOW = ['--now', '2030-01-01T00:00:00Z']
const UNCLEAN = 'fixtures/broker-4.4/replicas-unclean'
const COMMANDS: Array<[string, string[]]> = [
  ['lso', ['lso', ...NOW, 'fixtures/broker/open-txn/logs']],
  ['cleanup', ['cleanup', ...NOW, 'fixtures/broker/open-txn/logs']],
  ['replicas', ['replicas', `${UNCLEAN}/before/broker-1`, `${UNCLEAN}/before/broker-2`, `${UNCLEAN}/broker-3`]],
  ['remote', ['remote', '--remote-storage', 'fixtures/broker-4.4/tiered/remote', 'fixtures/broker-4.4/tiered/logs']],
  ['transactions', ['transactions', ...NOW, 'fixtures/broker/orders/logs']],
  ['doctor', ['doctor', ...NOW, 'fixtures/broker/open-txn/logs']],
]
// eslint-disable-next-line no-control-regex
const ESC = /\u001b\[/

const run = (argv: string[], colorLevel: 0 | 1 = 1): ReturnType<typeof runCli> =>
  runCli(argv, { colorLevel, cwd: REPO_ROOT })

describe.each(COMMANDS)('%s: colour and --wide', (_name, argv) => {
  it('colour on a colour terminal, none with --no-color, none in --json', async () => {
    const on = await run(argv)
    expect(on.stdout).toMatch(ESC)
    const off = await run([...argv, '--no-color'])
    expect(off.stdout).not.toMatch(ESC)
    // the same text once the colour is taken away (but trailing blanks a coloured table header pads): colour never moves a line break
    const lines = (s: string): string[] => s.split('\n').map((l) => l.trimEnd())
    // eslint-disable-next-line no-control-regex
    expect(lines(on.stdout.replace(/\u001b\[[0-9;]*m/g, ''))).toEqual(lines(off.stdout))
    expect((await run([...argv, '--json'])).stdout).not.toMatch(ESC)
  })

  it('80 columns without --wide (but a word that cannot be cut), wider lines with it', async () => {
    const narrow = (await run(argv, 0)).stdout.split('\n')
    expect(narrow.filter((l) => l.length > 80 && l.trim().includes(' '))).toEqual([])
    const wide = (await run([...argv, '--wide'], 0)).stdout.split('\n')
    expect(wide.some((l) => l.length > 80 && l.trim().includes(' '))).toBe(true)
  })
})
