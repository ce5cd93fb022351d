// The credentials the S3 I/O thread signs with: the AWS SDK's default chain (environment, shared files, SSO, web
// identity, container and instance metadata), from @aws-sdk/credential-provider-node, which comes with the optional
// @aws-sdk/client-s3 and is loaded from beside it (the rest of the SDK is not loaded: s3-http.ts does the requests).
import { createRequire } from 'node:module'
import type { S3Credentials } from './s3-sigv4.js'

type Provider = () => Promise<S3Credentials & { expiration?: Date }>

/** a provider of the default chain, or why there is none (as the SDK's absence has always been told) */
export function defaultCredentials(): Provider | Error {
  try {
    const here = createRequire(import.meta.url)
    const fromS3 = createRequire(here.resolve('@aws-sdk/client-s3'))
    const { defaultProvider } = fromS3('@aws-sdk/credential-provider-node') as {
      defaultProvider: (init: Record<string, never>) => Provider
    }
    // the chain S3Client uses when given no credentials; memoised: it resolves once, and again only when temporary
    // credentials are about to expire
    return defaultProvider({})
  } catch (e) {
    return Object.assign(
      new Error(`@aws-sdk/client-s3 could not be loaded (npm install @aws-sdk/client-s3): ${(e as Error).message}`),
      { name: 'SdkMissing' },
    )
  }
}
