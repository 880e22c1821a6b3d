/** The starter deck and its engine, as the simulation benchmarks (scale, cluster) play it. */
import { readFileSync } from "node:fs"
import { makeEngine } from "../../../dist/hallyu/engine/Engine.js"
import { deckFromJson } from "../../../dist/services/Simulation.js"

/** The deck's file and text (what workers and runners are sent) and the engine built from it here. */
export const starterEngine = () => {
  const file = "data/hallyu-hex/starter-deck.v0.json"
  const json = readFileSync(file, "utf8")
  const deck = deckFromJson(json, file)
  if (deck._tag === "Left") throw new Error(deck.left.message)
  const engine = makeEngine(deck.right)
  if (engine._tag === "Left") throw new Error(engine.left.message)
  return { file, json, engine: engine.right }
}
