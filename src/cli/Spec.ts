/**
 * The command tree as data, derived from the registered `@effect/cli`
 * commands: every command's path, description, options (names, value
 * placeholder, choices, default, optional, repeatable) and arguments. One
 * registration in `commands.ts` is enough for a command to get the usage
 * checks, the help text, the README table test and the contract tests; there
 * is no second list to keep in step.
 *
 * `@effect/cli` keeps descriptors as plain tagged data (`Standard`,
 * `Subcommands`, `Map`; options `Single`, `WithDefault`, `Variadic`, ...).
 * The version is pinned, and the spec test fails loudly if its shape changes.
 *
 * @since 0.1.0
 */
import type { Command, HelpDoc } from "@effect/cli"
import type { Span } from "@effect/cli/HelpDoc/Span"
import { Option } from "effect"

/** An option of a command. */
export interface OptionSpec {
  /** `--name` and any aliases, with their dashes. */
  readonly names: ReadonlyArray<string>
  /** What the value looks like (`N`, `FILE`, `human|json`); undefined for a flag that takes no value. */
  readonly placeholder: string | undefined
  readonly kind: "flag" | "integer" | "float" | "text" | "choice" | "path"
  readonly choices: ReadonlyArray<string>
  readonly description: string
  /** The default as shown in help, when there is one. */
  readonly defaultValue: string | undefined
  readonly optional: boolean
  readonly repeatable: boolean
}

/** A positional argument of a command. */
export interface ArgSpec {
  readonly name: string
  readonly description: string
  readonly defaultValue: string | undefined
  readonly optional: boolean
  readonly repeatable: boolean
}

/** A command: a leaf (options and arguments) or a group (subcommands). */
export interface CommandSpec {
  /** Names from the root's children down, e.g. `["ledger", "apply"]`. */
  readonly path: ReadonlyArray<string>
  readonly description: string
  readonly options: ReadonlyArray<OptionSpec>
  readonly args: ReadonlyArray<ArgSpec>
  readonly subcommands: ReadonlyArray<CommandSpec>
}

const field = (o: unknown, k: string): unknown =>
  typeof o === "object" && o !== null ? (o as Record<string, unknown>)[k] : undefined
const tagOf = (o: unknown): string => String(field(o, "_tag"))

const spanText = (s: Span): string => {
  switch (s._tag) {
    case "Sequence":
      return spanText(s.left) + spanText(s.right)
    case "Highlight":
    case "Strong":
    case "Weak":
      return spanText(s.value)
    default:
      return s.value
  }
}

/** A HelpDoc as plain text, one line per paragraph (no ANSI). */
export const docText = (doc: HelpDoc.HelpDoc): string => {
  switch (doc._tag) {
    case "Empty":
      return ""
    case "Header":
    case "Paragraph":
      return spanText(doc.value)
    case "Sequence":
      return [docText(doc.left), docText(doc.right)].filter((t) => t !== "").join("\n")
    case "Enumeration":
      return doc.elements.map(docText).join("\n")
    case "DescriptionList":
      return doc.definitions.map(([s, d]) => `${spanText(s)}: ${docText(d)}`).join("\n")
  }
}

const asDoc = (o: unknown): string => {
  const t = tagOf(o)
  return t === "Empty" || t === "Header" || t === "Paragraph" || t === "Sequence" || t === "Enumeration" ||
      t === "DescriptionList"
    ? docText(o as HelpDoc.HelpDoc)
    : ""
}

const showDefault = (v: unknown): string | undefined => {
  if (Option.isOption(v)) return Option.isSome(v) ? showDefault(v.value) : undefined
  if (v === undefined || v === null || typeof v === "boolean") return undefined
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map(String).join(", ")
  return String(v)
}

const primitiveInfo = (p: unknown, name: string): Pick<OptionSpec, "kind" | "choices" | "placeholder"> => {
  switch (tagOf(p)) {
    case "Bool":
      return { kind: "flag", choices: [], placeholder: undefined }
    case "Integer":
      return { kind: "integer", choices: [], placeholder: "N" }
    case "Float":
      return { kind: "float", choices: [], placeholder: "X" }
    case "Choice": {
      const alternatives = field(p, "alternatives")
      const choices = Array.isArray(alternatives)
        ? alternatives.map((a) => String((a as ReadonlyArray<unknown>)[0]))
        : []
      return { kind: "choice", choices, placeholder: choices.join("|") }
    }
    case "Path": {
      const t = field(p, "pathType")
      return { kind: "path", choices: [], placeholder: t === "file" ? "FILE" : t === "directory" ? "DIR" : "PATH" }
    }
    default:
      return { kind: "text", choices: [], placeholder: name.replace(/^-+/, "").replace(/-/g, "_").toUpperCase() }
  }
}

interface Modifiers {
  readonly defaultValue: string | undefined
  readonly optional: boolean
  readonly repeatable: boolean
}
const required: Modifiers = { defaultValue: undefined, optional: false, repeatable: false }

const collectOptions = (o: unknown, mods: Modifiers, out: Array<OptionSpec>): void => {
  switch (tagOf(o)) {
    case "Single": {
      const name = String(field(o, "name"))
      const aliases = field(o, "aliases")
      const names = [name, ...(Array.isArray(aliases) ? aliases.map(String) : [])].map((
        n
      ) => (n.length === 1 ? `-${n}` : `--${n}`))
      const info = primitiveInfo(field(o, "primitiveType"), name)
      const pseudo = field(o, "pseudoName")
      const placeholder = Option.isOption(pseudo) && Option.isSome(pseudo) ? String(pseudo.value) : info.placeholder
      out.push({
        names,
        ...info,
        placeholder: info.kind === "flag" ? undefined : placeholder,
        description: asDoc(field(o, "description")),
        ...mods
      })
      return
    }
    case "WithDefault":
      return collectOptions(field(o, "options"), {
        ...mods,
        optional: true,
        defaultValue: showDefault(field(o, "fallback"))
      }, out)
    case "WithFallback":
      return collectOptions(field(o, "options"), { ...mods, optional: true }, out)
    case "Map":
      return collectOptions(field(o, "options"), mods, out)
    case "Variadic": {
      const min = field(o, "min")
      const atLeastOne = Option.isOption(min) && Option.isSome(min) && Number(min.value) > 0
      return collectOptions(field(o, "argumentOption"), {
        ...mods,
        repeatable: true,
        optional: mods.optional || !atLeastOne
      }, out)
    }
    case "KeyValueMap":
      return collectOptions(field(o, "argumentOption"), { ...mods, repeatable: true }, out)
    case "Both":
    case "OrElse":
      collectOptions(field(o, "left"), mods, out)
      collectOptions(field(o, "right"), mods, out)
      return
    default:
      return
  }
}

const collectArgs = (a: unknown, mods: Modifiers, out: Array<ArgSpec>): void => {
  switch (tagOf(a)) {
    case "Single": {
      const pseudo = field(a, "pseudoName")
      const name = Option.isOption(pseudo) && Option.isSome(pseudo) ? String(pseudo.value) : String(field(a, "name"))
      out.push({ name, description: asDoc(field(a, "description")), ...mods })
      return
    }
    case "WithDefault":
      return collectArgs(
        field(a, "args"),
        { ...mods, optional: true, defaultValue: showDefault(field(a, "fallback")) },
        out
      )
    case "WithFallbackConfig":
      return collectArgs(field(a, "args"), { ...mods, optional: true }, out)
    case "Map":
      return collectArgs(field(a, "args"), mods, out)
    case "Variadic": {
      const min = field(a, "min")
      const atLeastOne = Option.isOption(min) && Option.isSome(min) && Number(min.value) > 0
      return collectArgs(field(a, "args"), { ...mods, repeatable: true, optional: mods.optional || !atLeastOne }, out)
    }
    case "Both":
      collectArgs(field(a, "left"), mods, out)
      collectArgs(field(a, "right"), mods, out)
      return
    default:
      return
  }
}

const fromDescriptor = (d: unknown, parent: ReadonlyArray<string>, isRoot: boolean): CommandSpec => {
  switch (tagOf(d)) {
    case "Map":
      return fromDescriptor(field(d, "command"), parent, isRoot)
    case "Subcommands": {
      const head = fromDescriptor(field(d, "parent"), parent, isRoot)
      const children = field(d, "children")
      const subcommands = (Array.isArray(children) ? children : []).map((c) => fromDescriptor(c, head.path, false))
      return { ...head, subcommands: [...head.subcommands, ...subcommands] }
    }
    default: {
      const options: Array<OptionSpec> = []
      const args: Array<ArgSpec> = []
      collectOptions(field(d, "options"), required, options)
      collectArgs(field(d, "args"), required, args)
      const name = String(field(d, "name"))
      return {
        path: isRoot ? [] : [...parent, name],
        description: asDoc(field(d, "description")),
        options,
        args,
        subcommands: []
      }
    }
  }
}

/** The spec of a root command (its path is empty; its children are the top-level commands). */
export const specOf = (root: Command.Command<string, never, unknown, unknown>): CommandSpec =>
  fromDescriptor(root.descriptor, [], true)

/** Every leaf command below a spec, depth first in registration order. */
export const leaves = (spec: CommandSpec): ReadonlyArray<CommandSpec> =>
  spec.subcommands.length === 0 ? [spec] : spec.subcommands.flatMap(leaves)

/** Every command (groups and leaves) below a spec. */
export const allCommands = (spec: CommandSpec): ReadonlyArray<CommandSpec> =>
  spec.subcommands.flatMap((s) => [s, ...allCommands(s)])

/** The option of a spec a token names (`--x` or `--x=v`). */
export const findOption = (spec: CommandSpec, name: string): OptionSpec | undefined =>
  spec.options.find((o) => o.names.includes(name))
