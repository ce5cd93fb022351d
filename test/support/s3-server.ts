// A real S3 API server for the tests of `--remote-storage s3://…` (issue #23): moto's server (PyPI `moto[s3]`,
// `moto_server`), started by the tests on a loopback port the server picks itself, plus a loopback fault proxy in
// front of it for what moto cannot do on request (403, 404, 503 SlowDown, a connection cut in the middle of a
// ranged GET).
//
// Why moto and not s3rver (npm, 3.7.1, 2021): measured with @aws-sdk/client-s3 3.1175.0, s3rver answers a suffix
// range `bytes=-10` with bytes 0-10 (11 bytes, S3 and moto: the last 10) and a paginated ListObjectsV2
// (MaxKeys + ContinuationToken) with 500 InternalError; moto 5.2.5 gave S3's answers to every probe (ranges
// `N-`, `-N`, past the end (clamped), wholly past the end (416 InvalidRange), pagination, HeadObject,
// NoSuchKey/NoSuchBucket 404). Install and start times: /work/notes/tiered.md and the commit message.
//
// Where moto_server comes from: $TSDUMP_MOTO_SERVER, else <repo>/.cache/moto/bin/moto_server (the venv .ci/run
// installs), else `moto_server` on PATH. motoServerMissing() says why it cannot run (tests skip with that reason,
// and fail instead under CI=true, where .ci/run must have installed it).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import path from 'node:path'
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3'
import { REPO_ROOT } from './paths.js'

/** The moto_server executable to run, or null. */
export function motoServerPath(): string | null {
  const candidates = [process.env.TSDUMP_MOTO_SERVER, path.join(REPO_ROOT, '.cache/moto/bin/moto_server')]
  for (const c of candidates) if (c !== undefined && c !== '' && fs.existsSync(c)) return c
  const r = spawnSync('sh', ['-c', 'command -v moto_server'], { encoding: 'utf8' })
  return r.status === 0 && r.stdout.trim() !== '' ? r.stdout.trim() : null
}

/** Why the S3 tests cannot run here, or null. */
export function motoServerMissing(): string | null {
  return motoServerPath() === null
    ? 'moto_server not found ($TSDUMP_MOTO_SERVER, .cache/moto/bin/moto_server, PATH): python3 -m venv .cache/moto && .cache/moto/bin/pip install "moto[s3]==5.2.5" flask flask-cors'
    : null
}

export interface S3TestServer {
  /** http://127.0.0.1:PORT */
  endpoint: string
  port: number
  /** a client for the tests' own uploads and checks (path-style, static test credentials) */
  client: S3Client
  /** environment for a tsdump child process: the SDK's default credential chain and AWS_ENDPOINT_URL */
  env: Record<string, string>
  stop: () => Promise<void>
}

const CREDENTIALS = { accessKeyId: 'tsdump-test', secretAccessKey: 'tsdump-test' }
const REGION = 'us-east-1'

export function s3Client(endpoint: string): S3Client {
  // forcePathStyle: http://127.0.0.1:PORT/bucket/key (a virtual-hosted bucket.127.0.0.1 does not resolve)
  return new S3Client({ endpoint, region: REGION, forcePathStyle: true, credentials: CREDENTIALS, maxAttempts: 1 })
}

/**
 * Start moto_server on 127.0.0.1 with port 0: werkzeug binds a free port and prints
 * ` * Running on http://127.0.0.1:PORT` on stderr, which is read back (no race between picking and binding a port).
 * Resolves when the server answers ListBuckets.
 */
export async function startS3Server({ timeoutMs = 60_000 }: { timeoutMs?: number } = {}): Promise<S3TestServer> {
  const exe = motoServerPath()
  if (exe === null) throw new Error(motoServerMissing() ?? 'moto_server not found')
  const child = spawn(exe, ['-H', '127.0.0.1', '-p', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PYTHONUNBUFFERED: '1' },
  })
  let output = ''
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`moto_server did not start in ${timeoutMs} ms:\n${output}`))
    }, timeoutMs)
    const onData = (d: Buffer): void => {
      output += d.toString('utf8')
      const m = /Running on http:\/\/127\.0\.0\.1:(\d+)/.exec(output)
      if (m !== null) {
        clearTimeout(timer)
        resolve(Number(m[1]))
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.on('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`moto_server exited (${code ?? signal}) before it served:\n${output}`))
    })
  })
  // keep draining its request log so a full pipe never blocks the server
  child.stdout.removeAllListeners('data').resume()
  child.stderr.removeAllListeners('data').resume()
  const endpoint = `http://127.0.0.1:${port}`
  await waitServing(endpoint, timeoutMs)
  return {
    endpoint,
    port,
    client: s3Client(endpoint),
    env: {
      AWS_ENDPOINT_URL: endpoint,
      AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      AWS_REGION: REGION,
      // no ~/.aws files of whoever runs the tests
      AWS_CONFIG_FILE: '/dev/null',
      AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
    },
    stop: async () => {
      await stopChild(child)
    },
  }
}

async function waitServing(endpoint: string, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const status = await new Promise<number>((resolve) => {
      http
        .get(endpoint + '/', (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        })
        .on('error', () => resolve(0))
    })
    if (status === 200) return
    if (Date.now() > end)
      throw new Error(`${endpoint} did not answer 200 within ${timeoutMs} ms (last status ${status})`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  await new Promise<void>((resolve) => {
    const t = setTimeout(() => child.kill('SIGKILL'), 5000)
    child.once('exit', () => {
      clearTimeout(t)
      resolve()
    })
    child.kill('SIGTERM')
  })
}

/** Create `bucket` and upload every file under `dir` as `<prefix><path relative to dir>`; returns the keys, sorted. */
export async function uploadTree(client: S3Client, bucket: string, dir: string, prefix = ''): Promise<string[]> {
  await client.send(new CreateBucketCommand({ Bucket: bucket }))
  const keys: string[] = []
  const walk = async (rel: string): Promise<void> => {
    for (const e of fs
      .readdirSync(path.join(dir, rel), { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))) {
      const r = rel === '' ? e.name : `${rel}/${e.name}`
      if (e.isDirectory()) {
        await walk(r)
        continue
      }
      const key = prefix + r
      // fixtures are small: a Buffer body (Content-Length and a plain checksum header, no aws-chunked streaming)
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: fs.readFileSync(path.join(dir, r)) }))
      keys.push(key)
    }
  }
  await walk('')
  return keys.sort()
}

// ------------------------------------------------------------------ fault injection

/** What the proxy saw of one request. */
export interface ProxiedRequest {
  method: string
  url: string
  range: string | undefined
  injected: string | null
}

/**
 * An injected answer: an S3 error document with that status and code (403 AccessDenied, 404 NoSuchKey,
 * 503 SlowDown, …), or `cut`: the upstream answer's status and headers and then only `afterBytes` bytes of its body
 * before the connection is destroyed (a connection lost in the middle of a ranged GET); `stall`: the request is
 * read and never answered (the connection stays open until the proxy stops).
 */
export type Fault =
  | { status: number; code: string; message?: string }
  | { cut: true; afterBytes: number }
  | { stall: true }

export interface FaultRule {
  /** which requests (all when absent) */
  match?: (r: { method: string; url: string; range: string | undefined }) => boolean
  fault: Fault
  /** how many matching requests get the fault before the rule stops applying (every one when absent) */
  times?: number
}

export interface FaultProxy {
  endpoint: string
  requests: ProxiedRequest[]
  /** replace the rules (e.g. between test cases) */
  setRules: (rules: FaultRule[]) => void
  stop: () => Promise<void>
}

const errorXml = (code: string, message: string, resource: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><Resource>${resource}</Resource><RequestId>tsdump-fault-proxy</RequestId></Error>`

/** A loopback HTTP proxy to `target` (an S3TestServer endpoint) that applies the first matching rule. */
export async function startFaultProxy(target: string, rules: FaultRule[] = []): Promise<FaultProxy> {
  const up = new URL(target)
  let active = rules.map((r) => ({ ...r, left: r.times ?? Infinity }))
  const requests: ProxiedRequest[] = []
  const sockets = new Set<Socket>()
  const server = http.createServer((req, res) => {
    const info = { method: req.method ?? 'GET', url: req.url ?? '/', range: req.headers.range }
    const rule = active.find((r) => r.left > 0 && (r.match === undefined || r.match(info)))
    const fault = rule?.fault
    if (rule !== undefined) rule.left--
    requests.push({
      ...info,
      injected:
        fault === undefined
          ? null
          : 'stall' in fault
            ? 'stall'
            : 'cut' in fault
              ? `cut after ${fault.afterBytes}`
              : `${fault.status} ${fault.code}`,
    })
    if (fault !== undefined && 'stall' in fault) {
      req.resume()
      return
    }
    if (fault !== undefined && !('cut' in fault)) {
      req.resume()
      const body = errorXml(fault.code, fault.message ?? fault.code, info.url)
      res.writeHead(fault.status, {
        'content-type': 'application/xml',
        'content-length': Buffer.byteLength(body),
        'x-amz-request-id': 'tsdump-fault-proxy',
      })
      res.end(info.method === 'HEAD' ? undefined : body)
      return
    }
    const fwd = http.request(
      { host: up.hostname, port: up.port, method: info.method, path: info.url, headers: req.headers },
      (ur) => {
        res.writeHead(ur.statusCode ?? 502, ur.headers)
        if (fault === undefined) {
          ur.pipe(res)
          return
        }
        let sent = 0
        ur.on('data', (chunk: Buffer) => {
          if (sent >= fault.afterBytes) return
          const part = chunk.subarray(0, fault.afterBytes - sent)
          sent += part.length
          res.write(part)
          // then drop the connection without ending the response: the client sees fewer bytes than Content-Length
          if (sent >= fault.afterBytes) {
            ur.destroy()
            res.socket?.destroy()
          }
        })
        ur.on('end', () => {
          if (sent < fault.afterBytes) res.socket?.destroy()
        })
      },
    )
    fwd.on('error', (e) => {
      res.writeHead(502)
      res.end(String(e))
    })
    req.pipe(fwd)
  })
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    setRules: (r) => {
      active = r.map((x) => ({ ...x, left: x.times ?? Infinity }))
    },
    stop: async () => {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
