import { defineConfig } from "vitest/config"
import { SlowestFirst } from "./support/sequencer.js"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The embedding example and the CLI tests run the built package: rebuild dist/ when src/ is newer.
    globalSetup: ["test/embedding/global-setup.ts", "test/support/codes-global.ts"],
    // Records the diagnostic codes tests observe; after a whole-suite run every code must have been observed.
    setupFiles: ["test/support/codes-setup.ts"],
    // Property tests and real-database tests take seconds, never minutes; benchmarks time things, tests don't.
    testTimeout: 60_000,
    // Two files at a time: vitest's default (cores − 1) runs files one by one on a 2-core machine, while most of
    // the slow files wait on child processes (the bin, servers, writers, runners) and leave a core idle.
    maxWorkers: 2,
    // Files share their worker's module cache: loading effect and the engine once per worker, not once per file,
    // took the suite's collect time from ~220 s to ~30 s. The setup file resets what a file could leave behind
    // (fast-check's global settings, the current test's name); no test mocks modules or stubs globals.
    isolate: false,
    minWorkers: 1,
    // The slowest files start first, so that the two workers end together (test/support/sequencer.ts).
    sequence: { sequencer: SlowestFirst },
    hookTimeout: 60_000,
    reporters: ["default"]
  }
})
