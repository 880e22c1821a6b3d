/**
 * The workbench page's entry: mounts the app over the typed client of the
 * server that served the page (same origin).
 *
 * @since 0.1.0
 */
import { render } from "preact"
import { App } from "./App.js"
import { makeApi } from "./Client.js"
import { readToken } from "./model/Auth.js"
import "./style.css"

const root = document.getElementById("app")
if (root !== null) render(<App api={makeApi(location.origin, () => readToken(sessionStorage))} />, root)
