/**
 * The display names the page shows: the locale tables of the served content
 * (`locales` of `GET /v1/runtime`; names are content, nothing is bundled
 * into the page), in the browser's language when the content has it, through
 * `model/Names.ts` (any key a table lacks falls back to the ID).
 *
 * @since 0.1.0
 */
import { useMemo } from "preact/hooks"
import type { RuntimeDoc } from "./Api.js"
import { type Names, namesOfRuntime } from "./model/Names.js"

/** The names of the runtime a view read (before it has read one, every name is its ID). */
export const useNames = (runtime: RuntimeDoc | null): Names =>
  useMemo(() => namesOfRuntime(runtime, navigator.languages), [runtime])
