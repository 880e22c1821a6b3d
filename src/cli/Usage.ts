/**
 * Command-line checks made from the command spec before a command runs, so
 * every command gets the same treatment of the same mistake: an unknown or
 * misspelled subcommand or option (with a did-you-mean suggestion), a group
 * without its subcommand (listing the group's subcommands), an option without
 * its value, a value that is not a number or not one of the choices, a
 * missing required option or argument. Each mistake is one `usage_error`
 * message naming the option; the caller prints it and exits 2.
 *
 * @since 0.1.0
 */
import { type CommandSpec, findOption, type OptionSpec } from "./Spec.js"

/** What the command line asks for once it passes the checks. */
export type Request =
  | { readonly _tag: "Help"; readonly spec: CommandSpec }
  | { readonly _tag: "Version" }
  | { readonly _tag: "Run"; readonly spec: CommandSpec }

/**
 * A usage mistake: the command it was found in and one message. (A plain union with `Request`, not an
 * `Either`: the bin's front bundles this module, and `Either` brought 10 KB of `effect` into it.)
 */
export interface UsageProblem {
  readonly _tag: "Problem"
  readonly path: ReadonlyArray<string>
  readonly message: string
}

/** Edit distance counting a swap of two neighbours as one edit (`--wiht` is one from `--with`). */
const distance = (a: string, b: string): number => {
  const d: Array<Array<number>> = Array.from(
    { length: a.length + 1 },
    (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0))
  )
  const at = (i: number, j: number): number => d[i]?.[j] ?? 0
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let v = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, at(i - 2, j - 2) + 1)
      const row = d[i]
      if (row !== undefined) row[j] = v
    }
  }
  return at(a.length, b.length)
}

/** The nearest candidate when it is close enough to be a typo (or the word is a prefix of exactly one). */
export const didYouMean = (word: string, candidates: ReadonlyArray<string>): string | undefined => {
  const bare = (s: string) => s.replace(/^-+/, "")
  const w = bare(word)
  let best: string | undefined
  let bestD = Infinity
  for (const c of candidates) {
    const d = distance(w, bare(c))
    if (d < bestD) {
      best = c
      bestD = d
    }
  }
  if (best !== undefined && bestD <= Math.max(1, Math.min(2, Math.floor(w.length / 3)))) return best
  const prefixed = candidates.filter((c) => w.length >= 2 && bare(c).startsWith(w))
  return prefixed.length === 1 ? prefixed[0] : undefined
}

const suggestion = (word: string, candidates: ReadonlyArray<string>): string => {
  const s = didYouMean(word, candidates)
  return s === undefined ? "" : `; did you mean ${s}?`
}

const nameOf = (s: CommandSpec): string => s.path[s.path.length - 1] ?? "cardfx"
const quoteList = (xs: ReadonlyArray<string>): string => xs.join(", ")

const isOptionToken = (t: string): boolean => t.startsWith("-") && t !== "-" && !/^-\d/.test(t)
const isHelp = (t: string): boolean => t === "--help" || t === "-h"

const checkValue = (o: OptionSpec, value: string): string | undefined => {
  const name = o.names[0] ?? ""
  if (o.kind === "integer" && !/^-?\d+$/.test(value)) return `${name} expects an integer, got '${value}'`
  if (o.kind === "integer" && !Number.isSafeInteger(Number(value))) {
    return `${name} must be a safe integer, got '${value}'`
  }
  if (o.kind === "float" && !Number.isFinite(Number(value))) return `${name} expects a number, got '${value}'`
  if (o.kind === "choice" && !o.choices.includes(value)) {
    return `${name} must be one of ${quoteList(o.choices)}, got '${value}'${suggestion(value, o.choices)}`
  }
  if (value === "" && o.kind !== "text") return `${name} needs a non-empty value`
  return undefined
}

/** Checks a command line (without `node cardfx`) against the spec. */
export const check = (root: CommandSpec, argv: ReadonlyArray<string>): Request | UsageProblem => {
  let spec = root
  let i = 0
  // Walk down groups: each needs one of its subcommands next.
  while (spec.subcommands.length > 0) {
    const token = argv[i]
    const names = spec.subcommands.map(nameOf)
    const what = spec.path.length === 0 ? "command" : `${spec.path.join(" ")} subcommand`
    if (token === undefined) {
      return {
        _tag: "Problem",
        path: spec.path,
        message: `missing ${what}; ${spec.path.length === 0 ? "commands" : `${spec.path.join(" ")} subcommands`}: ${
          quoteList(names)
        }`
      }
    }
    if (isHelp(token)) return { _tag: "Help", spec }
    if (spec.path.length === 0 && (token === "--version" || token === "-V")) return { _tag: "Version" }
    const next = spec.subcommands.find((s) => nameOf(s) === token)
    if (next === undefined) {
      const kind = isOptionToken(token) ? `unknown option ${token} before the ${what}` : `unknown ${what} '${token}'`
      return {
        _tag: "Problem",
        path: spec.path,
        message: `${kind}${isOptionToken(token) ? "" : suggestion(token, names)}; ${
          spec.path.length === 0 ? "commands" : `${spec.path.join(" ")} subcommands`
        }: ${quoteList(names)}`
      }
    }
    spec = next
    i++
  }
  const rest = argv.slice(i)
  if (rest.some(isHelp)) return { _tag: "Help", spec }
  const positionals: Array<string> = []
  const seen = new Set<OptionSpec>()
  const problem = (message: string): UsageProblem => ({ _tag: "Problem", path: spec.path, message })
  for (let k = 0; k < rest.length; k++) {
    const token = rest[k] ?? ""
    if (token === "--") {
      positionals.push(...rest.slice(k + 1))
      break
    }
    if (!isOptionToken(token)) {
      positionals.push(token)
      continue
    }
    const eq = token.indexOf("=")
    const name = eq > 0 ? token.slice(0, eq) : token
    const o = findOption(spec, name)
    if (o === undefined) {
      const names = spec.options.flatMap((x) => x.names)
      return problem(`unknown option ${name}${suggestion(name, names)}`)
    }
    if (seen.has(o) && !o.repeatable) return problem(`${o.names[0] ?? name} is given more than once`)
    seen.add(o)
    if (o.placeholder === undefined) {
      if (eq > 0) return problem(`${name} takes no value`)
      continue
    }
    const value = eq > 0 ? token.slice(eq + 1) : rest[k + 1]
    if (value === undefined) return problem(`${name} needs a value (${o.placeholder})`)
    if (eq < 0) k++
    const bad = checkValue(o, value)
    if (bad !== undefined) return problem(bad)
  }
  for (const o of spec.options) {
    if (!o.optional && !seen.has(o)) {
      return problem(`missing option ${o.names[0] ?? ""} ${o.placeholder ?? ""}`.trimEnd())
    }
  }
  const required = spec.args.filter((a) => !a.optional)
  if (positionals.length < required.length) {
    return problem(`missing argument ${required[positionals.length]?.name ?? ""}`)
  }
  const unbounded = spec.args.some((a) => a.repeatable)
  if (!unbounded && positionals.length > spec.args.length) {
    return problem(
      `unexpected argument '${positionals[spec.args.length] ?? ""}'${
        spec.args.length === 0 ? ` (${spec.path.join(" ")} takes no arguments)` : ""
      }`
    )
  }
  return { _tag: "Run", spec }
}

/** The `--format` a command line asks for (json output changes how every failure is printed). */
export const formatOf = (argv: ReadonlyArray<string>): string => {
  for (let k = 0; k < argv.length; k++) {
    const t = argv[k] ?? ""
    if (t === "--format") return argv[k + 1] ?? "human"
    if (t.startsWith("--format=")) return t.slice("--format=".length)
  }
  return "human"
}
