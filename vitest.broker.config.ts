import { defineConfig } from 'vitest/config'

// Live-broker tests: start a real Kafka (scripts/kafka/start.sh, jars from scripts/kafka/install.sh),
// so they are slow and kept out of the default `npm test`. Run with `npm run test:broker`.
export default defineConfig({
  test: {
    include: ['test/broker/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 240_000,
    fileParallelism: false,
    pool: 'forks',
  },
})
