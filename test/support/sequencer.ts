/**
 * The order files start in: the slowest first (longest-processing-time
 * first), so that the two workers end together instead of one running a
 * 40–90 s file alone while the other's core idles. Vitest's own order, on a
 * clean clone with no results cache (CI), is by file size, which put the
 * crash-kill, signals, memory and Ajv-agreement files (small files, 30–90 s
 * each) last.
 *
 * The weights are the files' wall times in seconds from a whole-suite run
 * (CI, 2026-12-02); a stale weight costs only time, never a result. Files not
 * listed keep vitest's order after the listed ones. Add a file here when it
 * takes more than ~5 s.
 */
import type { TestSpecification } from "vitest/node"
import { BaseSequencer } from "vitest/node"

const seconds: Readonly<Record<string, number>> = {
  "test/workbench/workbench.test.ts": 90,
  "test/tooling/package.test.ts": 90,
  "test/tooling/clone.test.ts": 84,
  "test/scale/workers.test.ts": 90,
  "test/composition/store/kill.test.ts": 89,
  "test/scale/signals.test.ts": 85,
  "test/cli/contract.test.ts": 85,
  "test/composition/store/ledger-cli.test.ts": 79,
  "test/server/reload-bin.test.ts": 63,
  "test/cli/cli.test.ts": 46,
  "test/composition/store/memory.test.ts": 39,
  "test/scale/cluster-load.test.ts": 38,
  "test/scale/cluster.test.ts": 31,
  "test/composition/schema/ajv-agreement.test.ts": 30,
  "test/server/restart.test.ts": 28,
  "test/server/trust.test.ts": 16,
  "test/server/two-servers.test.ts": 11,
  "test/scale/tournament.test.ts": 11,
  "test/workbench/live.test.ts": 10,
  "test/scale/cluster-auth.test.ts": 7,
  "test/scale/serve-workers.test.ts": 6,
  "test/server/computer-seats.test.ts": 6,
  "test/server/seats.test.ts": 23,
  "test/workbench/balance.test.ts": 21,
  "test/server/lifecycle.test.ts": 21,
  "test/composition/store/bounded.test.ts": 21,
  "test/composition/store/model.test.ts": 15,
  "test/embedding/README-snippets.test.ts": 14,
  "test/workbench/model.test.ts": 13,
  "test/embedding/public-surface.test.ts": 13,
  "test/composition/store/pg.test.ts": 12,
  "test/server/drain.test.ts": 11,
  "test/fuzz/fuzz.test.ts": 11,
  "test/server/api.test.ts": 10,
  "test/composition/store/batch.test.ts": 10,
  "test/api/openapi.test.ts": 9,
  "test/tooling/lsp.test.ts": 8,
  "test/composition/store/guarantees.test.ts": 8,
  "test/tooling/json-schemas.test.ts": 7,
  "test/hallyu/engine-golden.test.ts": 6,
  "test/api/fuzz.test.ts": 6,
  "test/server/hardening.test.ts": 6,
  "test/composition/planner/agreement.test.ts": 6,
  "test/scale/split.test.ts": 5,
  "test/server/protect-reads.test.ts": 5
}

/** The weight of a file: its listed seconds, else 0 (after every listed file). */
const weightOf = (root: string, spec: TestSpecification): number => {
  const path = spec.moduleId.startsWith(`${root}/`) ? spec.moduleId.slice(root.length + 1) : spec.moduleId
  return seconds[path] ?? 0
}

export class SlowestFirst extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const base = await super.sort(files)
    const root = this.ctx.config.root
    // Array.prototype.sort is stable: equal weights (the unlisted files) keep vitest's order.
    return [...base].sort((a, b) => weightOf(root, b) - weightOf(root, a))
  }
}
