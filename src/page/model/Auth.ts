/**
 * The bearer token of a server run with `--token-env`: the page keeps what
 * the designer typed in the tab's `sessionStorage` (gone when the tab
 * closes, never in a URL or `localStorage`) and sends it as
 * `Authorization: Bearer` on the calls that change something — the only
 * ones the server checks, so reads never carry it.
 *
 * @since 0.1.0
 */

/** The `sessionStorage` key of the token. */
export const TOKEN_KEY = "cardfx.token"

const MUTATING: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"])

/** The `Authorization` header value of a request, or `undefined` (a read, or no token entered). */
export const authorizationFor = (method: string, token: string): string | undefined => {
  const t = token.trim()
  return MUTATING.has(method.toUpperCase()) && t !== "" ? `Bearer ${t}` : undefined
}

/** The subset of `Storage` the page uses (the tests pass a Map-backed one). */
export interface TokenStorage {
  readonly getItem: (key: string) => string | null
  readonly setItem: (key: string, value: string) => void
  readonly removeItem: (key: string) => void
}

export const readToken = (storage: TokenStorage): string => storage.getItem(TOKEN_KEY) ?? ""

export const writeToken = (storage: TokenStorage, token: string): void =>
  token.trim() === "" ? storage.removeItem(TOKEN_KEY) : storage.setItem(TOKEN_KEY, token.trim())

/** Whether a failure is the server asking for (the right) token: the error box then says where to enter it. */
export const needsToken = (code: string): boolean => code === "unauthorized" || code === "forbidden"
