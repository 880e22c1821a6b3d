/**
 * The assess, ledger and discover commands, run in-process through @effect/cli
 * with the real file system and a real SQLite store file.
 */
import { afterAll, describe, expect, it } from "vitest"
import { assessCommand } from "../../../src/cli/assess.js"
import { rootCommand } from "../../../src/cli/Cli.js"
import { discoverCommand } from "../../../src/cli/discover.js"
import { ledgerCommand } from "../../../src/cli/ledger.js"
import { runArgs } from "../../support/cli.js"
import { BASE, tempDir } from "../store/support.js"

const root = rootCommand(
  [assessCommand, ledgerCommand, discoverCommand] as unknown as Parameters<typeof rootCommand>[0]
)

const tmp = tempDir("cli")
afterAll(() => tmp.cleanup())

/** Runs the CLI in-process as the bin does; stdout and the exit code. */
const run = async (...args: ReadonlyArray<string>): Promise<{ out: string; code: number }> => {
  const r = await runArgs(root, args)
  return { out: r.out, code: r.code }
}

describe("cardfx assess", () => {
  it("prints the seed's field names in JSON and exits 0 when compatible", async () => {
    const r = await run(
      "assess",
      "--package",
      BASE,
      "--card",
      "basic_attack",
      "--apply",
      "core.ember.affinity",
      "--activity",
      "scenario",
      "--format",
      "json"
    )
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.out) as Record<string, unknown>
    expect(Object.keys(doc).sort()).toEqual([
      "changedComponentIds",
      "compositionTrace",
      "diagnostics",
      "isCompatible",
      "revision",
      "sequence",
      "step"
    ])
    expect(doc.isCompatible).toBe(true)
  })

  it("exits 1 with the diagnostic when the activity does not authorize it, and 2 on usage errors", async () => {
    const r = await run(
      "assess",
      "--package",
      BASE,
      "--card",
      "basic_attack",
      "--apply",
      "core.ember.affinity",
      "--activity",
      "journey_opportunity",
      "--format",
      "json"
    )
    expect(r.code).toBe(1)
    expect((JSON.parse(r.out) as { diagnostics: Array<{ code: string }> }).diagnostics.map((d) => d.code)).toEqual([
      "not_authorized"
    ])
    expect((await run("assess", "--package", BASE, "--card", "basic_attack")).code).toBe(2)
    expect((await run("assess", "--package", BASE, "--card", "basic_attack", "--apply", "x", "--remove", "e1")).code)
      .toBe(2)
  })
})

describe("cardfx ledger and discover", () => {
  it("applies, retries, rejects, shows, branches and replays against a store file", async () => {
    const store = `${tmp.dir}/s/ledger.db`
    const common = ["--package", BASE, "--card", "basic_attack", "--store", store, "--format", "json"]
    const emberC1 = [
      "ledger",
      "apply",
      "core.ember.affinity",
      ...common,
      "--activity",
      "scenario",
      "--command-id",
      "c1",
      "--expected-revision",
      "0"
    ]
    const a = await run(...emberC1)
    expect(a.code).toBe(0)
    const outcome = JSON.parse(a.out) as { status: string; revision: number; fingerprint: string }
    expect(outcome).toMatchObject({ status: "applied", revision: 1 })
    // the same command again is a retry: the first outcome, nothing applied twice
    const retry = await run(...emberC1)
    expect(JSON.parse(retry.out)).toEqual(outcome)
    const stale = await run("ledger", "apply", "core.sharpened_strike", ...common, "--expected-revision", "0")
    expect(stale.code).toBe(1)
    expect(stale.out).toContain("revision_conflict")
    const denied = await run("ledger", "apply", "core.sharpened_strike", ...common, "--activity", "nowhere")
    expect(denied.code).toBe(1)
    expect(denied.out).toContain("not_authorized")
    const show = JSON.parse(
      (await run("ledger", "show", "--card", "basic_attack", "--store", store, "--format", "json")).out
    ) as { revision: number; fingerprint: string }
    expect(show).toMatchObject({ revision: 1, fingerprint: outcome.fingerprint })
    expect((await run("ledger", "branch", "trial", "--store", store)).code).toBe(0)
    const onBranch = await run(
      "ledger",
      "replace",
      "e1",
      "--with",
      "core.ember.affinity",
      ...common,
      "--branch",
      "trial",
      "--activity",
      "scenario"
    )
    expect(onBranch.code).toBe(0)
    const history = JSON.parse(
      (await run(
        "ledger",
        "history",
        "--card",
        "basic_attack",
        "--branch",
        "trial",
        "--store",
        store,
        "--format",
        "json"
      )).out
    ) as { events: Array<unknown> }
    expect(history.events.length).toBe(2)
    // An instance's branches, as over HTTP: main first, then the forks it is visible on.
    const listed = await run("ledger", "branch", "--instance", "basic_attack", "--store", store, "--format", "json")
    expect(JSON.parse(listed.out)).toEqual({
      branches: [
        { name: "main", parent: null, forkSequence: 0 },
        { name: "trial", parent: "main", forkSequence: 1 }
      ]
    })
    const ghost = await runArgs(root, ["ledger", "branch", "--instance", "ghost", "--store", store])
    expect([ghost.code, ghost.all.includes("unknown_instance")]).toEqual([1, true])
    expect((await run("ledger", "branch", "other", "--instance", "basic_attack", "--store", store)).code).toBe(2)
    expect((await run("ledger", "replay", "--store", store)).code).toBe(0)
    expect((await run("ledger", "branch", "trial", "--discard", "--store", store)).code).toBe(0)
    expect((await run("ledger", "branch", "trial", "--discard", "--store", store)).code).toBe(1)
    // assess and discover read the stored instance
    const assessed = await run(
      "assess",
      "--package",
      BASE,
      "--card",
      "basic_attack",
      "--store",
      store,
      "--apply",
      "core.ember.affinity",
      "--activity",
      "scenario",
      "--format",
      "json"
    )
    expect(assessed.code).toBe(1)
    expect(JSON.parse(assessed.out)).toMatchObject({ isCompatible: false, revision: 1, sequence: 1, step: 2 })
    const found = JSON.parse(
      (await run(
        "discover",
        "--package",
        BASE,
        "--card",
        "basic_attack",
        "--store",
        store,
        "--activity",
        "scenario",
        "--format",
        "json"
      )).out
    ) as {
      offers: Array<{ upgradeId: string; assessment: { isCompatible: boolean; diagnostics: Array<{ code: string }> } }>
    }
    expect(found.offers[0]?.assessment.diagnostics.map((d) => d.code)).toContain("slot_full")
    expect(
      (await run(
        "discover",
        "--package",
        BASE,
        "--card",
        "basic_attack",
        "--store",
        store,
        "--ledger",
        "x.json",
        "--activity",
        "scenario"
      )).code
    ).toBe(2)
    const removed = await run("ledger", "remove", "e1", ...common, "--activity", "scenario")
    expect(removed.code).toBe(0)
  })

  it("discover lists every transformation with its assessment", async () => {
    const r = await run(
      "discover",
      "--package",
      BASE,
      "--card",
      "basic_attack",
      "--activity",
      "scenario",
      "--format",
      "json"
    )
    expect(r.code).toBe(0)
    const d = JSON.parse(r.out) as { offers: Array<{ upgradeId: string; assessment: { isCompatible: boolean } }> }
    expect(d.offers.map((o) => [o.upgradeId, o.assessment.isCompatible])).toEqual([
      ["core.ember.affinity", true],
      ["core.sharpened_strike", true]
    ])
    const human = await run(
      "discover",
      "--package",
      BASE,
      "--card",
      "basic_attack",
      "--activity",
      "journey_opportunity"
    )
    expect(human.out).toContain("not_authorized")
    // --activity defaults to canonical_command, as for assess and ledger.
    expect((await run("discover", "--package", BASE, "--card", "basic_attack")).code).toBe(0)
    expect((await run("discover", "--package", BASE, "--card", "no_such_card")).code).toBe(1)
  })
})
