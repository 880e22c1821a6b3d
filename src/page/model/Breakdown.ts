/**
 * The bucket-pipeline explanation of an impact as parts the page draws as a
 * visual breakdown — `9 base`, `+2 strength`, `×1.5 vulnerable`, `→ 16` —
 * whose joined text is exactly the CLI's (`cardfx run`) rendering.
 *
 * @since 0.1.0
 */
import type { ContributionDoc } from "./Docs.js"

export interface BreakdownPart {
  readonly kind: "base" | "flat" | "percent" | "multiplier" | "result"
  readonly text: string
  /** Where the contribution came from (`attribute strength on hero, outgoing`). */
  readonly title: string
}

const num = (v: number): string => String(Object.is(v, -0) ? 0 : v)

export const breakdownParts = (
  base: number,
  contributions: ReadonlyArray<ContributionDoc>,
  amount: number
): ReadonlyArray<BreakdownPart> => [
  { kind: "base", text: `${num(base)} base`, title: "the effective card's number" },
  ...contributions.map((c): BreakdownPart => {
    const title = `${c.source} ${c.sourceId} on ${c.holderId}, ${c.direction}`
    if (c.bucket === "flat") {
      return { kind: "flat", text: `${c.value < 0 ? "-" : "+"}${num(Math.abs(c.value))} ${c.sourceId}`, title }
    }
    if (c.bucket === "percent") {
      return { kind: "percent", text: `${c.value < 0 ? "-" : "+"}${num(Math.abs(c.value))}% ${c.sourceId}`, title }
    }
    return { kind: "multiplier", text: `×${num(c.value)} ${c.sourceId}`, title }
  }),
  { kind: "result", text: `→ ${num(amount)}`, title: "after flooring" }
]

export const breakdownText = (parts: ReadonlyArray<BreakdownPart>): string => parts.map((p) => p.text).join(" ")

const turns = (n: number | undefined): string => (n === undefined ? "permanent" : `${n} turn${n === 1 ? "" : "s"}`)

/** `burning stacks 0 → 1, 3 turns {potency=9}`: the CLI's status line without the node and target. */
export const statusAppliedText = (e: {
  readonly statusId: string
  readonly stacksBefore: number
  readonly stacks: number
  readonly remaining?: number | undefined
  readonly payload: Readonly<Record<string, number>>
}): string => {
  const payload = Object.keys(e.payload)
    .sort()
    .map((k) => `${k}=${e.payload[k]}`)
    .join(", ")
  return `${e.statusId} stacks ${e.stacksBefore} → ${e.stacks}, ${turns(e.remaining)}${
    payload === "" ? "" : ` {${payload}}`
  }`
}
