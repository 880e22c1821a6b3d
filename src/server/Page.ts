/**
 * The workbench page at `/` of `cardfx serve`: the files the build bundles
 * into `dist/page/` (index.html, app.js, app.css, and the code-split chunks
 * in `dist/page/chunks/`, each at `/chunks/<file>`; see
 * scripts/bundle-cli.mjs), read once when the server starts and served from
 * memory with a Content-Security-Policy that lets the page reach only its
 * own origin — no CDN, no network fetch at run time. The page talks to the
 * server only through the public HTTP API, with the typed client.
 *
 * One layer, registered beside the API's routes in `serverLayer`
 * (src/server/Server.ts): `Layer.provide(WorkbenchPage.layer())`.
 *
 * @since 0.1.0
 */
import { FileSystem, HttpApiBuilder, HttpServerResponse, Path } from "@effect/platform"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { Effect, Layer, Option } from "effect"
import { fileURLToPath } from "node:url"

/** The page's files and their media types. */
const FILES = [
  { route: "/", file: "index.html", contentType: "text/html; charset=utf-8" },
  { route: "/index.html", file: "index.html", contentType: "text/html; charset=utf-8" },
  { route: "/app.js", file: "app.js", contentType: "text/javascript; charset=utf-8" },
  { route: "/app.css", file: "app.css", contentType: "text/css; charset=utf-8" }
] as const

/** Only the page's own origin: scripts, styles, fetches; `data:` for the empty favicon. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/**
 * Where the built page is: `dist/page` of the package this module belongs to
 * (found from this module's file, whether it runs from dist/server/ or
 * inside the bundled bin dist/cli/cardfx.mjs).
 */
export const findPageDir = Effect.gen(function*() {
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  let dir = path.dirname(fileURLToPath(import.meta.url))
  for (let i = 0; i < 8; i++) {
    const candidate = path.join(dir, "dist", "page")
    if (yield* fs.exists(path.join(candidate, "index.html")).pipe(Effect.orElseSucceed(() => false))) {
      return Option.some(candidate)
    }
    const parent = path.dirname(dir)
    if (parent === dir) break
    dir = parent
  }
  return Option.none<string>()
})

const notBuilt = HttpServerResponse.text("The workbench page is not built: run `npm run build`.", { status: 404 })

/**
 * Mounts the page's routes on the API's router. `dir` overrides where the
 * built files are read from (default: {@link findPageDir}).
 */
export const layer = (options: { readonly dir?: string } = {}): Layer.Layer<never> =>
  HttpApiBuilder.Router.use((router) =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const path = yield* Path.Path
      const dir = options.dir !== undefined ? Option.some(options.dir) : yield* findPageDir
      // The chunks esbuild split the page into (content-hashed names): the views loaded on demand, shared code.
      const chunks = Option.isNone(dir)
        ? []
        : (yield* fs.readDirectory(path.join(dir.value, "chunks")).pipe(Effect.orElseSucceed(() => [])))
          .filter((f) => f.endsWith(".js"))
          .sort()
          .map((f) => ({
            route: `/chunks/${f}` as const,
            file: `chunks/${f}`,
            contentType: "text/javascript; charset=utf-8"
          }))
      for (const f of [...FILES, ...chunks]) {
        const body = Option.isNone(dir)
          ? Option.none<Uint8Array>()
          : yield* fs.readFile(path.join(dir.value, f.file)).pipe(Effect.option)
        const response = Option.match(body, {
          onNone: () => notBuilt,
          onSome: (bytes) =>
            HttpServerResponse.uint8Array(bytes, {
              contentType: f.contentType,
              headers: {
                "cache-control": "no-cache",
                "content-security-policy": CONTENT_SECURITY_POLICY,
                "x-content-type-options": "nosniff"
              }
            })
        })
        yield* router.get(f.route, Effect.succeed(response))
      }
    })
  ).pipe(Layer.provide(NodeFileSystem.layer), Layer.provide(Path.layer))
