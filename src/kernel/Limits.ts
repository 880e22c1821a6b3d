/**
 * Every documented limit in one place. The seed's numbers are quoted; where
 * the seed leaves a limit to "the effects validator" the value chosen here is
 * the contract (see docs/library.md, "Limits"). Each limit has its own
 * diagnostic code and a limit walker in `cardfx/testing`.
 *
 * @since 0.1.0
 */
export const Limits = {
  /** Hardened input: bytes per file (16 MiB). */
  inputBytes: 16 * 1024 * 1024,
  /** Hardened input: JSON nesting levels. */
  inputDepth: 128,
  /** Authored IDs: ASCII, at most 64 characters (the "common limit"). */
  authoredIdLength: 64,
  /** Generated IDs and any symbol: at most 128 characters. */
  symbolLength: 128,
  /**
   * The IDs a request names (cards, transformations, entries, activities,
   * instances, commands, branches, games, deck lists, served packages): at
   * most 128 characters, on every face alike. Longer than content's own
   * (`authoredIdLength`) so a longer ID is a not-found answer, not a
   * rejection that depends on which face was asked; capped so nothing
   * unbounded reaches a store or a log.
   */
  requestIdLength: 128,
  /** Symbols per list (tags, capabilities, selector lists, ...). */
  listSymbols: 64,
  /** Composition rules per transformation. */
  rulesPerTransformation: 32,
  /** Members per rule bundle. */
  membersPerBundle: 64,
  /** Expansions per effective card. */
  expansionsPerCard: 256,
  /** Anchors one rule's selector may match on one card (`match_limit`). */
  matchesPerRule: 64,
  /** Generated effect nodes per container, children included. */
  generatedNodes: 4096,
  /** Effect nesting depth: a root is depth 1, its children depth 2, ... */
  effectDepth: 8,
  /** `repeat` range: 1..16. */
  maxRepeat: 16,
  /** `order` range: a signed 32-bit integer; generated orders must stay inside. */
  orderMin: -2147483648,
  orderMax: 2147483647,
  /** Authored expansion namespace: ASCII, at most 47 characters (47 + "_" + 16 = 64). */
  namespaceLength: 47,
  /** Hex characters of the anchor hash in an expansion ID. */
  expansionHashLength: 16,
  /** Node attempts per sequence (roots and children share it). */
  sequenceNodeBudget: 4096,
  /** A locale tag of a content file's `locales` section (BCP 47 asks implementations to take 35). */
  localeTagLength: 35,
  /** Display names per locale table of one content file. */
  namesPerLocale: 4096,
  /** Characters per display text (a name in a locale table). */
  displayTextLength: 200
} as const
