#!/usr/bin/env node
// What the AWS SDK costs the S3 I/O thread (src/io/remote/s3-worker.ts), against a stand-in that signs the same
// ranged GETs itself (SigV4 by node's crypto, sent by node's http): CPU per GET, peak RSS and heap of a process
// that makes GETS ranged GETs of small objects from moto, --remote-concurrency's default (4) at a time, each client
// in a fresh process, alternately. The measured reason for (or against) issue #30 item 7's step 4 (a hand-signed
// client in place of @aws-sdk/client-s3): the stand-in is a measurement, not a client (path-style http only,
// credentials from the environment, no retries).
//
//   node bench/s3-client-cost.mjs [--runs 3] [--gets 1500]
//
// Needs moto_server (bench/moto.mjs) and @aws-sdk/client-s3.
import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import http from 'node:http'
import { fileURLToPath } from 'node:url'
import { motoServerPath, startMoto } from './moto.mjs'

const args = process.argv.slice(2)
const opt = (name, d) => (args.includes(name) ? args[args.indexOf(name) + 1] : d)
const GETS = Number(opt('--gets', '1500'))
const BUCKET = 'cost'
const OBJECTS = 30
const key = (i) => `tiered-0-topicid/${String(i).padStart(20, '0')}-segment.log`

/** a GET signed with SigV4 (UNSIGNED is not used: the empty body's hash, as the SDK sends for a GET) */
function signedGet(endpoint, path, range) {
  const url = new URL(endpoint)
  const now = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '')
  const day = now.slice(0, 8)
  const region = process.env.AWS_REGION
  const empty = crypto.createHash('sha256').update('').digest('hex')
  const headers = { host: url.host, range, 'x-amz-content-sha256': empty, 'x-amz-date': now }
  const names = Object.keys(headers).sort()
  const canonical = ['GET', path, '', names.map((n) => `${n}:${headers[n]}\n`).join(''), names.join(';'), empty]
  const scope = `${day}/${region}/s3/aws4_request`
  const hash = crypto.createHash('sha256').update(canonical.join('\n')).digest('hex')
  const hmac = (k, s) => crypto.createHmac('sha256', k).update(s).digest()
  const signingKey = hmac(
    hmac(hmac(hmac(`AWS4${process.env.AWS_SECRET_ACCESS_KEY}`, day), region), 's3'),
    'aws4_request',
  )
  const signature = hmac(signingKey, ['AWS4-HMAC-SHA256', now, scope, hash].join('\n')).toString('hex')
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${process.env.AWS_ACCESS_KEY_ID}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname: url.hostname, port: url.port, path, headers }, (res) => {
      if (res.statusCode !== 206) reject(new Error(`HTTP ${res.statusCode}`))
      resolve(res)
    })
    req.on('error', reject)
    req.end()
  })
}

/** the child: GETS ranged GETs through one client, 4 at a time; prints CPU ms per GET, peak RSS and heap */
async function child(kind) {
  const endpoint = process.env.AWS_ENDPOINT_URL
  let get
  if (kind === 'sdk') {
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true'
    // configured as s3-worker.ts configures it
    const { S3Client, GetObjectCommand } = await import('@aws-sdk/client-s3')
    const client = new S3Client({ region: process.env.AWS_REGION, endpoint, forcePathStyle: true, maxAttempts: 1 })
    get = async (k, range) => (await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: k, Range: range }))).Body
  } else get = (k, range) => signedGet(endpoint, `/${BUCKET}/${k}`, range)
  const before = process.cpuUsage()
  let next = 0
  const lane = async () => {
    while (next < GETS) {
      const i = next++
      for await (const _ of await get(key(i % OBJECTS), 'bytes=0-128'));
    }
  }
  await Promise.all(Array.from({ length: 4 }, lane))
  const cpu = process.cpuUsage(before)
  const { getHeapStatistics } = await import('node:v8')
  const heap = getHeapStatistics().total_heap_size
  console.log(JSON.stringify({ cpuMsPerGet: (cpu.user + cpu.system) / 1000 / GETS, heapMiB: heap / 1048576 }))
}

function runChild(kind) {
  const argv = ['-f', '%M', process.execPath, fileURLToPath(import.meta.url), '--child', kind, '--gets', String(GETS)]
  const c = spawn('/usr/bin/time', argv, { env: { ...process.env, ...moto.env } })
  const out = { stdout: [], stderr: [] }
  for (const k of ['stdout', 'stderr']) c[k].on('data', (d) => out[k].push(d))
  return new Promise((resolve) =>
    c.on('close', (status) => resolve({ status, stdout: out.stdout.join(''), stderr: out.stderr.join('') })),
  )
}

let moto

async function main() {
  const runs = Number(opt('--runs', '3'))
  const exe = motoServerPath()
  if (exe === null) throw new Error('moto_server not found (bench/moto.mjs)')
  moto = await startMoto(exe)
  try {
    const put = (method, path, body) =>
      new Promise((resolve, reject) => {
        // moto accepts unsigned PUTs
        const req = http.request(`${moto.endpoint}${path}`, { method }, (res) => resolve(res.resume()))
        req.on('error', reject)
        req.end(body)
      })
    await put('PUT', `/${BUCKET}`)
    for (let i = 0; i < OBJECTS; i++) await put('PUT', `/${BUCKET}/${key(i)}`, crypto.randomBytes(4096))
    const rows = { sdk: [], node: [] }
    for (let r = 0; r < runs; r++)
      for (const kind of Object.keys(rows)) {
        // spawned asynchronously: moto's log is drained by this process's event loop (bench/remote-concurrency.mjs)
        const c = await runChild(kind)
        if (c.status !== 0) throw new Error(`${kind}: exit ${c.status}\n${c.stderr}`)
        const rssMiB = Number(c.stderr.trim().split('\n').pop()) / 1024
        rows[kind].push({ ...JSON.parse(c.stdout), rssMiB })
      }
    const load = (await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
    console.log(
      `${GETS} ranged GETs of ${OBJECTS} 4 KiB objects from moto, 4 at a time, ${runs} runs each; load ${load}`,
    )
    console.log('| client | CPU ms per GET | peak RSS MiB | V8 heap MiB at the end |')
    console.log('|---|---|---|---|')
    const f = (xs, k) => xs.map((x) => x[k].toFixed(k === 'cpuMsPerGet' ? 2 : 1)).join(', ')
    for (const [kind, xs] of Object.entries(rows))
      console.log(`| ${kind} | ${f(xs, 'cpuMsPerGet')} | ${f(xs, 'rssMiB')} | ${f(xs, 'heapMiB')} |`)
  } finally {
    moto.stop()
  }
}

if (args.includes('--child')) await child(opt('--child'))
else await main()
