// AWS Signature Version 4 for S3 GETs with no body, as the AWS documentation specifies it ("Signature Version 4
// signing process", https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html, and for S3
// "Authenticating Requests: Using the Authorization Header",
// https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html): a canonical request, the string to
// sign over its SHA-256, and an HMAC-SHA256 key derived from the secret, the day, the region and the service.
// S3 differs from the other services in two ways kept here: the path is URI-encoded once (not twice), and the
// payload's hash is sent in x-amz-content-sha256 and signed.
import crypto from 'node:crypto'

export interface S3Credentials {
  accessKeyId: string
  secretAccessKey: string
  sessionToken?: string | undefined
}

/** the SHA-256 of an empty payload (every request here is a GET) */
export const EMPTY_PAYLOAD_SHA256 = crypto.createHash('sha256').update('').digest('hex')

/** RFC 3986 unreserved characters kept, everything else percent-encoded in upper case (the spec's UriEncode) */
export function uriEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}

/** the canonical query string: names and values encoded, sorted by name (then value) */
export function canonicalQuery(query: ReadonlyArray<readonly [string, string]>): string {
  return query
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&')
}

const hmac = (key: crypto.BinaryLike, data: string): Buffer => crypto.createHmac('sha256', key).update(data).digest()

/** `20130524T000000Z`: the request's time as x-amz-date carries it */
export function amzDate(when: Date): string {
  return when
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')
}

/**
 * The headers to send with a GET of `path` (already URI-encoded, '/' kept) and `query`: the given ones (lower-case
 * names) with host, x-amz-date, x-amz-content-sha256, x-amz-security-token (temporary credentials) and authorization.
 * Every header sent is signed.
 */
export function signGet(
  request: {
    host: string
    path: string
    query: ReadonlyArray<readonly [string, string]>
    headers: Record<string, string>
  },
  credentials: S3Credentials,
  region: string,
  when: Date,
): Record<string, string> {
  const date = amzDate(when)
  const day = date.slice(0, 8)
  const headers: Record<string, string> = {
    ...request.headers,
    host: request.host,
    'x-amz-content-sha256': EMPTY_PAYLOAD_SHA256,
    'x-amz-date': date,
  }
  if (credentials.sessionToken !== undefined && credentials.sessionToken !== '')
    headers['x-amz-security-token'] = credentials.sessionToken
  const names = Object.keys(headers).sort()
  const canonicalHeaders = names.map((n) => `${n}:${headers[n]!.trim().replace(/\s+/g, ' ')}\n`).join('')
  const signedHeaders = names.join(';')
  const canonicalRequest = [
    'GET',
    request.path,
    canonicalQuery(request.query),
    canonicalHeaders,
    signedHeaders,
    EMPTY_PAYLOAD_SHA256,
  ].join('\n')
  const scope = `${day}/${region}/s3/aws4_request`
  const stringToSign = [
    'AWS4-HMAC-SHA256',
    date,
    scope,
    crypto.createHash('sha256').update(canonicalRequest).digest('hex'),
  ].join('\n')
  const key = hmac(hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, day), region), 's3'), 'aws4_request')
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${hmac(key, stringToSign).toString('hex')}`
  return headers
}
