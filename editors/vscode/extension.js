// The cardfx VS Code extension: starts `cardfx lsp` (the setting cardfx.lsp.command) for JSON files.
const { workspace } = require("vscode")
const { LanguageClient, TransportKind } = require("vscode-languageclient/node")

let client

exports.activate = (context) => {
  const [command, ...args] = workspace.getConfiguration("cardfx").get("lsp.command") ?? ["npx", "cardfx", "lsp"]
  client = new LanguageClient(
    "cardfx",
    "cardfx",
    { command, args, transport: TransportKind.stdio, options: { shell: process.platform === "win32" } },
    {
      documentSelector: [{ scheme: "file", language: "json" }, { scheme: "file", language: "jsonc" }],
      synchronize: { fileEvents: workspace.createFileSystemWatcher("**/*.json") }
    }
  )
  context.subscriptions.push({ dispose: () => client?.stop() })
  return client.start()
}

exports.deactivate = () => client?.stop()
