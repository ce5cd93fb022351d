// 3 broker log directories with one partition `bench-replicas-0`, copies that diverge near the end (the shape of an
// unclean election on a busy partition): broker-1 leads (epoch 0, then epoch 1 for the last `tail` batches),
// broker-2 is its byte copy, broker-3 stayed at epoch 0 and wrote other records for those last `tail` batches
// (by Kafka's rule it diverges at the end offset of epoch 0 on the leader). Segments roll at `segmentBytes`.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { FileWriter, batch, record } from '../scripts/fuzz/encode.mjs'
import { Template, cached, segName } from './make-commands.mjs'

const T0 = 1_700_000_000_000

function template(records, valueBytes, fill) {
  return new Template(
    batch(
      { count: records },
      Buffer.concat(
        Array.from({ length: records }, (_, r) =>
          record({ key: Buffer.from(`k${r % 10}`), value: Buffer.alloc(valueBytes, fill), offsetDelta: r }),
        ),
      ),
    ),
  )
}

/** one copy: `same` up to batch `from`, then `other` at `tailEpoch`; a new segment at each `segmentBytes` */
function writeCopy(part, n, from, records, same, other, tailEpoch, segmentBytes) {
  let w = null
  for (let i = 0; i < n; i++) {
    const t = i < from ? same : other
    if (w === null || w.pos + w.n + t.tpl.length > segmentBytes) {
      w?.close()
      w = new FileWriter(path.join(part, segName(i * records)))
    }
    w.write(t.fill({ baseOffset: i * records, partitionLeaderEpoch: i < from ? 0 : tailEpoch, timestamp: T0 + i }))
  }
  w?.close()
}

const checkpoint = (entries) => `0\n${entries.length}\n${entries.map((e) => e.join(' ')).join('\n')}\n`

export function replicasNearEnd(
  dir,
  { batches, records = 1, valueBytes = 8, tail = 2000, segmentBytes = 256 * 2 ** 20 },
  log,
) {
  return cached(
    dir,
    { batches, records, valueBytes, tail, segmentBytes },
    () => {
      const from = batches - tail
      const same = template(records, valueBytes, 'r')
      const other = template(records, valueBytes, 'u')
      const topic = 'bench-replicas'
      for (const b of [1, 2, 3]) {
        const root = path.join(dir, `broker-${b}`)
        const part = path.join(root, `${topic}-0`)
        fs.mkdirSync(part, { recursive: true })
        fs.writeFileSync(
          path.join(root, 'meta.properties'),
          `version=1\nnode.id=${b}\ncluster.id=dHNkdW1wLWJlbmNoLXJlcGxpY2Fz\n`,
        )
        fs.writeFileSync(path.join(root, 'replication-offset-checkpoint'), checkpoint([[topic, 0, batches * records]]))
        if (b === 2) {
          for (const f of fs.readdirSync(path.join(dir, 'broker-1', `${topic}-0`)))
            fs.copyFileSync(path.join(dir, 'broker-1', `${topic}-0`, f), path.join(part, f))
          continue
        }
        writeCopy(part, batches, from, records, same, b === 3 ? other : same, b === 3 ? 0 : 1, segmentBytes)
        fs.writeFileSync(
          path.join(part, 'leader-epoch-checkpoint'),
          checkpoint(
            b === 3
              ? [[0, 0]]
              : [
                  [0, 0],
                  [1, from * records],
                ],
          ),
        )
      }
      return { batches, records, divergesAt: from * records, batchesPastDivergence: tail }
    },
    log,
  )
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir, batches, records, valueBytes, tail] = process.argv.slice(2)
  const meta = replicasNearEnd(
    path.resolve(dir),
    {
      batches: Number(batches),
      records: Number(records ?? 1),
      valueBytes: Number(valueBytes ?? 8),
      tail: Number(tail ?? 2000),
    },
    console.log,
  )
  console.log(JSON.stringify(meta))
}
