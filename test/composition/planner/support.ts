/** Planner test support: the base runtime extended with test transformations and a `lab` activity. */
import type { Runtime } from "../../../src/composition/Runtime.js"
import type { Activity } from "../../../src/composition/schema/Package.js"
import type { Transformation } from "../../../src/composition/schema/Transformation.js"

/** Transformations that exercise requirements, dependencies, exclusions and slots. */
export const TEST_TRANSFORMATIONS: ReadonlyArray<Transformation> = [
  {
    upgradeId: "test.needs_ember",
    category: "Test",
    eligibility: { cardIds: ["basic_attack"] },
    requirements: { requiredTags: ["ember_affinity"] },
    patches: [{ op: "addNumber", componentId: "strike", field: "amount", value: 1 }]
  },
  {
    upgradeId: "test.rival",
    category: "Test",
    excludes: ["core.sharpened_strike"],
    patches: [{ op: "addTags", tags: ["rival"] }]
  },
  { upgradeId: "test.blocked", category: "Test", requirements: { requiredTags: ["never_there"] } },
  {
    upgradeId: "test.alt_affinity",
    category: "Affinity",
    slotId: "affinity",
    patches: [{ op: "addTags", tags: ["alt"] }]
  }
]

const LAB: Activity = { activityId: "lab", authorizes: { categories: ["Affinity", "Refinement", "Test"] } }

/** The runtime plus the test transformations and the `lab` activity (authorizing by category). */
export const extendRuntime = (runtime: Runtime): Runtime => ({
  ...runtime,
  transformations: new Map([...runtime.transformations, ...TEST_TRANSFORMATIONS.map((t) => [t.upgradeId, t] as const)]),
  activities: new Map([...runtime.activities, ["lab", LAB] as const])
})
