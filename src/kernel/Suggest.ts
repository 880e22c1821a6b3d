/**
 * "Did you mean": the closest of some known words to a misspelled one (a
 * property name, an ID, an enum member), by edit distance (Levenshtein:
 * insertions, deletions and substitutions; a swap of two neighbours counts
 * one, as a typo does). Close means at most a third of the word's length,
 * and at least one edit; ties go to the ordinal first, so the answer does
 * not depend on the order the candidates come in. Pure and deterministic.
 *
 * @since 0.1.0
 */
import { compareOrdinal } from "./Ordinal.js"

/** Candidates are compared only up to this many (a huge catalog is not searched). */
const MAX_CANDIDATES = 10_000

/** Edit distance with adjacent transpositions (optimal string alignment), or `limit + 1` once past `limit`. */
export const editDistance = (a: string, b: string, limit = Number.MAX_SAFE_INTEGER): number => {
  if (a === b) return 0
  if (Math.abs(a.length - b.length) > limit) return limit + 1
  let prev2: Array<number> = []
  let prev: Array<number> = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row: Array<number> = [i]
    let best = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let d = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (prev2[j - 2] ?? 0) + 1)
      row.push(d)
      if (d < best) best = d
    }
    if (best > limit) return limit + 1
    prev2 = prev
    prev = row
  }
  return prev[b.length] ?? limit + 1
}

/** The known word closest to `word` (case-insensitively), when one is close enough; undefined otherwise. */
export const closest = (word: string, candidates: Iterable<string>): string | undefined => {
  const limit = Math.max(1, Math.floor(word.length / 3))
  const lower = word.toLowerCase()
  let best: string | undefined
  let bestDistance = limit + 1
  let n = 0
  for (const c of candidates) {
    if (++n > MAX_CANDIDATES) break
    if (c === word) continue
    const d = editDistance(lower, c.toLowerCase(), limit)
    if (d < bestDistance || (d === bestDistance && best !== undefined && compareOrdinal(c, best) < 0)) {
      best = c
      bestDistance = d
    }
  }
  return bestDistance <= limit ? best : undefined
}

/** `; did you mean "x"?` for the closest known word, or the empty string. */
export const didYouMean = (word: string, candidates: Iterable<string>): string => {
  const c = closest(word, candidates)
  return c === undefined ? "" : `; did you mean ${JSON.stringify(c)}?`
}
