/**
 * The workbench shell: three views behind hash routes (`#cards`, `#try`,
 * `#table`), keyboard-reachable tabs, and the runtime line.
 *
 * @since 0.1.0
 */
import { useEffect, useState } from "preact/hooks"
import type { Api, RuntimeDoc } from "./Api.js"
import { readToken, writeToken } from "./model/Auth.js"
import { BalanceView } from "./views/BalanceView.js"
import { CardsView } from "./views/CardsView.js"
import { TableView } from "./views/TableView.js"
import { TryView } from "./views/TryView.js"

export type ViewName = "cards" | "try" | "table" | "balance"
const VIEWS: ReadonlyArray<{ readonly name: ViewName; readonly label: string }> = [
  { name: "cards", label: "Cards" },
  { name: "try", label: "Try it" },
  { name: "table", label: "Hallyu Hex table" },
  { name: "balance", label: "Balance" }
]

const fromHash = (): ViewName => {
  const h = location.hash.replace(/^#/, "")
  return h === "try" || h === "table" || h === "balance" ? h : "cards"
}

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
  const [view, setView] = useState<ViewName>(fromHash())
  const [runtime, setRuntime] = useState<RuntimeDoc | null>(null)
  useEffect(() => {
    const onHash = () => setView(fromHash())
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
      <main id="main" data-view={view} data-ready={runtime === null ? "false" : "true"}>
        {view === "cards"
          ? <CardsView api={api} />
          : view === "try"
          ? <TryView api={api} />
          : view === "balance"
          ? <BalanceView />
          : <TableView api={api} />}
      </main>
    </>
  )
}
