/**
 * Small shared pieces: the error box (an API error's code, message and
 * diagnostics) and a hook that runs one request at a time for a view.
 *
 * @since 0.1.0
 */
import { useCallback, useState } from "preact/hooks"
import { ApiError } from "../Api.js"
import { needsToken } from "../model/Auth.js"
import type { DiagnosticDoc } from "../model/Docs.js"

export interface Failure {
  readonly code: string
  readonly message: string
  readonly diagnostics: ReadonlyArray<DiagnosticDoc>
}

export const toFailure = (e: unknown): Failure =>
  e instanceof ApiError
    ? { code: e.code, message: e.message, diagnostics: e.diagnostics }
    : { code: "client_error", message: e instanceof Error ? e.message : String(e), diagnostics: [] }

/** An engine key as words: `journey_opportunity` → `journey opportunity`. */
export const humanize = (id: string): string => id.replace(/[_-]+/g, " ").trim()

/**
 * A text in the designer's words: each runtime ID it names (a transformation, a card) replaced by its display name,
 * ledger entry tags (`e1=`) dropped. The text as the engine wrote it stays one Details toggle away.
 */
export const wordsOf = (
  ids: ReadonlyArray<readonly [id: string, name: string]>
): (text: string) => string => {
  const sorted = [...ids].filter(([id, name]) => id !== name).sort((a, b) => b[0].length - a[0].length)
  return (text) => {
    let out = text.replace(/\be\d+=/g, "")
    for (const [id, name] of sorted) out = out.split(id).join(name)
    return out
  }
}

export const Diagnostics = (
  { items, words }: { readonly items: ReadonlyArray<DiagnosticDoc>; readonly words?: (text: string) => string }
) =>
  items.length === 0 ? null : (
    <ul class="diagnostics">
      {items.map((d, i) => (
        <li key={i} data-code={d.code}>
          {words === undefined ? <code class="code">{d.code}</code> : (
            <>
              <strong class="code-words">{humanize(d.code)}:</strong> <span>{words(d.message)}</span>
              <span class="engine">
                {" "}
                <code class="code">{d.code}</code> {d.message}
              </span>
            </>
          )}
          {words === undefined ? <>{d.message}</> : null}
        </li>
      ))}
    </ul>
  )

export const ErrorBox = ({ failure }: { readonly failure: Failure | null }) =>
  failure === null ? null : (
    <div class="error" role="alert">
      <code class="code">{failure.code}</code> {failure.message}
      {needsToken(failure.code) && (
        <p class="token-hint">
          This server (run with <code>--token-env</code>) accepts changes only with its bearer token: enter it in the
          {" "}
          <strong>Token</strong> field at the top, then try again.
        </p>
      )}
      <Diagnostics items={failure.diagnostics} />
    </div>
  )

/** Runs async work for a view: `busy` while it runs, its failure kept for the error box. */
export const useTask = () => {
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<Failure | null>(null)
  const run = useCallback(async (work: () => Promise<void>) => {
    setBusy(true)
    setFailure(null)
    try {
      await work()
    } catch (e) {
      setFailure(toFailure(e))
    } finally {
      setBusy(false)
    }
  }, [])
  return { busy, failure, run }
}
