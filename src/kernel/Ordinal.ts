/**
 * Ordinal comparison: UTF-16 code units, case-sensitive, culture-free. The
 * seed compares tags, capabilities and component identities this way, and
 * every sort by ID in cardfx uses it. `localeCompare` is never used: its
 * result depends on the machine's ICU data.
 *
 * @since 0.1.0
 */
export const compareOrdinal = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** Sorts a copy of `xs` by ordinal order of `key`. */
export const sortByOrdinal = <A>(xs: ReadonlyArray<A>, key: (a: A) => string): Array<A> =>
  [...xs].sort((x, y) => compareOrdinal(key(x), key(y)))

/** Sorted, duplicate-free copy of a list of symbols. */
export const uniqueSorted = (xs: Iterable<string>): Array<string> => [...new Set(xs)].sort(compareOrdinal)
