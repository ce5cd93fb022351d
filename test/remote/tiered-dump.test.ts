// `dump --remote-storage`: each remote segment is dumped as a file, named by its key. Truth: kafka-dump-log 4.4.0's
// output for the same bytes (the fixture's dump/remote-as-local/, run on links with local segment names, since
// kafka-dump-log refuses remote names), every line after the `Dumping <name>` line.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES_44 } from '../support/paths.js'
import { runCli } from '../support/run-cli.js'

const FIXTURE = path.join(FIXTURES_44, 'tiered')
const sections = (text: string): Map<string, string> => {
  const out = new Map<string, string>()
  for (const part of text.split(/^Dumping /m).slice(1)) {
    const nl = part.indexOf('\n')
    out.set(part.slice(0, nl), part.slice(nl + 1))
  }
  return out
}

describe('dump --remote-storage on the tiered fixture', () => {
  for (const partition of ['tiered-0', 'tiered-1']) {
    for (const mode of ['shallow', 'deep', 'data'] as const) {
      it(`${partition}: the remote segments, then the local files; each remote one as kafka-dump-log prints it (${mode})`, async () => {
        const flags = mode === 'deep' ? ['--deep-iteration'] : mode === 'data' ? ['--print-data-log'] : []
        const r = await runCli([
          '--compat',
          ...flags,
          path.join(FIXTURE, 'logs', partition),
          '--remote-storage',
          path.join(FIXTURE, 'remote'),
        ])
        const got = sections(r.stdout)
        const names = [...got.keys()]
        const remote = names.filter((n) => n.includes('kafka-tiered-storage'))
        expect(remote.map((n) => path.basename(n).slice(0, 20))).toEqual([
          '00000000000000000005',
          '00000000000000000009',
        ])
        // the remote segments come first, in offset order
        expect(names.slice(0, 2)).toEqual(remote)
        const asLocal = fs
          .readdirSync(path.join(FIXTURE, 'dump/remote-as-local'))
          .find((d) => d.includes(`_${partition}-`))!
        for (const n of remote) {
          const java = fs.readFileSync(
            path.join(FIXTURE, 'dump/remote-as-local', asLocal, `${path.basename(n).slice(0, 20)}.log.${mode}.txt`),
            'utf8',
          )
          expect(got.get(n), n).toBe(java.slice(java.indexOf('\n') + 1))
        }
      })
    }
  }
})
