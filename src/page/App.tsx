/**
 * The workbench shell: the views of `Views.ts` behind hash routes (`#cards`,
 * `#try`, `#table`), keyboard-reachable tabs, and the runtime line; a view's
 * code is loaded when it is first shown.
 *
 * @since 0.1.0
 */
import type { FunctionComponent } from "preact"
import { useEffect, useState } from "preact/hooks"
import type { Api, RuntimeDoc } from "./Api.js"
import { readToken, writeToken } from "./model/Auth.js"
import { viewOf, VIEWS } from "./Views.js"

type Loaded = FunctionComponent<{ readonly api: Api }>

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

export const App = ({ api }: { readonly api: Api }) => {
  const [view, setView] = useState(() => viewOf(location.hash).name)
  const [runtime, setRuntime] = useState<RuntimeDoc | null>(null)
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
  useEffect(() => {
    api.runtime().then(setRuntime, () => setRuntime(null))
  }, [api])
  return (
    <>
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
        <p class="runtime muted">
          {runtime === null
            ? ""
            : `engine ${runtime.engineVersion} · ${
              runtime.packages.map((p) => `${p.packageId}@${p.version}`).join(", ")
            } · content ${runtime.contentHash.slice(0, 12)}`}
        </p>
      </header>
      <main
        id="main"
        data-view={view}
        data-ready={runtime === null || loaded?.name !== view ? "false" : "true"}
      >
        {loaded === null || loaded.name !== view ? <p class="muted">Loading…</p> : <loaded.View api={api} />}
      </main>
    </>
  )
}
