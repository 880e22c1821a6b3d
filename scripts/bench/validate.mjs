/**
 * Benchmark: validating a generated 10,000-card package (one content file)
 * with cardfx — hardened parse, Schema decode with every issue collected,
 * and publication (the common compiler over every card) — against Ajv
 * validating the same bytes (JSON.parse + the JSON Schema cardfx exports),
 * in the same run. Also the error path: the same package with an error in
 * every tenth card. Goals: cardfx ≤ 4× Ajv (issue 24); error path ≤ 2× the
 * valid path. CPU time of this process (the machines are shared), median of
 * the rounds, each round timing Ajv, cardfx and the error path in turn; the
 * best round's ratio beside.
 *
 * Imports the built `dist/` (run `npm run build` first).
 */
import { Ajv } from "ajv"
import { Either, JSONSchema } from "effect"
import { decodePackage } from "../../dist/composition/ContentPackage.js"
import { publish } from "../../dist/composition/Publication.js"
import { ContentFile } from "../../dist/composition/schema/Package.js"
import { parseJson } from "../../dist/kernel/Json.js"
import { cpuTime, median, referenceRow } from "./timing.mjs"

const CARDS = 10_000

const makeContent = (broken) => {
  const cards = []
  for (let i = 0; i < CARDS; i++) {
    const bad = broken && i % 10 === 0
    cards.push({
      cardId: bad ? `card ${i}` : `card_${i}`,
      cost: i % 4,
      tags: ["attack", `tier_${i % 5}`],
      metadata: { nameKey: `card.${i}.name`, artKey: `art.card.${i}` },
      components: [
        {
          type: "effect",
          componentId: "strike",
          order: 10,
          capabilityIds: ["behavior.single_target"],
          effect: { type: "DAMAGE", target: "TARGET", amount: 3 + (i % 7), ...(bad ? { colour: "red" } : {}) },
          children: [
            {
              type: "effect",
              componentId: "burn",
              order: 10,
              effect: {
                type: "APPLY_STATUS",
                target: "TARGET",
                statusId: "burning",
                stacks: 1,
                duration: 3,
                conditions: [{ fact: "target.alive" }]
              }
            }
          ]
        }
      ]
    })
  }
  return JSON.stringify(
    {
      statuses: [
        {
          statusId: "burning",
          stacking: "add",
          durationRule: "max",
          tick: { timing: "TurnStart", effect: "DAMAGE", intensity: { kind: "perStack", base: 0, perStack: 2 } }
        }
      ],
      cards
    },
    null,
    1
  )
}

const manifestText = JSON.stringify({ packageId: "bench.pkg", version: "1.0.0", engineVersion: 17 })

const cardfxValidate = (text) => {
  const m = parseJson(manifestText, { file: "manifest.json" })
  const c = parseJson(text, { file: "cards.json" })
  if (Either.isLeft(m) || Either.isLeft(c)) return 1
  const decoded = decodePackage("bench", m.right, [c.right])
  if (decoded.package === undefined) return decoded.diagnostics.length
  return publish([decoded.package]).diagnostics.length
}

export async function run() {
  const valid = makeContent(false)
  const broken = makeContent(true)
  const ajv = new Ajv({ allErrors: true, strict: false })
  const check = ajv.compile(JSONSchema.make(ContentFile))
  const ajvValidate = (text) => (check(JSON.parse(text)) ? 0 : check.errors.length)

  if (cardfxValidate(valid) !== 0) throw new Error("the valid package does not validate")
  if (cardfxValidate(broken) !== CARDS / 5) {
    throw new Error(`the broken package gives ${cardfxValidate(broken)} diagnostics`)
  }
  if (ajvValidate(valid) !== 0) throw new Error("Ajv rejects the valid package")

  const rounds = 7
  const tCardfx = []
  const tAjv = []
  const tError = []
  for (let r = 0; r < rounds; r++) {
    tAjv.push(cpuTime(() => ajvValidate(valid)))
    tCardfx.push(cpuTime(() => cardfxValidate(valid)))
    tError.push(cpuTime(() => cardfxValidate(broken)))
  }
  const cardfx = median(tCardfx)
  const ajvMs = median(tAjv)
  const errorMs = median(tError)
  return [
    { name: "validate 10,000 cards: cardfx (parse+decode+publish), median CPU", value: cardfx, unit: "ms" },
    { name: "validate 10,000 cards: Ajv (JSON.parse+validate), median CPU", value: ajvMs, unit: "ms" },
    {
      name: "validate: cardfx / Ajv (medians)",
      value: cardfx / ajvMs,
      unit: "×",
      goal: "≤ 4",
      ok: cardfx / ajvMs <= 4
    },
    { name: "validate: cardfx / Ajv, best of each", value: Math.min(...tCardfx) / Math.min(...tAjv), unit: "×" },
    { name: "validate 10,000 cards, 2,000 errors: cardfx", value: errorMs, unit: "ms" },
    {
      name: "validate: error path / valid path",
      value: errorMs / cardfx,
      unit: "×",
      goal: "≤ 2",
      ok: errorMs / cardfx <= 2
    },
    referenceRow("validate")
  ]
}
