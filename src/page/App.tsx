/**
 * The workbench shell: the views of `Views.ts` behind hash routes (`#cards`,
 * `#try`, `#table`, `#balance`), keyboard-reachable tabs, and the runtime
 * line; a view's code is loaded when it is first shown.
 *
 * Live content: the shell follows `GET /v1/runtime/events` (server-sent
 * events) and hands the runtime served now to the open view, which redraws
 * from it when its content hash changes (keeping what the designer had
 * selected); a rejected reload (a save `cardfx serve --watch` refused) is a
 * banner with each diagnostic until a reload switches. The **Details**
 * toggle shows the engine's IDs, fingerprints and operations, hidden by
 * default (elements of class `engine`).
 *
 * @since 0.1.0
 */
import type { FunctionComponent } from "preact"
import { useEffect, useRef, useState } from "preact/hooks"
import type { ServedStateDoc } from "./Api.js"
import { readToken, writeToken } from "./model/Auth.js"
import { viewOf, type ViewProps, VIEWS } from "./Views.js"

type Loaded = FunctionComponent<ViewProps>

/** The bearer token of a server run with --token-env; kept in this tab's sessionStorage. */
const TokenField = () => {
  const [token, setToken] = useState(() => readToken(sessionStorage))
  return (
    <label class="token">
      Token{" "}
      <input
        type="password"
        name="token"
        autocomplete="off"
        placeholder="needed with --token-env"
        value={token}
        onInput={(e) => {
          const value = e.currentTarget.value
          setToken(value)
          writeToken(sessionStorage, value)
        }}
      />
    </label>
  )
}

/** Where a diagnostic points: `file:line:column` (as much of it as it has) and its JSON pointer. */
const placeOf = (d: NonNullable<ServedStateDoc["rejected"]>["diagnostics"][number]): string =>
  [d.file ?? "", d.line === undefined ? "" : `:${d.line}${d.column === undefined ? "" : `:${d.column}`}`].join("")

/** A reload the server refused: the save's diagnostics, until a good save replaces them. */
const RejectedBanner = ({ rejected }: { readonly rejected: NonNullable<ServedStateDoc["rejected"]> }) => (
  <div class="reload-banner" role="alert" data-rejected-code={rejected.code}>
    <strong>The last save was not served</strong> — the page shows the content served before it.{" "}
    <code class="code">{rejected.code}</code> {rejected.message}
    <ul class="diagnostics">
      {rejected.diagnostics.map((d, i) => (
        <li
          key={i}
          data-code={d.code}
          data-file={d.file ?? ""}
          data-line={d.line ?? ""}
          data-column={d.column ?? ""}
        >
          {placeOf(d) === "" ? null : <code class="place">{placeOf(d)}</code>} <code class="code">{d.code}</code>{" "}
          {d.message}
          {d.path === undefined || d.path === "" ? null : <span class="muted">(at {d.path})</span>}
        </li>
      ))}
    </ul>
  </div>
)

/**
 * Follows the served content: the current state first, then each reload's outcome; a dropped stream is followed
 * again after a pause.
 */
const useServed = (api: ViewProps["api"]): ServedStateDoc | null => {
  const [served, setServed] = useState<ServedStateDoc | null>(null)
  useEffect(() => {
    const abort = new AbortController()
    let timer: ReturnType<typeof setTimeout> | undefined
    const follow = () => {
      api.runtimeEvents(setServed, abort.signal).then(
        () => undefined,
        // A server without the stream (or a refused one): the runtime as read once.
        () => api.runtime().then((runtime) => setServed((s) => s ?? { runtime, rejected: null }), () => undefined)
      ).finally(() => {
        if (!abort.signal.aborted) timer = setTimeout(follow, 2000)
      })
    }
    follow()
    return () => {
      abort.abort()
      if (timer !== undefined) clearTimeout(timer)
    }
  }, [api])
  return served
}

export const App = ({ api }: { readonly api: ViewProps["api"] }) => {
  const [view, setView] = useState(() => viewOf(location.hash).name)
  const served = useServed(api)
  const runtime = served?.runtime ?? null
  const [details, setDetails] = useState(false)
  /** When the served content last switched while the page was open (the designer's clock), or null. */
  const [switchedAt, setSwitchedAt] = useState<string | null>(null)
  const firstHash = useRef<string | null>(null)
  useEffect(() => {
    if (runtime === null) return
    if (firstHash.current === null) firstHash.current = runtime.contentHash
    else setSwitchedAt(new Date().toLocaleTimeString())
  }, [runtime?.contentHash])
  const [loaded, setLoaded] = useState<{ readonly name: string; readonly View: Loaded } | null>(null)
  useEffect(() => {
    let current = true
    viewOf(view).load().then((View) => current && setLoaded({ name: view, View }), () => undefined)
    return () => {
      current = false
    }
  }, [view])
  useEffect(() => {
    const onHash = () => setView(viewOf(location.hash).name)
    addEventListener("hashchange", onHash)
    return () => removeEventListener("hashchange", onHash)
  }, [])
  return (
    <div class={details ? "shell details-on" : "shell details-off"}>
      <header class="top">
        <h1>cardfx workbench</h1>
        <nav aria-label="Views">
          <ul class="tabs">
            {VIEWS.map((v) => (
              <li key={v.name}>
                <a href={`#${v.name}`} aria-current={v.name === view ? "page" : undefined}>
                  {v.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <TokenField />
        <label class="details-toggle">
          <input
            type="checkbox"
            name="details"
            checked={details}
            onChange={(e) => setDetails(e.currentTarget.checked)}
          />{" "}
          Details (IDs, fingerprints, engine operations)
        </label>
        <p class="runtime muted" data-content-hash={runtime?.contentHash ?? ""}>
          {runtime === null ? "" : (
            <>
              {switchedAt === null ? "content as served" : `content updated ${switchedAt}`}
              <span class="engine">
                {" · "}engine {runtime.engineVersion} ·{" "}
                {runtime.packages.map((p) => `${p.packageId}@${p.version}`).join(", ")}
                {" · "}content <code class="content-hash">{runtime.contentHash.slice(0, 12)}</code>
              </span>
            </>
          )}
        </p>
      </header>
      {served?.rejected === null || served?.rejected === undefined
        ? null
        : <RejectedBanner rejected={served.rejected} />}
      <main
        id="main"
        data-view={view}
        data-ready={runtime === null || loaded?.name !== view ? "false" : "true"}
      >
        {loaded === null || loaded.name !== view || runtime === null
          ? <p class="muted">Loading…</p>
          : <loaded.View api={api} runtime={runtime} />}
      </main>
    </div>
  )
}
