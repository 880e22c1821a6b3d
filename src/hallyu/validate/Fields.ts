/**
 * The field pass: a walk over the raw JSON of every effect, action (nested
 * ones included) and condition that reports the vocabulary problems a
 * discriminated Schema would only call `schema_invalid` — `unknown_operation`,
 * `unknown_fact`, `missing_field` against the required fields of each effect
 * kind, operation and fact (RULES.md §10), and the amount `all` outside damage
 * prevention (§6). It runs before the Schema decode and covers the paths it
 * explains.
 *
 * @since 0.1.0
 */
import { EFFECT_KINDS, FACTS, OPERATIONS } from "../Vocabulary.js"
import { isObject, missingField, type Obj, type Report, requireFields, type Where } from "./Report.js"

export interface RawVocabulary {
  readonly operations: Map<string, ReadonlyArray<string>>
  readonly facts: Map<string, ReadonlyArray<string>>
  readonly kinds: Map<string, ReadonlyArray<string>>
}

/** The file's declared vocabulary intersected with the engine's (the engine's alone when the file's is unreadable). */
export const rawVocabulary = (raw: Obj): RawVocabulary => {
  const es = isObject(raw["effect_schema"]) ? raw["effect_schema"] : {}
  const pick = (key: string, engine: Record<string, ReadonlyArray<string>>): Map<string, ReadonlyArray<string>> => {
    const declared = es[key]
    const out = new Map<string, ReadonlyArray<string>>()
    for (const [name, fields] of Object.entries(engine)) {
      if (isObject(declared) && !Object.prototype.hasOwnProperty.call(declared, name)) continue
      const entry = isObject(declared) ? declared[name] : undefined
      const fileFields = isObject(entry) && Array.isArray(entry["required_fields"])
        ? entry["required_fields"].filter((f): f is string => typeof f === "string")
        : []
      out.set(name, [...new Set([...fields, ...fileFields])])
    }
    return out
  }
  return {
    operations: pick("operations", OPERATIONS),
    facts: pick("facts", FACTS),
    kinds: pick("effect_kinds", EFFECT_KINDS)
  }
}

export const rawPass = (raw: Obj, vocab: RawVocabulary, r: Report): void => {
  if (!Object.prototype.hasOwnProperty.call(raw, "manifest_version")) {
    r.add("missing_field", missingField("manifest_version", "the deck file's manifest version"), "", {
      subject: "manifest_version"
    })
    r.covered.push("/manifest_version")
  }
  for (const [parent, key] of [["rules", "version"], ["effect_schema", "version"]] as const) {
    const p = raw[parent]
    if (isObject(p) && !Object.prototype.hasOwnProperty.call(p, key)) {
      r.add("missing_field", missingField(key, `${parent}'s version`), `/${parent}`, { subject: key })
      r.covered.push(`/${parent}/${key}`)
    }
  }
  const cards = raw["cards"]
  if (!Array.isArray(cards)) return
  cards.forEach((card, i) => {
    if (!isObject(card)) return
    const cardCode = typeof card["code"] === "string" ? card["code"] : undefined
    const effects = card["effects"]
    if (!Array.isArray(effects)) return
    effects.forEach((effect, j) => {
      if (!isObject(effect)) return
      const where: Where = { cardCode, effectId: typeof effect["id"] === "string" ? effect["id"] : undefined }
      const base = `/cards/${i}/effects/${j}`
      const kind = effect["kind"]
      if (typeof kind === "string") {
        for (const f of vocab.kinds.get(kind) ?? []) {
          if (!Object.prototype.hasOwnProperty.call(effect, f)) {
            r.add("missing_field", missingField(f, `a ${kind} effect requires it`), base, { ...where, subject: f })
          }
        }
      }
      if (effect["condition"] !== undefined) rawCondition(effect["condition"], `${base}/condition`, vocab, where, r)
      if (effect["activation_cost"] !== undefined) {
        rawAction(effect["activation_cost"], `${base}/activation_cost`, vocab, where, r)
      }
      const actions = effect["actions"]
      if (Array.isArray(actions)) actions.forEach((a, k) => rawAction(a, `${base}/actions/${k}`, vocab, where, r))
    })
  })
}

const rawAction = (a: unknown, path: string, vocab: RawVocabulary, where: Where, r: Report): void => {
  if (!isObject(a)) return
  const op = a["op"]
  if (typeof op !== "string") {
    r.add(
      "missing_field",
      missingField("op", "every action names its operation"),
      path,
      { ...where, subject: "op" },
      true
    )
    return
  }
  const required = vocab.operations.get(op)
  if (required === undefined) {
    r.add("unknown_operation", `"${op}" is not an operation of effect schema 0.1.0`, `${path}/op`, {
      ...where,
      subject: op
    }, true)
    r.covered.push(path)
    return
  }
  const missing = required.filter((f) => !Object.prototype.hasOwnProperty.call(a, f))
  for (const f of missing) {
    r.add("missing_field", missingField(f, `the operation ${op} requires it`), path, { ...where, subject: f }, true)
  }
  if (a["amount"] === "all" && op !== "prevent-damage") {
    r.add("invalid_amount", `"all" is valid only for prevent-damage, not ${op}`, `${path}/amount`, where, true)
  }
  if (a["condition"] !== undefined) rawCondition(a["condition"], `${path}/condition`, vocab, where, r)
  const nested = (list: unknown, p: string): void => {
    if (Array.isArray(list)) list.forEach((x, k) => rawAction(x, `${p}/${k}`, vocab, where, r))
  }
  if (op === "choose-one" && Array.isArray(a["options"])) {
    a["options"].forEach((o, k) => {
      if (!isObject(o)) return
      requireFields(o, ["label", "actions"], "a choose-one option requires it", `${path}/options/${k}`, where, r)
      if (o["condition"] !== undefined) rawCondition(o["condition"], `${path}/options/${k}/condition`, vocab, where, r)
      nested(o["actions"], `${path}/options/${k}/actions`)
    })
  }
  if (op === "deal-damage" && isObject(a["on_prevented"])) {
    requireFields(
      a["on_prevented"],
      ["replace", "actions"],
      "on_prevented requires it",
      `${path}/on_prevented`,
      where,
      r
    )
    nested(a["on_prevented"]["actions"], `${path}/on_prevented/actions`)
  }
  if (op === "counter-card" && isObject(a["unless"])) {
    requireFields(a["unless"], ["optional_payment"], "unless requires it", `${path}/unless`, where, r)
    const payment = a["unless"]["optional_payment"]
    requireFields(
      payment,
      ["player", "actions"],
      "optional_payment requires it",
      `${path}/unless/optional_payment`,
      where,
      r
    )
    if (isObject(payment)) nested(payment["actions"], `${path}/unless/optional_payment/actions`)
  }
}

const rawCondition = (c: unknown, path: string, vocab: RawVocabulary, where: Where, r: Report): void => {
  if (!isObject(c)) return
  const fact = c["fact"]
  if (typeof fact !== "string") {
    r.add(
      "missing_field",
      missingField("fact", "every condition names its fact"),
      path,
      { ...where, subject: "fact" },
      true
    )
    return
  }
  const required = vocab.facts.get(fact)
  if (required === undefined) {
    r.add(
      "unknown_fact",
      `"${fact}" is not a fact of effect schema 0.1.0`,
      `${path}/fact`,
      { ...where, subject: fact },
      true
    )
    r.covered.push(path)
    return
  }
  for (const f of required) {
    if (!Object.prototype.hasOwnProperty.call(c, f)) {
      r.add("missing_field", missingField(f, `the fact ${fact} requires it`), path, { ...where, subject: f }, true)
    }
  }
}
