// A storage's listing is read once for its layout and then a partition at a time by key prefix (scan/remote-listing.ts,
// io/remote/store.ts): the objects a partition's prefix lists are exactly those its directory holds (the names written
// here are the truth), whatever other topics share the start of its name; the layout's detection names the same
// objects in the same order as a listing held whole did; S3's order (UTF-8 bytes) is the code points' order.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { LayoutFacts, LOCAL_TIERED, detectLayout } from '../../src/io/remote/layout.js'
import { codePointOrder } from '../../src/io/remote/s3-store.js'
import { closeRemoteStores, openRemoteStore } from '../../src/io/remote/store.js'
import { listedSegments, surveyStorage } from '../../src/scan/remote-listing.js'

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-remote-listing-'))
afterAll(() => {
  closeRemoteStores()
  fs.rmSync(root, { recursive: true, force: true })
})

const ID = (n: number): string => `${'A'.repeat(21)}${'ABCDEFGH'[n]}`
const SEG = (n: number): string => `${'B'.repeat(21)}${'ABCDEFGH'[n]}`
const file = (offset: number, seg: number, suffix: string): string =>
  `${String(offset).padStart(20, '0')}-${SEG(seg)}.${suffix}`

/** topics `t` and `t-1` (whose directory names start alike), partitions 1 and 2, two topic ids of `t` */
function makeTree(dir: string): Map<string, string[]> {
  const written = new Map<string, string[]>()
  const put = (d: string, names: string[]): void => {
    fs.mkdirSync(path.join(dir, d), { recursive: true })
    for (const n of names) fs.writeFileSync(path.join(dir, d, n), n)
    written.set(
      d,
      names.map((n) => `${d}/${n}`),
    )
  }
  put(`t-1-${ID(0)}`, [file(0, 0, 'log'), file(0, 0, 'txnindex'), file(10, 1, 'log')])
  put(`t-1-${ID(1)}`, [file(20, 2, 'log')])
  put(`t-1-2-${ID(2)}`, [file(0, 3, 'log')])
  put(`t-12-${ID(0)}`, [file(5, 4, 'log')])
  return written
}

describe('a partition listed by its key prefix', () => {
  const dir = path.join(root, 'local')
  const written = makeTree(dir)
  const store = openRemoteStore(dir)

  it('lists the objects of its directory only, in key order, with their sizes', () => {
    const listed = store.listPrefix(LOCAL_TIERED.partitionPrefix('t', 1, ID(0)))
    expect(listed.map((o) => o.key)).toEqual([...written.get(`t-1-${ID(0)}`)!].sort())
    for (const o of listed) expect(o.size).toBe(path.basename(o.key).length)
  })

  it("without a topic id, every id's objects of that partition and none of t-1 or t-12", () => {
    const segs = listedSegments(store, LOCAL_TIERED, 't', 1, null)
    expect([...segs.keys()].sort()).toEqual([SEG(0), SEG(1), SEG(2)].sort())
    expect([...segs.get(SEG(0))!.objects.keys()].sort()).toEqual(['log', 'txnindex'])
    expect([...listedSegments(store, LOCAL_TIERED, 't-1', 2, null).keys()]).toEqual([SEG(3)])
    expect([...listedSegments(store, LOCAL_TIERED, 't', 12, ID(0)).keys()]).toEqual([SEG(4)])
  })

  it('the survey names each partition once, with the topic id of its first key', () => {
    const s = surveyStorage(store, dir, {}, true)
    expect(s.layout.name).toBe('local-tiered')
    const names = s.partitions.map((p) => `${p.topic}/${p.partition}/${p.topicId}`).sort()
    expect(names).toEqual([`t-1/2/${ID(2)}`, `t/1/${ID(0)}`, `t/12/${ID(0)}`].sort())
  })
})

describe('layout detection from the listing as it streams', () => {
  it('names the first keys of the listing order whatever order they come in, and the count', () => {
    const keys = ['zeta/x', 'alpha/b', 'alpha-2/c', 'm/n', 'alpha/a']
    const facts = new LayoutFacts((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    for (const k of keys) facts.add(k)
    expect(() => detectLayout(facts, 'spec')).toThrow(/found 5 objects: alpha-2\/c, alpha\/a, alpha\/b, \.\.\./)
  })

  it('S3 order: code points, as Buffer.compare orders the UTF-8 bytes', () => {
    const chars = ['a', 'z', '\u00e9', '\ud7ff', '\ue000', '\uffff', '\ud83d\ude00', '\ud800\udc00', '-', '/']
    const strings: string[] = []
    for (const a of chars) for (const b of chars) strings.push(a + b, a)
    const bytes = (a: string, b: string): number => Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b)))
    for (const a of strings) for (const b of strings) expect(Math.sign(codePointOrder(a, b))).toBe(bytes(a, b))
  })
})
