import { describe, expect, it } from 'vitest'
import type { Bucket } from '../../src/format/report/model.js'
import { renderReport, reportChunks } from '../../src/format/report/render.js'
import { model, partition, txn } from './models.js'

/** every `<tag ...>` start tag with its attribute text */
function tags(html: string, name: string): string[] {
  return [...html.matchAll(new RegExp(`<${name}\\b[^>]*>`, 'g'))].map((m) => m[0])
}

function attr(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1]
}

describe('renderReport', () => {
  it('puts the machine hooks on the lane and on every drawn transaction', () => {
    const html = renderReport(model())
    const lanes = tags(html, 'svg').filter((t) => attr(t, 'class') === 'lane')
    expect(lanes).toHaveLength(1)
    expect(attr(lanes[0]!, 'data-partition')).toBe('t-0')
    expect(attr(lanes[0]!, 'data-hw')).toBe('12')
    expect(attr(lanes[0]!, 'data-lso')).toBe('12')
    expect(attr(lanes[0]!, 'data-read-committed')).toBe('3')
    expect(attr(lanes[0]!, 'data-read-uncommitted')).toBe('6')
    const txns = tags(html, 'rect').filter((t) => attr(t, 'data-kind') === 'txn')
    expect(
      txns.map((t) => [attr(t, 'data-producer-id'), attr(t, 'data-first-offset'), attr(t, 'data-outcome')]),
    ).toEqual([
      ['7', '0', 'committed'],
      ['7', '4', 'aborted'],
    ])
    expect(tags(html, 'rect').filter((t) => attr(t, 'data-kind') === 'plain')).toHaveLength(1)
    expect(
      tags(html, 'rect')
        .filter((t) => attr(t, 'data-kind') === 'marker')
        .map((t) => attr(t, 'data-marker')),
    ).toEqual(['COMMIT', 'ABORT'])
    expect(tags(html, 'line').map((t) => attr(t, 'class'))).toEqual(['vline lso', 'vline hw'])
  })

  it('escapes hostile strings from the data everywhere they appear', () => {
    const evil = '"><script>alert(1)</script><img src=x onerror=alert(2)>\'&'
    const p = partition({ id: `${evil}-0`, topic: evil, path: `/data/${evil}-0` })
    const m = model([p])
    m.findings = [{ partition: p.id, severity: 'error', code: evil, file: evil, position: 5, message: evil }]
    m.inputs = [evil]
    const html = renderReport(m)
    expect(html.match(/<script/g)).toHaveLength(1) // the page's own
    expect(html).not.toContain('<img')
    // every start tag is well formed: attribute values quoted, with no raw quote or angle bracket inside
    for (const [t] of html.matchAll(/<[a-zA-Z][^>]*>/g)) {
      expect(t).toMatch(/^<[a-zA-Z][\w-]*(\s+[\w:-]+(="[^"<>]*")?)*\s*\/?>$/)
      const names = [...t.matchAll(/\s([\w:-]+)(?==|\s|\/?>)(="[^"]*")?/g)].map((m) => m[1])
      expect(names.filter((n) => n!.startsWith('on'))).toEqual([])
    }
    expect(html).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;')
    const lane = tags(html, 'svg').find((t) => attr(t, 'class') === 'lane')!
    expect(attr(lane, 'data-partition')).toBe(
      '&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&#39;&amp;-0',
    )
  })

  it('loads nothing: no external reference, and a CSP that forbids any fetch', () => {
    const html = renderReport(model())
    expect(html).toContain(`content="default-src 'none';`)
    expect(html).not.toMatch(/\s(src|href)="(?!#)/)
    expect(html).not.toMatch(/@import|url\((?!#)/)
  })

  it('highlights the blocking transaction and prints its abort commands', () => {
    const open = txn({ firstOffset: 8, outcome: 'open', producerId: 42, lastDataOffset: 10 })
    const p = partition({
      lastStableOffset: 8,
      items: [txn({ firstOffset: 0, outcome: 'committed' })],
      open: [open],
      transactions: { committed: 1, aborted: 0, empty: 0, open: 1 },
      blocking: {
        producerId: 42,
        producerEpoch: 0,
        coordinatorEpoch: -1,
        coordinatorEpochSource: 'snapshot',
        firstOffset: 8,
        lastDataOffset: 10,
        records: 3,
        recordsWaiting: 3,
        firstTimestamp: 1,
        lastTimestamp: 2,
        ageMs: 60000,
        state: 'open',
        hanging: false,
        seeded: false,
        commands: ['kafka-transactions.sh --bootstrap-server b:9092 abort --topic t --partition 0 --start-offset 8'],
      },
    })
    const html = renderReport(model([p]))
    const blocking = tags(html, 'rect').filter((t) => attr(t, 'data-blocking') === 'true')
    expect(blocking).toHaveLength(1)
    expect(attr(blocking[0]!, 'data-producer-id')).toBe('42')
    expect(attr(blocking[0]!, 'data-outcome')).toBe('open')
    expect(html).toContain('abort --topic t --partition 0 --start-offset 8')
    expect(html).toContain('LSO 8 &lt; HW 12')
  })

  it('draws an aggregated lane from its buckets, with open transactions still one by one', () => {
    const buckets: Bucket[] = Array.from({ length: 400 }, (_, i) => ({
      firstOffset: i * 1000,
      lastOffset: i * 1000 + 999,
      minTimestamp: i,
      maxTimestamp: i + 1,
      committed: 50,
      aborted: 10,
      committedRecords: 500,
      abortedRecords: 100,
      plainRecords: 0,
      commitMarkers: 50,
      abortMarkers: 10,
      otherControl: 0,
    }))
    const p = partition({
      items: null,
      buckets,
      logEndOffset: 400000,
      highWatermark: 400000,
      lastStableOffset: 399990,
      open: [txn({ firstOffset: 399990, outcome: 'open' })],
      transactions: { committed: 20000, aborted: 4000, empty: 0, open: 1 },
    })
    const html = renderReport(model([p]))
    const rects = tags(html, 'rect')
    expect(tags(html, 'g').filter((t) => attr(t, 'data-kind') === 'bucket')).toHaveLength(400)
    expect(rects.filter((t) => /^bucket /.test(attr(t, 'class') ?? ''))).toHaveLength(800) // committed + aborted part of each
    expect(rects.filter((t) => attr(t, 'data-outcome') !== undefined).map((t) => attr(t, 'data-outcome'))).toEqual([
      'open',
    ])
    const lane = tags(html, 'svg').find((t) => attr(t, 'class') === 'lane')!
    expect(attr(lane, 'data-aggregated')).toBe('true')
    expect(html.length).toBeLessThan(1024 * 1024)
  })

  it('gives every drawn element both axis extents, and the lane its time range', () => {
    const html = renderReport(model())
    const lane = tags(html, 'svg').find((t) => attr(t, 'class') === 'lane')!
    expect(attr(lane, 'data-tmin')).toBe('1700000000000')
    expect(attr(lane, 'data-tmax')).toBe('1700000003000')
    for (const t of tags(html, 'rect').filter(
      (x) => attr(x, 'data-kind') === 'txn' || attr(x, 'data-kind') === 'plain',
    )) {
      for (const a of ['data-o0', 'data-o1', 'data-t0', 'data-t1'])
        expect(attr(t, a), `${a} in ${t}`).toMatch(/^\d+(\.\d+)?$/)
    }
  })

  it('has text alternatives: an aria-label per lane and the lane as a table', () => {
    const html = renderReport(model())
    const lane = tags(html, 'svg').find((t) => attr(t, 'class') === 'lane')!
    expect(attr(lane, 'role')).toBe('img')
    expect(attr(lane, 'aria-label')).toContain('read_committed 3, read_uncommitted 6')
    expect(html).toContain('The lane as a table: 3 runs')
    expect(html).toContain('committed transaction: producerId 7 epoch 0, offsets 0..2, 3 records')
  })

  it('lists findings with file and byte position', () => {
    const m = model()
    m.findings = [
      {
        partition: 't-0',
        severity: 'error',
        code: 'TRUNCATED_TAIL',
        file: '/data/t-0/00000000000000000000.log',
        position: 1074,
        message: '40 bytes at the end',
      },
    ]
    const html = renderReport(m)
    expect(html).toMatch(/<td class="l">\/data\/t-0\/00000000000000000000\.log<\/td><td>1074<\/td>/)
    expect(html).toContain('Findings (1, 1 errors)')
  })
})

describe('reportChunks', () => {
  it('is the page in pieces of at most one partition each, whatever the partition count', () => {
    // two topics, their partitions interleaved: each topic's section still holds its own, in order
    const parts = Array.from({ length: 2000 }, (_, i) =>
      partition({ id: `${i % 2 === 0 ? 'a' : 'b'}-${i >> 1}`, topic: i % 2 === 0 ? 'a' : 'b', partition: i >> 1 }),
    )
    const m = model(parts)
    const pieces = [...reportChunks(m)]
    const page = renderReport(m)
    expect(pieces.join('')).toBe(page)
    const one = renderReport(model([parts[0]!]))
    // the head with the topics table, then a topic's head with its reconcile table: the rest as large as one partition
    const sections = pieces.filter((x) => x.startsWith('<section class="partition"'))
    expect(sections).toHaveLength(2000)
    expect(Math.max(...sections.map((x) => x.length))).toBeLessThan(one.length)
    expect(page.indexOf('id="p-a-999"')).toBeLessThan(page.indexOf('id="p-b-0"'))
  })
})
