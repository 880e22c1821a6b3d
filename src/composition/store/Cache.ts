/**
 * A bounded least-recently-used cache, for the store's in-process caches: a
 * long-running server applies commands to ever new instances, and no cache
 * of the store may grow with them. Each entry has a weight (1 by default;
 * a cached ledger weighs its entry count), and the total weight stays at
 * or under the bound: the least recently used entries go first.
 *
 * A cache is a value owned by the store that created it (no module state).
 *
 * @since 0.1.0
 */

/** A bounded LRU cache. */
export interface BoundedCache<K, V> {
  readonly get: (key: K) => V | undefined
  readonly has: (key: K) => boolean
  readonly set: (key: K, value: V, weight?: number) => void
  readonly delete: (key: K) => void
  /** Entries held now. */
  readonly size: () => number
  /** Total weight held now (≤ the bound, or one entry heavier than the bound). */
  readonly weight: () => number
}

/** A cache whose total weight stays at or under `maxWeight` (≥ 1). */
export const boundedCache = <K, V>(maxWeight: number): BoundedCache<K, V> => {
  const bound = Math.max(1, Math.floor(maxWeight))
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const map = new Map<K, { readonly value: V; readonly weight: number }>()
  let total = 0
  const remove = (key: K) => {
    const e = map.get(key)
    if (e === undefined) return
    map.delete(key)
    total -= e.weight
  }
  return {
    get: (key) => {
      const e = map.get(key)
      if (e === undefined) return undefined
      map.delete(key)
      map.set(key, e)
      return e.value
    },
    has: (key) => map.has(key),
    set: (key, value, weight = 1) => {
      remove(key)
      const w = Math.max(1, Math.floor(weight))
      map.set(key, { value, weight: w })
      total += w
      // Evict the least recently used, but never the entry just set.
      for (const [k, e] of map) {
        if (total <= bound || k === key) break
        map.delete(k)
        total -= e.weight
      }
    },
    delete: remove,
    size: () => map.size,
    weight: () => total
  }
}
