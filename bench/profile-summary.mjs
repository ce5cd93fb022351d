#!/usr/bin/env node
// Summarise a V8 .cpuprofile (node --cpu-prof): top functions by self time, with their inclusive time,
// mapped back from dist/*.js to src/*.ts through the .js.map files that tsc writes.
// usage: node bench/profile-summary.mjs FILE.cpuprofile [--top 25]
import fs from 'node:fs'
import path from 'node:path'
import { SourceMap } from 'node:module'
import { fileURLToPath } from 'node:url'

const maps = new Map()
function sourceMapFor(file) {
  if (!maps.has(file)) {
    let sm
    try {
      sm = new SourceMap(JSON.parse(fs.readFileSync(file + '.map', 'utf8')))
    } catch {
      sm = undefined
    }
    maps.set(file, sm)
  }
  return maps.get(file)
}

function location(cf, root) {
  if (!cf.url) return cf.functionName ? '(native)' : ''
  let file = cf.url
  if (file.startsWith('file://')) file = fileURLToPath(file)
  if (!path.isAbsolute(file)) return `${file}:${cf.lineNumber + 1}`
  const sm = sourceMapFor(file)
  if (sm) {
    const e = sm.findEntry(cf.lineNumber, cf.columnNumber)
    if (e && e.originalSource) {
      let src = e.originalSource
      if (src.startsWith('file://')) src = fileURLToPath(src)
      else if (!path.isAbsolute(src)) src = path.resolve(path.dirname(file), src)
      return `${path.relative(root, src)}:${e.originalLine + 1}`
    }
  }
  return `${path.relative(root, file)}:${cf.lineNumber + 1}`
}

export function summarizeProfile(file, { top = 25, root = process.cwd() } = {}) {
  const p = JSON.parse(fs.readFileSync(file, 'utf8'))
  const byId = new Map(p.nodes.map((n) => [n.id, n]))
  const self = new Map() // node id -> microseconds
  for (let i = 0; i < p.samples.length; i++)
    self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0))
  const total = [...self.values()].reduce((a, b) => a + b, 0)
  const parent = new Map()
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const key = (n) => `${n.callFrame.functionName || '(anonymous)'}  ${location(n.callFrame, root)}`
  // inclusive time per node
  const incl = new Map()
  const order = []
  const stack = [p.nodes[0].id]
  while (stack.length) {
    const id = stack.pop()
    order.push(id)
    for (const c of byId.get(id).children ?? []) stack.push(c)
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const n = byId.get(order[i])
    incl.set(n.id, (self.get(n.id) ?? 0) + (n.children ?? []).reduce((a, c) => a + (incl.get(c) ?? 0), 0))
  }
  const agg = new Map()
  for (const n of p.nodes) {
    const k = key(n)
    const a = agg.get(k) ?? { self: 0, incl: 0 }
    a.self += self.get(n.id) ?? 0
    // inclusive: count a node only if no ancestor has the same key (recursion)
    let anc = parent.get(n.id)
    let rec = false
    while (anc !== undefined) {
      if (key(byId.get(anc)) === k) {
        rec = true
        break
      }
      anc = parent.get(anc)
    }
    if (!rec) a.incl += incl.get(n.id) ?? 0
    agg.set(k, a)
  }
  const rows = [...agg.entries()].sort((a, b) => b[1].self - a[1].self).slice(0, top)
  const pct = (x) => `${((100 * x) / total).toFixed(1).padStart(5)}%`
  const lines = [`total sampled ${(total / 1e6).toFixed(2)} s; self% / inclusive% / function  location`]
  for (const [k, a] of rows) lines.push(`${pct(a.self)} ${pct(a.incl)}  ${k}`)
  return lines.join('\n')
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2)
  const t = args.indexOf('--top')
  const top = t >= 0 ? Number(args[t + 1]) : 25
  const file = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--top')
  console.log(summarizeProfile(file, { top, root: process.cwd() }))
}
