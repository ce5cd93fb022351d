// The two S3 requests tsdump makes, ListObjectsV2 and a ranged GetObject, over node:http/node:https and signed by
// s3-sigv4.ts, in place of @aws-sdk/client-s3's S3Client: per GET the SDK cost the I/O thread 1.91-2.30 ms of CPU and
// 94-101 MiB of peak RSS against 0.72 ms and 56 MiB (bench/s3-client-cost.mjs), and 1,000 partitions x 30 remote
// segments from moto 118.3 MiB against 101.3 MiB. The SDK's behaviour is kept where tsdump's findings show it: the
// address it chooses (below), its errors' names and messages (the S3 error document's Code and Message), the names
// of its time limits' errors, and ECONNRESET/EPIPE/ETIMEDOUT named TimeoutError as its NodeHttpHandler names them.
import http from 'node:http'
import https from 'node:https'
import type { IncomingMessage } from 'node:http'
import { type S3Credentials, signGet, uriEncode } from './s3-sigv4.js'

export interface S3HttpOptions {
  bucket: string
  region: string
  /** AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL: an S3-compatible server, addressed path-style */
  endpoint?: string | undefined
  credentials: () => Promise<S3Credentials>
  connectTimeoutMs: number
  requestTimeoutMs: number
}

/** a request's failure as the SDK shaped it: failure() in s3-worker.ts reads these fields */
type S3Error = Error & { Code?: string; $metadata?: { httpStatusCode?: number } }

/**
 * The SDK's S3 rules (its endpoint ruleset, isVirtualHostableS3Bucket): a custom endpoint is addressed path-style
 * (s3-worker.ts has always set forcePathStyle with one); AWS's own is addressed virtual-hosted when the bucket's name
 * is one DNS label (3-63 lower-case letters, digits and hyphens, not an IP address), else path-style.
 */
export function s3Address(
  bucket: string,
  region: string,
  endpoint: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): { base: URL; pathPrefix: string } {
  if (endpoint !== undefined && endpoint !== '') {
    const base = new URL(endpoint)
    return { base, pathPrefix: `${base.pathname.replace(/\/+$/, '')}/${uriEncode(bucket)}` }
  }
  const suffix = region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com'
  const fips = env.AWS_USE_FIPS_ENDPOINT === 'true' ? '-fips' : ''
  const dual = env.AWS_USE_DUALSTACK_ENDPOINT === 'true' ? '.dualstack' : ''
  const host = region === 'aws-global' ? `s3.${suffix}` : `s3${fips}${dual}.${region}.${suffix}`
  const hostable =
    /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/.test(bucket) && !/^\d+\.\d+\.\d+\.\d+$/.test(bucket) && !bucket.includes('--')
  return hostable
    ? { base: new URL(`https://${bucket}.${host}`), pathPrefix: '' }
    : { base: new URL(`https://${host}`), pathPrefix: `/${uriEncode(bucket)}` }
}

/** an object key in a path: each segment encoded, '/' kept (the SDK's greedy {Key+} label) */
const keyPath = (key: string): string => `/${key.split('/').map(uriEncode).join('/')}`

/** XML character data: the five predefined entities and character references */
function xmlText(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|lt|gt|amp|quot|apos);/g, (_m, e: string) =>
    e[0] === '#'
      ? String.fromCodePoint(Number.parseInt(e[1] === 'x' ? e.slice(2) : e.slice(1), e[1] === 'x' ? 16 : 10))
      : ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" } as Record<string, string>)[e]!,
  )
}
const element = (xml: string, name: string): string | undefined =>
  new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1]

/** the bodies of error answers read for their Code and Message: an error document is small */
const ERROR_BODY_LIMIT = 64 * 1024

export class S3Http {
  private readonly base: URL
  private readonly pathPrefix: string
  private readonly agent: http.Agent

  constructor(private readonly o: S3HttpOptions) {
    ;({ base: this.base, pathPrefix: this.pathPrefix } = s3Address(o.bucket, o.region, o.endpoint))
    const secure = this.base.protocol === 'https:'
    // kept-alive connections, as the SDK's handler keeps them; at most --remote-concurrency GETs are in flight
    this.agent = new (secure ? https : http).Agent({ keepAlive: true, maxSockets: 50 })
  }

  /** one page of ListObjectsV2 */
  async list(
    params: { prefix: string; maxKeys?: number | undefined; token?: string | undefined },
    signal: AbortSignal,
  ): Promise<{ objects: Array<{ key: string; size: number }>; truncated: boolean; next?: string }> {
    const query: Array<[string, string]> = [
      ['list-type', '2'],
      ['prefix', params.prefix],
    ]
    if (params.maxKeys !== undefined) query.push(['max-keys', String(params.maxKeys)])
    if (params.token !== undefined) query.push(['continuation-token', params.token])
    const res = await this.send(this.pathPrefix === '' ? '/' : this.pathPrefix, query, {}, signal)
    const xml = await text(res, Number.POSITIVE_INFINITY)
    const objects: Array<{ key: string; size: number }> = []
    for (const m of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
      const key = element(m[1]!, 'Key')
      if (key !== undefined) objects.push({ key: xmlText(key), size: Number(element(m[1]!, 'Size') ?? 0) })
    }
    const next = element(xml, 'NextContinuationToken')
    return {
      objects,
      truncated: element(xml, 'IsTruncated') === 'true',
      ...(next !== undefined ? { next: xmlText(next) } : {}),
    }
  }

  /** the body of bytes `from`..`to` (inclusive) of `key`, as a stream the caller reads */
  async get(key: string, from: number, to: number, signal: AbortSignal): Promise<IncomingMessage> {
    return await this.send(`${this.pathPrefix}${keyPath(key)}`, [], { range: `bytes=${from}-${to}` }, signal)
  }

  /** a signed GET; an answer other than 2xx is an error named by its S3 error document */
  private async send(
    path: string,
    query: Array<[string, string]>,
    headers: Record<string, string>,
    signal: AbortSignal,
  ): Promise<IncomingMessage> {
    const signed = signGet(
      { host: this.base.host, path, query, headers },
      await this.o.credentials(),
      this.o.region,
      new Date(),
    )
    const qs = query.length === 0 ? '' : `?${query.map(([k, v]) => `${uriEncode(k)}=${uriEncode(v)}`).join('&')}`
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = (this.base.protocol === 'https:' ? https : http).request(
        {
          host: this.base.hostname.replace(/^\[(.*)\]$/, '$1'),
          port: this.base.port,
          method: 'GET',
          path: path + qs,
          headers: signed,
          agent: this.agent,
          signal,
        },
        (r) => {
          clearTimeout(overall)
          clearTimeout(connect)
          resolve(r)
        },
      )
      // the SDK's names for these: a retry decides on the status, these carry none
      req.on('error', (e: NodeJS.ErrnoException) => {
        clearTimeout(overall)
        clearTimeout(connect)
        reject(
          ['ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(e.code ?? '') ? Object.assign(e, { name: 'TimeoutError' }) : e,
        )
      })
      const fail = (message: string): void => {
        const e = Object.assign(new Error(message), { name: 'TimeoutError' })
        req.destroy(e)
        reject(e)
      }
      const connect = setTimeout(
        () =>
          fail(
            `the request socket did not establish a connection with the server within the configured timeout of ${this.o.connectTimeoutMs} ms.`,
          ),
        this.o.connectTimeoutMs,
      )
      req.on('socket', (s) => {
        if (s.connecting) s.once('connect', () => clearTimeout(connect))
        else clearTimeout(connect)
      })
      const overall = setTimeout(
        () => fail(`a request has exceeded the configured ${this.o.requestTimeoutMs} ms requestTimeout.`),
        this.o.requestTimeoutMs,
      )
      req.end()
    })
    const status = res.statusCode ?? 0
    if (status >= 200 && status < 300) return res
    const body = await text(res, ERROR_BODY_LIMIT).catch(() => '')
    const code = element(body, 'Code') ?? (status === 404 ? 'NotFound' : 'Unknown')
    const message = element(body, 'Message')
    const e: S3Error = Object.assign(new Error(message !== undefined ? xmlText(message) : 'UnknownError'), {
      name: code,
      Code: code,
      $metadata: { httpStatusCode: status },
    })
    throw e
  }

  close(): void {
    this.agent.destroy()
  }
}

/** a body read as UTF-8 text, at most `limit` characters kept */
async function text(res: IncomingMessage, limit: number): Promise<string> {
  res.setEncoding('utf8')
  let s = ''
  for await (const piece of res as AsyncIterable<string>) if (s.length < limit) s += piece
  return s
}
