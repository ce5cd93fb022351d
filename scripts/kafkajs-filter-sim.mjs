#!/usr/bin/env node
// Replay the read_committed filtering of kafkajs 2.2.4 and of Kafka's Java consumer over a partition, using
// only kafka-dump-log output (fixtures/broker/<scenario>/dump/<partdir>/: *.log.deep.txt, *.txnindex.shallow.txt).
//
//   node scripts/kafkajs-filter-sim.mjs fixtures/broker/interleaved/dump/mixed-0 [--fetches]
//
// Model (Kafka 3.9 broker, everything written before the consumers run, LSO = HW):
//  * a fetch at offset F returns the batches of the one segment containing F from the batch holding F on
//    (segments here are far below the consumers' per-partition fetch size);
//  * its abortedTransactions list is UnifiedLog.addAbortedTransactions / LocalLog.collectAbortedTransactions:
//    upperBound = next segment's base offset (or the log end), then the .txnindex entries of this and the
//    following segments with lastOffset >= F && firstOffset < upperBound, in file order (= marker order),
//    stopping after the first entry with lastStableOffset >= upperBound;
//  * kafkajs: consumer/filterAbortedMessages.js verbatim (per message: shift at most one entry off the
//    front of the list when offset >= its firstOffset; an ABORT marker removes its producer);
//  * Java: CompletedFetch.nextFetchedRecord (per batch: move every entry with firstOffset <= batch.lastOffset
//    from a PriorityQueue ordered by firstOffset into the aborted producer set; ABORT marker removes).
// Prints both counts and the offsets only one of them delivers.
import fs from 'node:fs'
import path from 'node:path'

const args = process.argv.slice(2)
const dumpDir = args.find((a) => !a.startsWith('--'))
if (!dumpDir) {
  console.error('usage: kafkajs-filter-sim.mjs <fixtures/broker/<scenario>/dump/<partdir>> [--fetches]')
  process.exit(2)
}
const showFetches = args.includes('--fetches')

const segs = []
for (const f of fs
  .readdirSync(dumpDir)
  .filter((f) => f.endsWith('.log.deep.txt'))
  .sort()) {
  const base = Number(f.slice(0, 20))
  const batches = []
  let cur
  for (const line of fs.readFileSync(path.join(dumpDir, f), 'utf8').split('\n')) {
    let m
    if (
      (m =
        /^baseOffset: (\d+) lastOffset: (\d+) count: (\d+) .*producerId: (-?\d+) .*isTransactional: (\w+) isControl: (\w+)/.exec(
          line,
        ))
    ) {
      cur = { base: +m[1], last: +m[2], pid: m[4], txn: m[5] === 'true', control: m[6] === 'true', records: [] }
      batches.push(cur)
    } else if ((m = /^\| offset: (\d+) /.exec(line))) {
      cur.records.push({ offset: +m[1], marker: /endTxnMarker: (\w+)/.exec(line)?.[1] })
    }
  }
  const aborted = []
  const txnf = path.join(dumpDir, f.replace('.log.deep.txt', '.txnindex.shallow.txt'))
  if (fs.existsSync(txnf)) {
    for (const line of fs.readFileSync(txnf, 'utf8').split('\n')) {
      const m = /producerId: (\d+) firstOffset: (\d+) lastOffset: (\d+) lastStableOffset: (\d+)/.exec(line)
      if (m) aborted.push({ pid: m[1], first: +m[2], last: +m[3], lso: +m[4] })
    }
  }
  segs.push({ base, batches, aborted })
}
if (segs.length === 0) throw new Error(`no *.log.deep.txt in ${dumpDir}`)
const logEnd = Math.max(...segs.map((s) => s.base), ...segs.flatMap((s) => s.batches.map((b) => b.last + 1)))

function brokerFetch(offset) {
  const i = segs.findLastIndex((s) => s.base <= offset)
  const batches = segs[i].batches.filter((b) => b.last >= offset)
  const upper = i + 1 < segs.length ? segs[i + 1].base : logEnd
  const list = []
  outer: for (let j = i; j < segs.length; j++) {
    for (const a of segs[j].aborted) {
      if (a.last >= offset && a.first < upper) list.push(a)
      if (a.lso >= upper) break outer
    }
  }
  const next = batches.length ? batches.at(-1).last + 1 : upper
  return { batches, aborted: list, next }
}

function kafkajsFilter(fetchOffset, batches, abortedTransactions) {
  const current = new Set()
  const remaining = [...abortedTransactions]
  const out = []
  for (const b of batches) {
    for (const r of b.records) {
      if (r.offset < fetchOffset) continue // Batch.messagesWithinOffset
      if (remaining.length && r.offset >= remaining[0].first) current.add(remaining.shift().pid)
      if (r.marker === 'ABORT') current.delete(b.pid)
      else if (current.has(b.pid) && b.txn) continue
      if (!b.control) out.push(r.offset)
    }
  }
  return out
}

function javaFilter(fetchOffset, batches, abortedTransactions) {
  const queue = [...abortedTransactions].sort((a, b) => a.first - b.first)
  const abortedProducers = new Set()
  const out = []
  for (const b of batches) {
    if (b.pid !== '-1') while (queue.length && queue[0].first <= b.last) abortedProducers.add(queue.shift().pid)
    if (b.control) {
      if (b.records[0]?.marker === 'ABORT') abortedProducers.delete(b.pid)
      continue
    }
    if (b.txn && abortedProducers.has(b.pid)) continue
    for (const r of b.records) if (r.offset >= fetchOffset) out.push(r.offset)
  }
  return out
}

const kjs = []
const java = []
let uncommitted = 0
for (let off = segs[0].base; off < logEnd; ) {
  const f = brokerFetch(off)
  if (showFetches)
    console.log(
      `fetch ${off}: abortedTransactions [${f.aborted.map((a) => `{producerId ${a.pid}, firstOffset ${a.first}}`).join(', ')}]`,
    )
  kjs.push(...kafkajsFilter(off, f.batches, f.aborted))
  java.push(...javaFilter(off, f.batches, f.aborted))
  uncommitted += f.batches
    .filter((b) => !b.control)
    .reduce((n, b) => n + b.records.filter((r) => r.offset >= off).length, 0)
  off = f.next
}
const minus = (a, b) => {
  const s = new Set(b)
  return a.filter((x) => !s.has(x))
}
console.log(
  JSON.stringify({
    partition: path.basename(path.resolve(dumpDir)),
    readUncommitted: uncommitted,
    readCommitted: { java: java.length, kafkajs: kjs.length },
    onlyKafkajs: minus(kjs, java),
    onlyJava: minus(java, kjs),
  }),
)
