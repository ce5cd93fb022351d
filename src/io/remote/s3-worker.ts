// The I/O thread of an S3 store (s3-store.ts): lists a prefix and serves ranged GETs of fixed chunks, fetching
// the next PREFETCH chunks of the same object, and the first chunks of the objects planned next, in parallel while
// the caller decodes (at most --remote-concurrency GETs at once). The requests are s3-http.ts's, signed with the
// AWS SDK's default credential chain (s3-credentials.ts); AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL (an S3-compatible
// server) is honoured with path-style addressing. Retries with exponential backoff on 5xx, throttling and
// connections cut in the middle of a body; a 4xx (403 AccessDenied, 404 NoSuchKey) is answered at once as an error
// naming the key.
import { workerData } from 'node:worker_threads'
import type { MessagePort } from 'node:worker_threads'
import { defaultCredentials } from './s3-credentials.js'
import { S3Http } from './s3-http.js'
import { answer } from './sync-bridge.js'

const { port, flag, bucket, chunk, shared, concurrency } = workerData as {
  port: MessagePort
  flag: Int32Array
  bucket: string
  chunk: number
  shared: SharedArrayBuffer
  concurrency: number
}
const setup = { port, flag }
/** where an answered chunk is put for the caller (one chunk: the caller copies it out before it asks again) */
const out = new Uint8Array(shared)
/**
 * chunks fetched ahead of the one asked for: with 4 (and the bridge's 4 MiB young generation) a dump of a 128 MiB
 * object from moto peaked at 145 MiB, 136 with 2, 125-126 with 1 and a 1 MiB young generation (bench/RESULTS-commands.md)
 */
const PREFETCH = 1
const ATTEMPTS = 6
const BACKOFF_MS = 100
/**
 * The time limits (TSDUMP_S3_CONNECT_TIMEOUT_MS, TSDUMP_S3_REQUEST_TIMEOUT_MS, TSDUMP_S3_RETRY_BUDGET_MS): without
 * them a GET that never answers waits for ever. A connection must be made
 * within the first, one attempt (the whole ranged GET, its body too) take at most the second, and one call with
 * its retries at most the budget: a stall costs the budget, then the object is a finding.
 */
const limit = (name: string, dflt: number): number => {
  const v = Number(process.env[name])
  return Number.isFinite(v) && v > 0 ? v : dflt
}
const CONNECT_TIMEOUT_MS = limit('TSDUMP_S3_CONNECT_TIMEOUT_MS', 5_000)
const REQUEST_TIMEOUT_MS = limit('TSDUMP_S3_REQUEST_TIMEOUT_MS', 20_000)
const RETRY_BUDGET_MS = limit('TSDUMP_S3_RETRY_BUDGET_MS', 60_000)

// the SDK's credential chain warns on stderr about Node releases it will drop later (its own switch): not tsdump's output
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'
const endpoint = process.env.AWS_ENDPOINT_URL_S3 ?? process.env.AWS_ENDPOINT_URL
// (an optional dependency: s3-store.ts checks it is there; if it still cannot be loaded, every request says so)
const credentials = defaultCredentials()
const client = new S3Http({
  bucket,
  region: process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1',
  endpoint,
  credentials: async () => {
    if (credentials instanceof Error) throw credentials
    return await credentials()
  },
  connectTimeoutMs: CONNECT_TIMEOUT_MS,
  requestTimeoutMs: REQUEST_TIMEOUT_MS,
})

interface S3Failure {
  status: number | undefined
  code: string
  message: string
}

function failure(e: unknown): S3Failure {
  const err = e as { name?: string; message?: string; Code?: string; $metadata?: { httpStatusCode?: number } }
  return {
    status: err.$metadata?.httpStatusCode,
    code: err.Code ?? err.name ?? 'Error',
    message: err.message ?? String(e),
  }
}

/** 5xx, throttling (429, SlowDown) and lost connections are retried; other 4xx are the answer */
function retryable(f: S3Failure): boolean {
  // no HTTP answer: a lost connection is retried, a client that cannot sign (no credentials, no region) is not
  if (f.status === undefined) return !/CredentialsProviderError|Region|SdkMissing/.test(f.code + f.message)
  return f.status >= 500 || f.status === 429 || /SlowDown|Throttl|RequestTimeout/.test(f.code)
}

/** one attempt, abandoned (its request aborted, its body destroyed) when it outlasts `ms` */
async function attempt<T>(ms: number, what: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ctl = new AbortController()
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const e = Object.assign(new Error(`no answer within ${ms} ms`), { name: 'TimeoutError' })
      ctl.abort(e)
      reject(e)
    }, ms)
  })
  try {
    return await Promise.race([what(ctl.signal), timeout])
  } finally {
    clearTimeout(timer)
  }
}

function describe(f: S3Failure, attempts: number): string {
  const status = f.status !== undefined ? `HTTP ${f.status}` : retryable(f) ? 'connection failed' : 'no request sent'
  return `${status} ${f.code}${f.message !== '' && f.message !== f.code ? `: ${f.message}` : ''}${attempts > 1 ? ` (after ${attempts} attempts)` : ''}`
}

async function withRetries<T>(what: (signal: AbortSignal) => Promise<T>): Promise<T> {
  let last: S3Failure | undefined
  const end = Date.now() + RETRY_BUDGET_MS
  for (let n = 1; n <= ATTEMPTS; n++) {
    try {
      return await attempt(Math.max(1, Math.min(REQUEST_TIMEOUT_MS, end - Date.now())), what)
    } catch (e) {
      last = failure(e)
      const pause = BACKOFF_MS * 2 ** (n - 1) * (0.5 + Math.random())
      if (!retryable(last) || n === ATTEMPTS) throw new Error(describe(last, n))
      if (Date.now() + pause >= end)
        throw new Error(
          `${describe(last, n)}; gave up after the ${RETRY_BUDGET_MS / 1000} s retry budget (TSDUMP_S3_RETRY_BUDGET_MS)`,
        )
      await new Promise((resolve) => setTimeout(resolve, pause))
    }
  }
  throw new Error(describe(last!, ATTEMPTS))
}

/**
 * the objects under `prefix`, all or the first `max`, their keys without the first `strip` characters (the prefix's);
 * `page`: one page from `from` (a continuation token), and the next page's token
 */
async function list(
  prefix: string,
  max?: number,
  strip = prefix.length,
  page = false,
  from?: string,
): Promise<{ objects: Array<{ key: string; size: number }>; token?: string }> {
  const out: Array<{ key: string; size: number }> = []
  let token: string | undefined = from
  do {
    const r = await withRetries(async (abortSignal) => await client.list({ prefix, maxKeys: max, token }, abortSignal))
    for (const o of r.objects) out.push({ key: o.key.slice(strip), size: o.size })
    token = r.truncated && max === undefined ? r.next : undefined
  } while (token !== undefined && !page)
  return token !== undefined ? { objects: out, token } : { objects: out }
}

async function getRange(key: string, from: number, to: number): Promise<Uint8Array> {
  return await withRetries(async (abortSignal) => {
    const r = await client.get(key, from, to - 1, abortSignal)
    // a body that stalls after the headers: destroyed when the attempt is abandoned
    abortSignal.addEventListener('abort', () => r.destroy(abortSignal.reason as Error), { once: true })
    // streamed into one buffer of the range's size (no list of pieces concatenated after)
    const body = bodyOf(to - from)
    let n = 0
    for await (const piece of r as AsyncIterable<Uint8Array>) {
      if (n + piece.length > body.length)
        throw Object.assign(new Error(`more than the ${to - from} bytes asked for`), { name: 'LongBody' })
      body.set(piece, n)
      n += piece.length
    }
    // a connection cut mid-body can end the stream early without an error: count the bytes
    if (n !== to - from)
      throw Object.assign(new Error(`${n} of ${to - from} bytes received`), { name: 'IncompleteBody' })
    return body
  })
}

/**
 * GETs in flight at once (--remote-concurrency): the chunk asked for, the next chunk of its object (PREFETCH), and
 * the first chunks of the objects the caller's plan says come next (other segments, other partitions; sent with
 * each GET), so that a scan of
 * many small remote segments waits for one round trip at a time instead of one per segment.
 */
const CONCURRENCY = Math.max(1, Math.floor(concurrency))
/**
 * Whole-chunk bodies already copied to the caller, taken by the next GETs: one allocated per GET was freed only when
 * V8 collected it, which it does late for memory outside its heap (reading 113 MiB of remote segments from moto
 * held tens of MiB of them).
 */
const spareBodies: Uint8Array[] = []
function bodyOf(length: number): Uint8Array {
  return length === chunk ? (spareBodies.pop() ?? new Uint8Array(chunk)) : new Uint8Array(length)
}

/** chunks fetched or in flight, the oldest dropped first; at most CONCURRENCY + 1 of them (each at most one chunk) */
const cache = new Map<string, Promise<Uint8Array>>()

function fetchChunk(key: string, index: number, size: number): Promise<Uint8Array> {
  const id = `${index} ${key}`
  let p = cache.get(id)
  if (p === undefined) {
    p = getRange(key, index * chunk, Math.min(size, (index + 1) * chunk))
    p.catch(() => {}) // awaited when asked for; a failed prefetch is retried then
    cache.set(id, p)
    while (cache.size > CONCURRENCY + 1) cache.delete(cache.keys().next().value!)
  }
  return p
}

/** the GETs started beside the one asked for: at most CONCURRENCY - 1 (`next`: the objects the caller's plan reads after it) */
function prefetch(key: string, index: number, size: number, next: ReadonlyArray<{ key: string; size: number }>): void {
  let budget = CONCURRENCY - 1
  for (let i = 1; i <= PREFETCH && budget > 0 && (index + i) * chunk < size; i++, budget--)
    void fetchChunk(key, index + i, size)
  for (let j = 0; j < next.length && budget > 0; j++, budget--) void fetchChunk(next[j]!.key, 0, next[j]!.size)
}

port.on(
  'message',
  (m: {
    id: number
    op: 'list' | 'get'
    prefix?: string
    max?: number
    strip?: number
    page?: boolean
    token?: string
    key?: string
    index?: number
    size?: number
    next?: Array<{ key: string; size: number }>
  }) => {
    void (async () => {
      try {
        if (m.op === 'list') {
          answer(setup, { id: m.id, ...(await list(m.prefix!, m.max, m.strip, m.page === true, m.token)) })
          return
        }
        const { key, index, size } = m as { key: string; index: number; size: number }
        const wanted = fetchChunk(key, index, size)
        prefetch(key, index, size, m.next ?? [])
        let data: Uint8Array
        try {
          data = await wanted
        } finally {
          // sources read forward, so a chunk is handed over once and not kept; a first chunk is kept while the
          // cache holds it (the scan reads each remote segment's first bytes before it reads the segment)
          if (index > 0) cache.delete(`${index} ${key}`)
        }
        out.set(data)
        // a later chunk is in no cache and read by no one else now: its buffer is free for the next GET
        if (index > 0 && data.length === chunk && spareBodies.length <= CONCURRENCY) spareBodies.push(data)
        answer(setup, { id: m.id, length: data.length })
      } catch (e) {
        answer(setup, { id: m.id, error: e instanceof Error ? e.message : String(e) })
      }
    })()
  },
)
