/**
 * The CLI contract, through the built bin users run (`node dist/cli/cardfx.mjs`),
 * over a table of mistakes: for each, the exit code, one line naming the
 * problem on the right stream (stderr in human format; one JSON document on
 * stdout with `--format json`), no stack trace, and an answer in under 5 s.
 * Rows run two at a time from a working folder outside the repository (so
 * defaults must resolve from the installed package).
 */
import { spawn } from "node:child_process"
import { execFileSync } from "node:child_process"
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { describe, expect, it } from "vitest"

const bin = resolve("dist/cli/cardfx.mjs")
const repo = resolve(".")
const P = join(repo, "data/heroscript.base")
const ember = join(repo, "data/scenarios/ember-affinity.scenario.json")

const tmp = mkdtempSync(join(tmpdir(), "cardfx-contract-"))
const fifo = join(tmp, "fifo.json")
execFileSync("mkfifo", [fifo])
const aFile = join(tmp, "a-file.txt")
writeFileSync(aFile, "x")
const scenario = JSON.parse(readFileSync(ember, "utf8")) as {
  packages: Array<string>
  steps: Array<{ card?: string }>
  ledgers: Record<string, Record<string, Array<string>>>
}
const missingPackage = join(tmp, "missing-package.scenario.json")
writeFileSync(missingPackage, JSON.stringify({ ...scenario, packages: ["./no-such-package"] }, null, 2))
const unknownCard = join(tmp, "unknown-card.scenario.json")
writeFileSync(
  unknownCard,
  JSON.stringify(
    { ...scenario, packages: [P], steps: scenario.steps.map((s, i) => (i === 1 ? { ...s, card: "no_such_card" } : s)) },
    null,
    2
  )
)
const unknownUpgrade = join(tmp, "unknown-upgrade.scenario.json")
writeFileSync(
  unknownUpgrade,
  JSON.stringify({ ...scenario, packages: [P], ledgers: { hero: { basic_attack: ["no.such.upgrade"] } } }, null, 2)
)
// A package holding a FIFO, a dangling link and a link loop: each is a diagnostic, never skipped silently.
const oddPackage = join(tmp, "odd")
mkdirSync(oddPackage)
for (const f of ["manifest.json", "cards.json", "statuses.json", "transformations.json", "sources.json"]) {
  writeFileSync(join(oddPackage, f), readFileSync(join(P, f)))
}
execFileSync("mkfifo", [join(oddPackage, "pipe.json")])
symlinkSync(join(tmp, "nowhere.json"), join(oddPackage, "dangling.json"))
symlinkSync(join(oddPackage, "loop-b"), join(oddPackage, "loop-a"))
symlinkSync(join(oddPackage, "loop-a"), join(oddPackage, "loop-b"))
// heroscript.base with a second locale file that gives card.heal.name another text: duplicate_id, located.
const dupNames = join(tmp, "dup-names")
mkdirSync(dupNames)
for (const f of readdirSync(P)) writeFileSync(join(dupNames, f), readFileSync(join(P, f)))
writeFileSync(
  join(dupNames, "names.more.json"),
  `{\n  "locales": [{ "locale": "en", "names": { "card.heal.name": "Mend" } }]\n}\n`
)
const store = join(tmp, "ledger.db")
const absentStore = join(tmp, "absent", "ledger.db")

interface Row {
  readonly args: ReadonlyArray<string>
  readonly code: number
  /** What the one line (or the JSON document's first diagnostic message, with its code) must match. */
  readonly says: RegExp
  /** The diagnostic lines expected on stderr (validate reports several); 1 by default. */
  readonly lines?: number
}

const json = (args: ReadonlyArray<string>) => [...args, "--format", "json"]

const rows: ReadonlyArray<Row> = [
  // ---- commands and subcommands
  { args: [], code: 2, says: /usage_error missing command; commands: validate/ },
  { args: ["valdate", "x"], code: 2, says: /unknown command 'valdate'; did you mean validate\?/ },
  { args: ["nope"], code: 2, says: /unknown command 'nope'; commands: validate, schema/ },
  { args: ["--bogus"], code: 2, says: /unknown option --bogus/ },
  { args: ["ledger"], code: 2, says: /missing ledger subcommand; ledger subcommands: apply, remove, replace/ },
  { args: ["ledger", "nope"], code: 2, says: /unknown ledger subcommand 'nope'; ledger subcommands: apply/ },
  { args: ["ledger", "aply"], code: 2, says: /unknown ledger subcommand 'aply'; did you mean apply\?/ },
  { args: ["hhx"], code: 2, says: /missing hhx subcommand; hhx subcommands: explain/ },
  { args: ["hhx", "explian", "HHX-PROTO-001"], code: 2, says: /did you mean explain\?; hhx subcommands: explain/ },
  // ---- validate
  { args: ["validate"], code: 2, says: /missing argument PATH/ },
  { args: ["validate", P, "--fromat", "json"], code: 2, says: /unknown option --fromat; did you mean --format\?/ },
  {
    args: ["validate", P, "--format", "xml"],
    code: 2,
    says: /--format must be one of human, json, github, sarif, got 'xml'/
  },
  { args: ["validate", P, "--format=xml"], code: 2, says: /--format must be one of/ },
  { args: ["validate", "--bogus"], code: 2, says: /unknown option --bogus/ },
  {
    args: ["validate", "/no/such/path"],
    code: 1,
    says: /file_unreadable cannot read \/no\/such\/path: no such file or folder$/
  },
  { args: ["validate", fifo], code: 1, says: /file_unreadable .*not a regular file/ },
  {
    args: ["validate", missingPackage],
    code: 1,
    says:
      /missing-package\.scenario\.json:\d+:\d+ file_unreadable the scenario's package folder \.\/no-such-package does not exist/
  },
  {
    args: ["validate", unknownCard],
    code: 1,
    says: /unknown-card\.scenario\.json:\d+:\d+ unknown_card no card "no_such_card"/
  },
  {
    args: ["validate", unknownUpgrade],
    code: 1,
    says: /unknown-upgrade\.scenario\.json:\d+:\d+ unknown_transformation no transformation "no\.such\.upgrade"/
  },
  {
    args: ["validate", oddPackage],
    code: 1,
    says: /dangling symbolic link|symbolic link loop|not a regular file/,
    lines: 4
  },
  {
    args: ["validate", dupNames],
    code: 1,
    says: /names\.more\.json:2:62 duplicate_id name "card\.heal\.name" \(en\) is already "Heal" in .*locales\.en\.json/
  },
  { args: json(["validate", unknownCard]), code: 1, says: /unknown_card/ },
  // ---- schema
  { args: ["schema"], code: 2, says: /missing option --out DIR/ },
  { args: ["schema", "--out"], code: 2, says: /--out needs a value/ },
  { args: ["schema", "--out", "/proc/cardfx-x"], code: 1, says: /file_unwritable cannot write \/proc\/cardfx-x/ },
  {
    args: ["schema", "--out", "/no/such/parent/dir"],
    code: 1,
    says: /file_unwritable .*the folder \/no\/such\/parent does not exist/
  },
  { args: ["schema", "--out", aFile], code: 2, says: /--out .*a-file\.txt is a file; give a folder/ },
  { args: json(["schema", "--out", aFile]), code: 2, says: /usage_error/ },
  // ---- start
  { args: ["start", "a", "b"], code: 2, says: /unexpected argument 'b'/ },
  // ---- inspect / assess / discover: the same mistakes, the same treatment
  { args: ["inspect", "--card", "x"], code: 2, says: /missing option --package DIR/ },
  { args: ["inspect", "--package", P], code: 2, says: /missing option --card/ },
  { args: ["inspect", "--package", P, "--card", "nope"], code: 1, says: /unknown_card no card nope is published/ },
  { args: json(["inspect", "--package", P, "--card", "nope"]), code: 1, says: /unknown_card/ },
  {
    args: ["inspect", "--package", P, "--card", "basic_attack", "--ledger", "/no/such.json"],
    code: 1,
    says: /file_unreadable cannot read \/no\/such\.json: no such file or folder$/
  },
  {
    args: ["inspect", "--package", P, "--card", "basic_attack", "--with", "no.such"],
    code: 1,
    says: /unknown_transformation/
  },
  {
    args: ["inspect", "--package", P, "--card", "basic_attack", "--wiht", "x"],
    code: 2,
    says: /unknown option --wiht; did you mean --with\?/
  },
  {
    args: ["assess", "--package", P, "--card", "nope", "--apply", "core.ember.affinity"],
    code: 1,
    says: /unknown_card no card nope is published/
  },
  {
    args: ["assess", "--package", P, "--card", "basic_attack"],
    code: 2,
    says: /give exactly one of --apply, --remove or --replace/
  },
  {
    args: ["assess", "--package", P, "--card", "basic_attack", "--apply", "a", "--remove", "b"],
    code: 2,
    says: /exactly one of/
  },
  {
    args: ["assess", "--package", P, "--card", "basic_attack", "--aply", "x"],
    code: 2,
    says: /unknown option --aply; did you mean --apply\?/
  },
  {
    // a query only reads: the missing store is reported, not created (checked below)
    args: [
      "assess",
      "--package",
      P,
      "--card",
      "basic_attack",
      "--apply",
      "core.ember.affinity",
      "--store",
      absentStore
    ],
    code: 1,
    says: /store_not_found/
  },
  {
    args: ["discover", "--package", P, "--card", "basic_attack", "--store", absentStore],
    code: 1,
    says: /store_not_found/
  },
  { args: ["discover", "--package", P, "--card", "nope"], code: 1, says: /unknown_card no card nope is published/ },
  { args: json(["discover", "--package", P, "--card", "nope"]), code: 1, says: /unknown_card/ },
  {
    args: ["discover", "--package", P, "--card", "basic_attack", "--ledger", "x", "--store", "y"],
    code: 2,
    says: /give --ledger or --store, not both/
  },
  // ---- run
  { args: ["run"], code: 2, says: /missing argument SCENARIO/ },
  { args: ["run", "/dev/zero"], code: 1, says: /file_unreadable cannot read \/dev\/zero: not a regular file/ },
  { args: ["run", fifo], code: 1, says: /file_unreadable .*fifo\.json: not a regular file/ },
  {
    args: ["run", "/no/such.json"],
    code: 1,
    says: /file_unreadable cannot read \/no\/such\.json: no such file or folder$/
  },
  { args: ["run", ember, "--seed", "abc"], code: 2, says: /--seed expects an integer, got 'abc'/ },
  { args: ["run", ember, "--times", "0"], code: 2, says: /--times must be at least 1, got 0/ },
  { args: ["run", ember, "--times"], code: 2, says: /--times needs a value \(N\)/ },
  { args: ["run", missingPackage], code: 1, says: /:\d+:\d+ file_unreadable the scenario's package folder/ },
  {
    args: ["run", unknownCard],
    code: 1,
    says: /unknown-card\.scenario\.json:\d+:\d+ unknown_card no card "no_such_card"/
  },
  { args: json(["run", unknownCard]), code: 1, says: /unknown_card/ },
  { args: json(["run", ember, "--times", "0"]), code: 2, says: /usage_error/ },
  // ---- hhx explain
  { args: ["hhx", "explain"], code: 2, says: /missing argument CARD_CODE/ },
  { args: ["hhx", "explain", "HHX-PROTO-999"], code: 1, says: /unknown_card no card with code or ID HHX-PROTO-999/ },
  {
    args: ["hhx", "explain", "HHX-PROTO-001", "--deck", "/no/such.json"],
    code: 1,
    says: /file_unreadable cannot read \/no\/such\.json: no such file or folder$/
  },
  { args: ["hhx", "explain", "HHX-PROTO-001", "--deck", "/dev/zero"], code: 1, says: /not a regular file/ },
  // ---- simulate
  { args: ["simulate", "--games", "0"], code: 2, says: /--games must be at least 1, got 0/ },
  { args: ["simulate", "--games", "-1"], code: 2, says: /--games must be at least 1, got -1/ },
  { args: ["simulate", "--games", "abc"], code: 2, says: /--games expects an integer, got 'abc'/ },
  { args: ["simulate", "--games", "1e6"], code: 2, says: /--games expects an integer, got '1e6'/ },
  { args: ["simulate", "--seed", "abc"], code: 2, says: /--seed expects an integer, got 'abc'/ },
  { args: ["simulate", "--games", "2", "--games", "3"], code: 2, says: /--games is given more than once/ },
  {
    args: ["simulate", "--games", "1", "--log", "/no/dir/x.log"],
    code: 1,
    says: /file_unwritable cannot write \/no\/dir\/x\.log: the folder \/no\/dir does not exist/
  },
  { args: ["simulate", "--games", "1", "--log", tmp], code: 2, says: /--log .* is a folder; give a file/ },
  { args: ["simulate", "--deck", "/dev/zero"], code: 1, says: /not a regular file/ },
  { args: json(["simulate", "--games", "0"]), code: 2, says: /usage_error/ },
  { args: json(["simulate", "--games", "1", "--log", "/no/dir/x.log"]), code: 1, says: /file_unwritable/ },
  // ---- replay
  { args: ["replay"], code: 2, says: /missing argument LOG/ },
  { args: ["replay", "/no/such.json"], code: 1, says: /no such file or folder$/ },
  { args: ["replay", fifo], code: 1, says: /not a regular file/ },
  { args: ["replay", aFile], code: 1, says: /json_syntax/ },
  // ---- fuzz
  {
    args: ["fuzz", "--only", "bogus"],
    code: 2,
    says: /--only bogus names no property; properties: composition\.valid/
  },
  { args: ["fuzz", "--runs", "0"], code: 2, says: /--runs must be at least 1, got 0/ },
  { args: ["fuzz", "--seed", "abc"], code: 2, says: /--seed expects an integer, got 'abc'/ },
  { args: json(["fuzz", "--runs", "0"]), code: 2, says: /usage_error/ },
  // ---- ledger
  { args: ["ledger", "show"], code: 2, says: /missing option --card/ },
  { args: ["ledger", "apply", "--package", P, "--card", "basic_attack"], code: 2, says: /missing argument UPGRADE_ID/ },
  {
    args: ["ledger", "apply", "X", "--package", P, "--card", "basic_attack", "--expected-revision", "abc"],
    code: 2,
    says: /--expected-revision expects an integer/
  },
  {
    args: ["ledger", "show", "--card", "x", "--stor", store],
    code: 2,
    says: /unknown option --stor; did you mean --store\?/
  },
  { args: ["ledger", "branch", "--discard", "--store", store], code: 2, says: /--discard needs a branch NAME/ },
  {
    args: ["ledger", "replay", "--format", "yaml", "--store", store],
    code: 2,
    says: /--format must be one of human, json/
  },
  { args: json(["ledger", "nope"]), code: 2, says: /usage_error/ }
]

interface Ran {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
  /** CPU seconds (user + system) when /usr/bin/time is there, else wall-clock seconds. */
  readonly seconds: number
}

/**
 * The time a row takes is the child's CPU time (user + system, from
 * /usr/bin/time): a hang or a runaway read shows up as CPU, while a machine
 * shared by many builds only stretches wall-clock time. Without
 * /usr/bin/time, wall-clock time is used. A child still running after 60 s
 * wall-clock is killed (and fails the row).
 */
const timeBin = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined
let runs = 0

const run = (args: ReadonlyArray<string>): Promise<Ran> =>
  new Promise((done) => {
    const start = performance.now()
    const timing = join(tmp, `time-${runs++}.txt`)
    const child = timeBin === undefined
      ? spawn(process.execPath, [bin, ...args], { cwd: tmp, env: { ...process.env, NO_COLOR: "1" } })
      : spawn(timeBin, ["-o", timing, "-f", "%U %S", process.execPath, bin, ...args], {
        cwd: tmp,
        env: { ...process.env, NO_COLOR: "1" }
      })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (b: Buffer) => (stdout += b.toString()))
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()))
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000)
    child.on("close", (code) => {
      clearTimeout(timer)
      let seconds = (performance.now() - start) / 1000
      if (timeBin !== undefined && existsSync(timing)) {
        const [user, system] = readFileSync(timing, "utf8").trim().split(/\s+/).slice(-2).map(Number)
        seconds = (user ?? 0) + (system ?? 0)
        rmSync(timing)
      }
      done({ code, stdout, stderr, seconds })
    })
  })

/** Runs every row, two at a time. */
const runAll = async (): Promise<Array<Ran>> => {
  const results: Array<Ran> = new Array(rows.length)
  let next = 0
  const worker = async () => {
    while (next < rows.length) {
      const i = next++
      results[i] = await run(rows[i]?.args ?? [])
    }
  }
  await Promise.all([worker(), worker()])
  return results
}

describe("the CLI contract through the bin", () => {
  it(
    `${rows.length} mistakes: exit code, one line naming the problem on the right stream, no stack trace, under 5 s`,
    async () => {
      expect(rows.length).toBeGreaterThanOrEqual(60)
      const results = await runAll()
      const failures: Array<unknown> = []
      rows.forEach((row, i) => {
        const r = results[i] as Ran
        const problems: Array<string> = []
        if (r.code !== row.code) problems.push(`exit ${r.code}, expected ${row.code}`)
        if (/\n\s+at .+:\d+:\d+/.test(r.stdout + r.stderr)) problems.push("stack trace")
        if (r.seconds >= 5) problems.push(`took ${r.seconds.toFixed(2)} s`)
        if (row.args.includes("--format") && row.args[row.args.indexOf("--format") + 1] === "json") {
          let doc: { ok?: unknown; diagnostics?: Array<{ code: string; message: string }> } | undefined
          try {
            doc = JSON.parse(r.stdout) as typeof doc
          } catch {
            problems.push("stdout is not one JSON document")
          }
          const d = doc?.diagnostics?.[0]
          if (doc?.ok !== false || d === undefined || !row.says.test(`${d.code} ${d.message}`)) {
            problems.push(`JSON does not say ${row.says}`)
          }
          if (r.stderr !== "") problems.push("stderr is not empty with --format json")
        } else {
          const lines = r.stderr.trimEnd().split("\n")
          if (lines.length !== (row.lines ?? 1)) problems.push(`${lines.length} stderr lines`)
          if (!lines.some((l) => row.says.test(l))) problems.push(`stderr does not say ${row.says}`)
          // Results only on stdout: nothing for a usage error or a failed command, validate's summary line otherwise.
          if (r.stdout !== "" && !/^failed: \d+ file\(s\)/.test(r.stdout)) problems.push("unexpected stdout")
        }
        if (problems.length > 0) {
          failures.push({
            args: row.args.join(" "),
            problems,
            stdout: r.stdout.slice(0, 300),
            stderr: r.stderr.slice(0, 300)
          })
        }
      })
      expect(failures).toEqual([])
      // The queries against an absent store created nothing (not even its folder).
      expect(existsSync(dirname(absentStore))).toBe(false)
      // Every mistake printed its one line (or document): asserted per row, so the codes it names are recorded too.
      for (const r of results as Array<Ran>) expect(r.stdout + r.stderr).toMatch(/\S/)
    },
    900_000
  )

  it("--version is one line; --help is plain text within 80 columns, whatever NO_COLOR says", async () => {
    const v = await run(["--version"])
    expect(v.code).toBe(0)
    expect(v.stdout).toBe("cardfx 0.1.0\n")
    const h = await run(["simulate", "--help"])
    expect(h.code).toBe(0)

    expect(h.stdout).not.toMatch(/\u001b\[/)
    expect(h.stdout).toContain("--games N")
    expect(h.stdout).toContain("default: 1000")
    for (const line of h.stdout.split("\n")) expect(line.length).toBeLessThanOrEqual(80)
  }, 60_000)

  it("works from anywhere: simulate, start and fuzz defaults resolve from the installed package", async () => {
    const s = await run(["simulate", "--games", "2", "--format", "json"])
    expect(s.code).toBe(0)
    expect((JSON.parse(s.stdout) as { games: number }).games).toBe(2)
    const st = await run(["start"])
    expect(st.code).toBe(0)
    expect(st.stdout).toMatch(/ok: \d+ file\(s\) validated, 0 error\(s\)/)
  }, 60_000)
})
