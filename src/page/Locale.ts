/**
 * The display names the page shows: the locale tables of the served content
 * (`locales` of `GET /v1/runtime`; names are content, nothing is bundled
 * into the page), in the browser's language when the content has it, through
 * `model/Names.ts`. A key the tables lack is shown in words made from its ID
 * (`residual_affinity` → `Residual affinity`), never as the bare engine ID
 * (which stays behind the Details toggle and in tooltips).
 *
 * @since 0.1.0
 */
import { useMemo } from "preact/hooks"
import type { RuntimeDoc } from "./Api.js"
import { type Names, namesOfRuntime } from "./model/Names.js"

/** An ID in words: its last dotted segment, `_`/`-` as spaces, the first letter capital. */
export const wordsOfId = (id: string): string => {
  const last = id.slice(id.lastIndexOf(".") + 1).replace(/[_-]+/g, " ").trim()
  return last === "" ? id : last.charAt(0).toUpperCase() + last.slice(1)
}

const orWords = (name: string, id: string): string => (name === id ? wordsOfId(id) : name)

/** The names of the runtime a view read (before it has read one, every name is its ID in words). */
export const useNames = (runtime: RuntimeDoc | null): Names =>
  useMemo(() => {
    const names = namesOfRuntime(runtime, navigator.languages)
    return {
      locale: names.locale,
      card: (id, nameKey) => orWords(names.card(id, nameKey), id),
      upgrade: (id) => orWords(names.upgrade(id), id),
      status: (id) => orWords(names.status(id), id),
      component: (id, origin) => names.component(id, origin)
    }
  }, [runtime])
