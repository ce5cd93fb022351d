import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/broker/**', 'test/big/**', 'node_modules/**'],
    testTimeout: 60_000,
    // worker threads, bin/tsdump.js and the package run dist/: rebuilt first when src/ is newer
    globalSetup: ['test/support/build-dist.ts', 'test/support/seeds.ts'],
    // the run's fast-check seed for every property test (printed by seeds.ts)
    setupFiles: ['test/support/fc-seed.ts'],
  },
})
