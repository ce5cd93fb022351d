// s3-sigv4.ts and s3-http.ts's addressing against truth from outside tsdump: the signatures AWS's documentation
// publishes for its S3 examples, the SDK's own signer (@smithy/signature-v4, which @aws-sdk/client-s3 brings), and
// the host and path the SDK's S3Client resolves for a bucket, a region and an endpoint.
import crypto from 'node:crypto'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { s3Address } from '../../src/io/remote/s3-http.js'
import { EMPTY_PAYLOAD_SHA256, signGet } from '../../src/io/remote/s3-sigv4.js'

const require = createRequire(import.meta.url)
/** the SDK's module, or null when the optional dependency is not installed */
function sdk<T>(name: string): T | null {
  try {
    const s3 = createRequire(require.resolve('@aws-sdk/client-s3'))
    return (name === '@aws-sdk/client-s3' ? require(name) : s3(name)) as T
  } catch {
    return null
  }
}

// https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html ("Examples")
const DOC_CREDENTIALS = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
}
const DOC_TIME = new Date(Date.UTC(2013, 4, 24, 0, 0, 0))

describe('SigV4 as AWS documents it', () => {
  it('GET Object with a Range: the documented signature', () => {
    const h = signGet(
      { host: 'examplebucket.s3.amazonaws.com', path: '/test.txt', query: [], headers: { range: 'bytes=0-9' } },
      DOC_CREDENTIALS,
      'us-east-1',
      DOC_TIME,
    )
    expect(h['x-amz-content-sha256']).toBe(EMPTY_PAYLOAD_SHA256)
    expect(h.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    )
  })

  it('GET Bucket (a listing with a query): the documented signature', () => {
    const h = signGet(
      {
        host: 'examplebucket.s3.amazonaws.com',
        path: '/',
        query: [
          ['prefix', 'J'],
          ['max-keys', '2'],
        ],
        headers: {},
      },
      DOC_CREDENTIALS,
      'us-east-1',
      DOC_TIME,
    )
    expect(h.authorization).toMatch(/Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7$/)
  })
})

describe("SigV4 as the SDK's signer computes it", () => {
  type Signer = {
    SignatureV4: new (
      o: unknown,
    ) => {
      sign: (r: unknown, o: unknown) => Promise<{ headers: Record<string, string> }>
    }
  }
  const smithy = sdk<Signer>('@smithy/signature-v4')
  /** the hash the signer is given (@smithy/hash-node's, which the SDK brings, in a few lines of node:crypto) */
  class Sha256 {
    private readonly h: crypto.Hash | crypto.Hmac
    constructor(secret?: crypto.BinaryLike) {
      this.h = secret === undefined ? crypto.createHash('sha256') : crypto.createHmac('sha256', secret)
    }
    update(data: crypto.BinaryLike): void {
      this.h.update(data)
    }
    async digest(): Promise<Uint8Array> {
      return new Uint8Array(this.h.digest())
    }
  }

  const cases: Array<{ what: string; path: string; query: Array<[string, string]>; headers: Record<string, string> }> =
    [
      {
        what: 'a ranged GET of a key with spaces, parentheses and non-ASCII',
        path: '/bucket/t%20%28x%29/%C3%A9t%C3%A9%2A/00000000000000000009-zw47iivYQIWEaW4Ax5y0nA.log',
        query: [],
        headers: { range: 'bytes=2097152-4194303' },
      },
      {
        what: 'a listing page with a continuation token',
        path: '/bucket',
        query: [
          ['list-type', '2'],
          ['prefix', 'kafka-tiered-storage/a b/'],
          ['continuation-token', '1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=+x'],
          ['max-keys', '1000'],
        ],
        headers: {},
      },
    ]
  for (const c of cases)
    it(`${c.what}, with a session token`, async (ctx) => {
      if (smithy === null) return ctx.skip()
      const credentials = { ...DOC_CREDENTIALS, sessionToken: 'FwoGZXIvYXdzE//session+token=' }
      const when = new Date(Date.UTC(2026, 11, 7, 15, 4, 5))
      const ours = signGet({ host: '127.0.0.1:9000', ...c }, credentials, 'eu-west-3', when)
      const signer = new smithy.SignatureV4({
        credentials,
        region: 'eu-west-3',
        service: 's3',
        sha256: Sha256,
        uriEscapePath: false,
        applyChecksum: true,
      })
      const theirs = await signer.sign(
        {
          method: 'GET',
          protocol: 'http:',
          hostname: '127.0.0.1',
          port: 9000,
          path: c.path,
          query: Object.fromEntries(c.query),
          headers: { ...c.headers, host: '127.0.0.1:9000', 'x-amz-content-sha256': EMPTY_PAYLOAD_SHA256 },
        },
        { signingDate: when },
      )
      expect(ours.authorization).toBe(theirs.headers.authorization)
      expect(ours['x-amz-security-token']).toBe(credentials.sessionToken)
    })
})

describe("the address the SDK's S3Client chooses", () => {
  type S3 = {
    S3Client: new (
      o: unknown,
    ) => {
      middlewareStack: { add: (m: unknown, o: unknown) => void }
      send: (c: unknown) => Promise<unknown>
    }
    GetObjectCommand: new (i: unknown) => unknown
  }
  const s3 = sdk<S3>('@aws-sdk/client-s3')

  /** the hostname, port and path the SDK would send a GET of `key` to (the request captured before it is sent) */
  async function sdkAddress(bucket: string, region: string, endpoint?: string): Promise<string> {
    const client = new s3!.S3Client({
      region,
      credentials: DOC_CREDENTIALS,
      ...(endpoint !== undefined ? { endpoint, forcePathStyle: true } : {}),
    })
    let seen = ''
    client.middlewareStack.add(
      () => async (args: { request: { protocol: string; hostname: string; port?: number; path: string } }) => {
        const r = args.request
        seen = `${r.protocol}//${r.hostname}${r.port !== undefined ? `:${r.port}` : ''}${r.path}`
        throw new Error('captured')
      },
      { step: 'finalizeRequest', priority: 'low' },
    )
    await client.send(new s3!.GetObjectCommand({ Bucket: bucket, Key: 'a b/c+d/é.log' })).catch(() => {})
    return seen
  }
  const ours = (bucket: string, region: string, endpoint?: string): string => {
    const a = s3Address(bucket, region, endpoint, {})
    return `${a.base.protocol}//${a.base.host}${a.pathPrefix}/a%20b/c%2Bd/%C3%A9.log`
  }

  for (const [bucket, region, endpoint] of [
    ['tsdump-test', 'us-east-1', undefined],
    ['tiered', 'eu-west-3', undefined],
    ['my.dotted.bucket', 'eu-west-1', undefined],
    ['Upper_Case', 'us-west-2', undefined],
    ['tiered', 'cn-north-1', undefined],
    ['tsdump-test', 'us-east-1', 'http://127.0.0.1:9000'],
    ['tsdump-test', 'eu-west-3', 'https://minio.example:8443/s3/'],
  ] as const)
    it(`${bucket} in ${region}${endpoint !== undefined ? ` at ${endpoint}` : ''}`, async (ctx) => {
      if (s3 === null) return ctx.skip()
      expect(ours(bucket, region, endpoint)).toBe(await sdkAddress(bucket, region, endpoint))
    })
})
