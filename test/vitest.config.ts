import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Property tests and real-database tests take seconds, never minutes; benchmarks time things, tests don't.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ["default"]
  }
})
