import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The embedding example and the CLI tests run the built package: rebuild dist/ when src/ is newer.
    globalSetup: ["test/embedding/global-setup.ts"],
    // Property tests and real-database tests take seconds, never minutes; benchmarks time things, tests don't.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ["default"]
  }
})
