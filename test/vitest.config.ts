import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The embedding example and the CLI tests run the built package: rebuild dist/ when src/ is newer.
    globalSetup: ["test/embedding/global-setup.ts", "test/support/codes-global.ts"],
    // Records the diagnostic codes tests observe; after a whole-suite run every code must have been observed.
    setupFiles: ["test/support/codes-setup.ts"],
    // Property tests and real-database tests take seconds, never minutes; benchmarks time things, tests don't.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ["default"]
  }
})
