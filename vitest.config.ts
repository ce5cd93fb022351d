import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/broker/**', 'test/big/**', 'node_modules/**'],
    testTimeout: 60_000,
  },
})
