import { defineConfig } from 'vitest/config'

// The big hostile cases of issue #14 (a 512 MiB batch, ...): inputs built on the fly under the temp
// directory (sparse where possible) and deleted after; slow, so kept out of `npm test`. `npm run test:big`.
export default defineConfig({
  test: {
    include: ['test/big/**/*.test.ts'],
    testTimeout: 600_000,
    // the hooks build and delete inputs of thousands of files: minutes on a loaded machine, not vitest's 10 s
    hookTimeout: 600_000,
    fileParallelism: false,
    pool: 'forks',
  },
})
