/**
 * `cardfx serve --watch`: notices every change of the content package
 * folders, in plain Node code (like the door): a file saved in place, a file
 * replaced by rename (how VS Code, other editors and `git checkout` save),
 * a file deleted, and a whole folder replaced (renamed over, or deleted and
 * recreated by a checkout).
 *
 * Each folder is watched recursively and through its parent (the folder's
 * own name there: it was replaced), and the watchers are re-armed when the
 * folder is a new one. Node's watchers can miss events (a folder replaced
 * while it was watched, a burst), so a stat poll (names, sizes, mtimes,
 * inodes) backs them up. Any of them only *suggests* a change: once the
 * folders are quiet for the debounce, their bytes are hashed, and only a
 * content hash that differs from the last one reported is a change — saving
 * a file with the same bytes reloads nothing.
 *
 * @since 0.1.0
 */
import { type FSWatcher, readdirSync, readFileSync, statSync, watch } from "node:fs"
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path"
import { sha256Hex, sha256HexOfBytes } from "../kernel/Canonical.js"

/** A change of the watched content: the folders' new hash and the files (relative to the current directory) that differ. */
export interface ContentChange {
  readonly hash: string
  readonly files: ReadonlyArray<string>
}

export interface WatchOptions {
  /** Quiet time after the last event before the bytes are hashed (default 150 ms). */
  readonly debounceMs?: number
  /** The stat poll's period (default 1,000 ms). */
  readonly pollMs?: number
}

/** Editor temp and backup files (never content): `.name.swp`, `name~`, `.#name`, `4913`. */
const ignored = (name: string): boolean => name.startsWith(".") || name.endsWith("~") || name === "4913"

/** Every content file under `dir`, sorted (nothing when the folder is missing or mid-replacement). */
const filesOf = (dir: string): Array<string> => {
  const out: Array<string> = []
  const walk = (d: string, depth: number) => {
    if (depth > 16) return
    let entries: Array<{ name: string; isDirectory(): boolean; isFile(): boolean }>
    try {
      entries = readdirSync(d, { withFileTypes: true })
    } catch {
      return
    }
    for (const e of entries) {
      if (ignored(e.name)) continue
      const p = join(d, e.name)
      if (e.isDirectory()) walk(p, depth + 1)
      else if (e.isFile()) out.push(p)
    }
  }
  walk(dir, 0)
  return out.sort()
}

/** The bytes' hash of each content file of the folders (a file that vanished mid-read is absent). */
const hashes = (dirs: ReadonlyArray<string>): Map<string, string> => {
  const out = new Map<string, string>()
  for (const dir of dirs) {
    for (const file of filesOf(dir)) {
      try {
        out.set(file, sha256HexOfBytes(readFileSync(file)))
      } catch {
        // deleted between the listing and the read: absent, as it is now
      }
    }
  }
  return out
}

/** A file as a log line names it: relative to the current directory when it is under it. */
const shown = (file: string): string => {
  const rel = relative(process.cwd(), file)
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? file : rel
}

const overall = (files: ReadonlyMap<string, string>): string => {
  let all = ""
  for (const [file, digest] of files) all += `${file}\u0000${digest}\n`
  return sha256Hex(all)
}

/** Names, sizes, mtimes and inodes: cheap, and different whenever a save happened. */
const statSignature = (dirs: ReadonlyArray<string>): string => {
  const parts: Array<string> = []
  for (const dir of dirs) {
    try {
      parts.push(`${dir}:${statSync(dir).ino}`)
    } catch {
      parts.push(`${dir}:-`)
    }
    for (const file of filesOf(dir)) {
      try {
        const s = statSync(file)
        parts.push(`${file}:${s.size}:${s.mtimeMs}:${s.ino}`)
      } catch {
        parts.push(`${file}:-`)
      }
    }
  }
  return parts.join("\n")
}

const inodeOf = (dir: string): number | undefined => {
  try {
    return statSync(dir).ino
  } catch {
    return undefined
  }
}

/**
 * Watches the folders; calls `onChange` once per change of their bytes
 * (after the debounce), never for a save of the same bytes. Returns the
 * function that stops watching.
 */
export const watchContent = (
  folders: ReadonlyArray<string>,
  onChange: (change: ContentChange) => void,
  options: WatchOptions = {}
): () => void => {
  const dirs = folders.map((d) => resolve(d))
  const debounceMs = options.debounceMs ?? 150
  let known = hashes(dirs)
  let knownHash = overall(known)
  let signature = statSignature(dirs)
  let timer: ReturnType<typeof setTimeout> | undefined
  let closed = false
  const watchers = new Map<string, { ino: number | undefined; own: FSWatcher | undefined }>()
  const parents: Array<FSWatcher> = []

  const settle = () => {
    timer = undefined
    if (closed) return
    signature = statSignature(dirs)
    arm()
    const now = hashes(dirs)
    const hash = overall(now)
    if (hash === knownHash) return
    const files = [...new Set([...known.keys(), ...now.keys()])]
      .filter((f) => known.get(f) !== now.get(f))
      .map(shown)
      .sort()
    known = now
    knownHash = hash
    onChange({ hash, files })
  }
  const nudge = () => {
    if (closed) return
    if (timer !== undefined) clearTimeout(timer)
    timer = setTimeout(settle, debounceMs)
  }

  /** (Re-)watches each folder that is new (first time, or replaced since): a watcher follows an inode, not a name. */
  const arm = () => {
    for (const dir of dirs) {
      const ino = inodeOf(dir)
      const current = watchers.get(dir)
      if (current !== undefined && current.ino === ino) continue
      current?.own?.close()
      let own: FSWatcher | undefined
      if (ino !== undefined) {
        try {
          own = watch(dir, { recursive: true }, nudge)
          own.on("error", () => {
            own?.close()
            watchers.set(dir, { ino: undefined, own: undefined })
            nudge()
          })
        } catch {
          own = undefined
        }
      }
      watchers.set(dir, { ino, own })
    }
  }

  arm()
  for (const parent of new Set(dirs.map(dirname))) {
    const names = new Set(dirs.filter((d) => dirname(d) === parent).map((d) => basename(d)))
    try {
      const w = watch(parent, (_event, name) => {
        // Only the watched folders' own names (a sibling's churn is not ours); an unnamed event might be.
        if (name === null || names.has(name.toString())) nudge()
      })
      w.on("error", () => w.close())
      parents.push(w)
    } catch {
      // no parent watch (the poll still sees a replaced folder)
    }
  }
  const poll = setInterval(() => {
    if (timer !== undefined) return
    const now = statSignature(dirs)
    if (now !== signature) {
      signature = now
      nudge()
    }
  }, options.pollMs ?? 1000)
  poll.unref()

  return () => {
    closed = true
    if (timer !== undefined) clearTimeout(timer)
    clearInterval(poll)
    for (const w of watchers.values()) w.own?.close()
    for (const w of parents) w.close()
  }
}
