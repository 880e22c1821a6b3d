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

export const Diagnostics = ({ items }: { readonly items: ReadonlyArray<DiagnosticDoc> }) =>
  items.length === 0 ? null : (
    <ul class="diagnostics">
      {items.map((d, i) => (
        <li key={i} data-code={d.code}>
          <code class="code">{d.code}</code> {d.message}
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
