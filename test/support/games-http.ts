/**
 * Test support: Hallyu Hex games over plain HTTP (fetch) — create, act as a
 * seat, and follow a game's server-sent events to their end, every wait
 * bounded. Used where the test is about which server (or worker) answers:
 * `x-request-id` says which worker of `serve --workers` did (`w<slot>-r<n>`).
 */

export interface Created {
  readonly gameId: string
  readonly secrets: readonly [string, string]
}

export interface StepEvent {
  readonly id: number
  readonly step: number
  readonly viewer: number | null
  readonly over: boolean
}

/** A stream of a game's steps as one viewer gets them; `worker` is the answering worker's slot (or undefined). */
export interface Follower {
  readonly worker: number | undefined
  /** Every step event until the stream ends (at most `ms`). */
  readonly all: (ms: number) => Promise<ReadonlyArray<StepEvent>>
  readonly close: () => void
}

export const workerOf = (requestId: string | null): number | undefined => {
  const m = /^w(\d+)-/.exec(requestId ?? "")
  return m === null ? undefined : Number(m[1])
}

export const createGame = async (url: string, seed: string): Promise<Created> => {
  const r = await fetch(`${url}/v1/hhx/games`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ seed })
  })
  if (r.status !== 200 && r.status !== 201) throw new Error(`create: ${r.status} ${await r.text()}`)
  const body = await r.json() as {
    game: { gameId: string }
    seats: ReadonlyArray<{ seat: number; secret: string }>
  }
  return { gameId: body.game.gameId, secrets: [body.seats[0]?.secret ?? "", body.seats[1]?.secret ?? ""] }
}

interface View {
  readonly step: number
  readonly toAct: 0 | 1 | null
  readonly result: unknown
  readonly legalActions: ReadonlyArray<{ readonly id: string }>
}

export const viewOf = async (url: string, g: Created, seat: 0 | 1): Promise<View> => {
  const r = await fetch(`${url}/v1/hhx/games/${g.gameId}`, { headers: { "x-seat-secret": g.secrets[seat] } })
  if (r.status !== 200) throw new Error(`view: ${r.status} ${await r.text()}`)
  return await r.json() as View
}

/**
 * Plays the seat to act's first legal action through `urlOf(seat)`; answers
 * the new step (undefined once the game is over) and the answering worker.
 */
export const playOne = async (
  urlOf: (seat: 0 | 1) => string,
  g: Created
): Promise<{ readonly step: number; readonly worker: number | undefined } | undefined> => {
  const first = await viewOf(urlOf(0), g, 0)
  if (first.result !== null || first.toAct === null) return undefined
  const seat = first.toAct
  const mine = seat === 0 ? first : await viewOf(urlOf(seat), g, seat)
  const action = mine.legalActions[0]
  if (action === undefined) throw new Error("no legal action")
  const r = await fetch(`${urlOf(seat)}/v1/hhx/games/${g.gameId}/actions`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-seat-secret": g.secrets[seat] },
    body: JSON.stringify({ actionId: action.id, expectedStep: mine.step })
  })
  if (r.status !== 200) throw new Error(`act: ${r.status} ${await r.text()}`)
  const after = await r.json() as View
  return { step: after.step, worker: workerOf(r.headers.get("x-request-id")) }
}

/** Opens a game's event stream as a seat (or a spectator), from the current step. */
export const follow = async (url: string, g: Created, seat: 0 | 1 | null): Promise<Follower> => {
  const abort = new AbortController()
  const response = await fetch(`${url}/v1/hhx/games/${g.gameId}/events`, {
    headers: { accept: "text/event-stream", ...(seat === null ? {} : { "x-seat-secret": g.secrets[seat] }) },
    signal: abort.signal
  })
  if (response.status !== 200 || response.body === null) {
    throw new Error(`events: ${response.status} ${await response.text()}`)
  }
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  const events: Array<StepEvent> = []
  let text = ""
  let ended = false
  // Read from the start: steps must not wait in the socket while the test plays.
  const reading = (async () => {
    try {
      for (;;) {
        const chunk = await reader.read()
        if (chunk.done) break
        text += decoder.decode(chunk.value, { stream: true })
        for (let end = text.indexOf("\n\n"); end >= 0; end = text.indexOf("\n\n")) {
          const block = text.slice(0, end)
          text = text.slice(end + 2)
          let id = -1
          let data = ""
          let kind = ""
          for (const line of block.split("\n")) {
            if (line.startsWith("id: ")) id = Number(line.slice(4))
            else if (line.startsWith("event: ")) kind = line.slice(7)
            else if (line.startsWith("data: ")) data += line.slice(6)
          }
          if (kind !== "step") continue
          const doc = JSON.parse(data) as { step: number; viewer: number | null; result: unknown }
          events.push({ id, step: doc.step, viewer: doc.viewer, over: doc.result !== null })
        }
      }
    } catch {
      // aborted
    }
    ended = true
  })()
  return {
    worker: workerOf(response.headers.get("x-request-id")),
    all: async (ms) => {
      const timer = setTimeout(() => abort.abort(), ms)
      await reading
      clearTimeout(timer)
      if (!ended) abort.abort()
      return events
    },
    close: () => abort.abort()
  }
}

/** Whether `events` are steps from..to, each once, in order, each event's id its step. */
export const inOrderOnce = (events: ReadonlyArray<StepEvent>, from: number, to: number): boolean =>
  events.length === to - from + 1 && events.every((e, i) => e.step === from + i && e.id === e.step)
