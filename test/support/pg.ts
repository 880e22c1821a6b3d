/**
 * The PostgreSQL switch of the test suites: the server's URL (CARDFX_PG_URL,
 * default postgres://postgres@127.0.0.1:5432/test), whether it is required
 * (CARDFX_REQUIRE_POSTGRES=1, set by .ci/run), and a bounded reachability probe.
 */
import { Socket } from "node:net"

export const PG_URL = process.env.CARDFX_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test"
export const PG_REQUIRED = process.env.CARDFX_REQUIRE_POSTGRES === "1"

/** Whether a TCP connection to the server opens within 1.5 s. */
export const pgReachable = (): Promise<boolean> =>
  new Promise((resolve) => {
    const u = new globalThis.URL(PG_URL)
    const s = new Socket()
    const done = (ok: boolean) => {
      s.destroy()
      resolve(ok)
    }
    s.setTimeout(1500, () => done(false))
    s.once("error", () => done(false))
    s.connect(Number(u.port || 5432), u.hostname, () => done(true))
  })
