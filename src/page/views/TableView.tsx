/**
 * The Hallyu Hex table: start a game from a seed (hot-seat, or against the
 * seeded random player that this page drives through the same API); both
 * seats' public state, the acting seat's hand, stage and counters; every
 * legal action as a button and the actions not legal now disabled with the
 * engine's `explain` reason on hover and focus; pending decisions as
 * dialogs; once the game is over, its log, and a step-by-step replay of it
 * on the server that compares every fingerprint.
 *
 * The page holds both seats' secrets (from the game's creation, in memory
 * only) and always shows the view of the seat to act, read with that seat's
 * secret: what that player may see, never the other hand.
 *
 * @since 0.1.0
 */
import { useEffect, useRef, useState } from "preact/hooks"
import type { Api, GameDoc, GameLogDoc } from "../Api.js"
import { pick, seedOf } from "../model/Chooser.js"
import {
  type ActionButton,
  actionButtons,
  type HhxDeckDoc,
  instanceNames,
  isDialogDecision,
  type PlayerViewDoc,
  type Seat,
  type SeatViewDoc,
  unavailableCandidates,
  type UnavailableDoc
} from "../model/Hhx.js"
import { ErrorBox, useTask } from "./Common.js"

const RANDOM_SEAT: Seat = 1

const ActionButtons = ({
  buttons,
  busy,
  onAct,
  label
}: {
  readonly buttons: ReadonlyArray<ActionButton>
  readonly busy: boolean
  readonly onAct: (id: string) => void
  readonly label: string
}) => (
  <ul class="actions" aria-label={label}>
    {buttons.map((b, i) => {
      const tip = `tip-${label.replace(/\W+/g, "-")}-${i}`
      return (
        <li key={b.id} class="action">
          <button
            type="button"
            data-action={b.id}
            data-legal={b.enabled ? "true" : "false"}
            aria-disabled={b.enabled ? undefined : "true"}
            aria-describedby={b.reason === null ? undefined : tip}
            disabled={busy && b.enabled}
            onClick={() => {
              if (b.enabled) onAct(b.id)
            }}
          >
            {b.label}
          </button>
          {b.reason === null ? null : (
            <span id={tip} role="tooltip" class="reason">
              {b.reason}
            </span>
          )}
        </li>
      )
    })}
  </ul>
)

const SeatPanel = ({
  seat,
  view,
  counters,
  name,
  acting
}: {
  readonly seat: Seat
  readonly view: SeatViewDoc
  readonly counters: PlayerViewDoc["counters"]
  readonly name: (i: string) => string
  readonly acting: boolean
}) => (
  <section class={`seat${acting ? " acting" : ""}`} aria-label={`Seat ${seat}`} data-seat={seat}>
    <h3>
      Seat {seat}
      {acting ? " — to act" : ""}
    </h3>
    <dl class="resources">
      <dt>composure</dt>
      <dd data-field="composure">{view.composure}</dd>
      <dt>fandom</dt>
      <dd data-field="fandom">{view.fandom}</dd>
      <dt>trend</dt>
      <dd data-field="trend">{view.trend}</dd>
      <dt>deck</dt>
      <dd>{view.deckSize}</dd>
      <dt>hand</dt>
      <dd>{view.handSize}</dd>
    </dl>
    <h4>Stage</h4>
    <ul class="zone stage">
      {view.stage.length === 0 ? <li class="muted">empty</li> : null}
      {view.stage.map((i) => (
        <li key={i}>
          {name(i)}
          {Object.entries(counters[i] ?? {}).map(([k, n]) => (
            <span key={k} class="counter">
              {" "}
              {k} ×{n}
            </span>
          ))}
        </li>
      ))}
    </ul>
    {view.pending.length > 0 ?
      (
        <>
          <h4>Pending</h4>
          <ul class="zone">
            {view.pending.map((i) => <li key={i}>{name(i)}</li>)}
          </ul>
        </>
      ) :
      null}
    <p class="muted">archive: {view.archive.length}</p>
  </section>
)

/** The seats' secrets of a game, seat 0 first. */
type Secrets = readonly [string, string]

const secretsOf = (seats: ReadonlyArray<{ readonly seat: Seat; readonly secret: string }>): Secrets => [
  seats.find((s) => s.seat === 0)?.secret ?? "",
  seats.find((s) => s.seat === 1)?.secret ?? ""
]

/** The view of the seat to act (the document in hand may be the seat that just acted). */
const actingView = async (api: Api, g: GameDoc, secrets: Secrets): Promise<GameDoc> =>
  g.toAct !== null && g.viewer !== g.toAct ? api.view(g.gameId, secrets[g.toAct]) : g

interface Replay {
  readonly game: GameDoc
  readonly secrets: Secrets
  readonly at: number
  /** The first step whose fingerprint differs (-1: the initial state), or null. */
  readonly mismatch: number | null
}

export const TableView = ({ api }: { readonly api: Api }) => {
  const [seed, setSeed] = useState("1")
  const [mode, setMode] = useState<"hot-seat" | "random">("hot-seat")
  const [deck, setDeck] = useState<HhxDeckDoc | null>(null)
  const [game, setGame] = useState<GameDoc | null>(null)
  const secrets = useRef<Secrets>(["", ""])
  const [unavailable, setUnavailable] = useState<ReadonlyArray<UnavailableDoc>>([])
  const [log, setLog] = useState<GameLogDoc | null>(null)
  const [replay, setReplay] = useState<Replay | null>(null)
  const chooser = useRef(1)
  const dialogRef = useRef<HTMLDivElement>(null)
  const { busy, failure, run } = useTask()

  useEffect(() => {
    void run(async () => setDeck(await api.deck()))
  }, [api, run])

  /** Shows a game state: why each action worth showing is not legal now (the engine's explain), and the log once over. */
  const show = async (g: GameDoc) => {
    const mine = g.viewer === null ? secrets.current[0] : secrets.current[g.viewer]
    const acting = g.toAct === null || g.viewer !== g.toAct ? null : g.view
    const [l, reasons] = await Promise.all([
      g.result === null ? Promise.resolve(null) : api.log(g.gameId, mine),
      Promise.all(unavailableCandidates(acting, g.legalActions).map((id) => api.explain(g.gameId, id, mine)))
    ])
    setGame(g)
    setLog(l)
    setUnavailable(
      reasons.filter((r) => !r.legal).map((r) => ({
        actionId: r.actionId,
        reason: r.reason ?? "not-legal",
        message: r.message ?? ""
      }))
    )
  }

  /** Lets the random player act while the decision is its own; answers the view of the seat to act. */
  const settle = async (g0: GameDoc): Promise<GameDoc> => {
    let g = await actingView(api, g0, secrets.current)
    while (mode === "random" && g.result === null && g.toAct === RANDOM_SEAT && g.legalActions.length > 0) {
      const p = pick(chooser.current, g.legalActions.length)
      chooser.current = p.state
      const a = g.legalActions[p.index]
      if (a === undefined) break
      g = await actingView(api, await api.act(g.gameId, a.id, g.step, secrets.current[RANDOM_SEAT]), secrets.current)
    }
    return g
  }

  const start = () =>
    run(async () => {
      chooser.current = seedOf(`random-player/${seed}`)
      setReplay(null)
      const created = await api.newGame(seed)
      secrets.current = secretsOf(created.seats)
      await show(await settle(created.game))
    })

  const act = (id: string) =>
    run(async () => {
      if (game === null || game.viewer === null) return
      await show(await settle(await api.act(game.gameId, id, game.step, secrets.current[game.viewer])))
    })

  const startReplay = () =>
    run(async () => {
      if (log === null) return
      const created = await api.newGame(log.seed)
      const replaySecrets = secretsOf(created.seats)
      const g = await actingView(api, created.game, replaySecrets)
      setReplay({ game: g, secrets: replaySecrets, at: 0, mismatch: g.fingerprint === log.fingerprints[0] ? null : -1 })
    })

  const stepReplay = (all: boolean) =>
    run(async () => {
      if (log === null || replay === null) return
      let { at, game: g, mismatch } = replay
      do {
        const a = log.actions[at]
        if (a === undefined || mismatch !== null || g.toAct === null) break
        g = await actingView(api, await api.act(g.gameId, a, g.step, replay.secrets[g.toAct]), replay.secrets)
        if (g.fingerprint !== log.fingerprints[at + 1]) mismatch = at
        at++
      } while (all)
      setReplay({ game: g, secrets: replay.secrets, at, mismatch })
    })

  const toAct = game?.toAct ?? null
  // The document in hand is the view of the seat to act (see `settle`).
  const actingSeatView = game !== null && toAct !== null && game.viewer === toAct ? game.view : null
  const names = deck === null || game === null ? new Map<string, string>() : instanceNames(deck, game.decks)
  const name = (i: string) => {
    const n = names.get(i)
    return n === undefined ? i : `${n} (${i})`
  }
  const buttons = game === null ? [] : actionButtons(game.legalActions, unavailable, name)
  const dialog = actingSeatView !== null && isDialogDecision(actingSeatView.decision)
  const finalFingerprint = log === null ? "" : (log.fingerprints[log.fingerprints.length - 1] ?? "")

  useEffect(() => {
    if (dialog) dialogRef.current?.querySelector<HTMLButtonElement>("button[data-legal=true]")?.focus()
  }, [dialog, game?.step])

  return (
    <section class="view table-view" aria-labelledby="table-title">
      <h2 id="table-title">Hallyu Hex table</h2>
      <ErrorBox failure={failure} />
      <form
        class="new-game"
        onSubmit={(ev) => {
          ev.preventDefault()
          void start()
        }}
      >
        <label>
          Seed <input name="seed" value={seed} onInput={(ev) => setSeed((ev.target as HTMLInputElement).value)} />
        </label>
        <fieldset class="inline">
          <legend>Opponent</legend>
          <label>
            <input
              type="radio"
              name="mode"
              value="hot-seat"
              checked={mode === "hot-seat"}
              onChange={() => setMode("hot-seat")}
            />{" "}
            hot-seat
          </label>
          <label>
            <input
              type="radio"
              name="mode"
              value="random"
              checked={mode === "random"}
              onChange={() => setMode("random")}
            />{" "}
            random player
          </label>
        </fieldset>
        <button type="submit" disabled={busy}>
          Start game
        </button>
      </form>
      {game === null ?
        null :
        (
          <div
            class="table"
            data-game={game.gameId}
            data-step={game.step}
            data-fingerprint={game.fingerprint ?? ""}
            data-over={game.result === null ? "false" : "true"}
          >
            <p class="status" role="status" aria-live="polite">
              {game.result !== null
                ? `Game over: ${
                  game.result.winner === null ? "draw" : `seat ${game.result.winner} wins`
                } (${game.result.reason})`
                : `Turn ${game.view.turn}, seat ${game.view.active} active, seat ${toAct ?? "–"} to act`} · step{" "}
              {game.step}
            </p>
            <div class="seats">
              {([0, 1] as const).map((s) => (
                <SeatPanel
                  key={s}
                  seat={s}
                  view={game.view.seats[s]}
                  counters={game.view.counters}
                  name={name}
                  acting={toAct === s}
                />
              ))}
            </div>
            {actingSeatView !== null && toAct !== null ?
              (
                <section class="hand" aria-label="Acting hand">
                  <h3>Seat {toAct}'s hand</h3>
                  <ul class="zone">
                    {(actingSeatView.seats[toAct].hand ?? []).map((i) => <li key={i}>{name(i)}</li>)}
                  </ul>
                </section>
              ) :
              null}
            {dialog ?
              (
                <div class="dialog-backdrop">
                  <div ref={dialogRef} role="dialog" aria-modal="true" aria-labelledby="decision-title" class="dialog">
                    <h3 id="decision-title">
                      Decision for seat {toAct}: {actingSeatView?.decision?.d}
                    </h3>
                    <ActionButtons buttons={buttons} busy={busy} onAct={(id) => void act(id)} label="Decision" />
                  </div>
                </div>
              ) :
              <ActionButtons buttons={buttons} busy={busy} onAct={(id) => void act(id)} label="Actions" />}
          </div>
        )}
      {log === null ? null : (
        <section class="log" aria-label="Log">
          <h3>Log</h3>
          <p>
            seed <code>{log.seed}</code>, {log.actions.length} steps, fingerprint{" "}
            <code data-log-fingerprint={finalFingerprint}>{finalFingerprint.slice(0, 16)}…</code>
          </p>
          <ol class="log-steps">
            {log.actions.map((a, i) => (
              <li
                key={i}
                class={replay !== null && i < replay.at
                  ? (replay.mismatch === i ? "replayed mismatch" : "replayed")
                  : ""}
              >
                <code>{a}</code> <code class="muted">{(log.fingerprints[i + 1] ?? "").slice(0, 12)}</code>
              </li>
            ))}
          </ol>
          {game !== null && game.result !== null ?
            (
              <div class="replay">
                <button type="button" disabled={busy} onClick={() => void startReplay()}>
                  Replay on the server
                </button>
                {replay === null ? null : (
                  <>
                    <button
                      type="button"
                      disabled={busy || replay.at >= log.actions.length || replay.mismatch !== null}
                      onClick={() => void stepReplay(false)}
                    >
                      Step
                    </button>
                    <button
                      type="button"
                      disabled={busy || replay.at >= log.actions.length || replay.mismatch !== null}
                      onClick={() => void stepReplay(true)}
                    >
                      Replay to the end
                    </button>
                    <p
                      role="status"
                      class="replay-status"
                      data-replay-at={replay.at}
                      data-replay-fingerprint={replay.game.fingerprint ?? ""}
                      data-replay-ok={replay.mismatch === null ? "true" : "false"}
                    >
                      {replay.mismatch !== null
                        ? `fingerprint differs ${
                          replay.mismatch < 0 ? "at the start" : `at step ${replay.mismatch + 1}`
                        }`
                        : `replayed ${replay.at} of ${log.actions.length} steps, fingerprints match`}{" "}
                      <code>{(replay.game.fingerprint ?? "").slice(0, 16)}…</code>
                    </p>
                  </>
                )}
              </div>
            ) :
            null}
        </section>
      )}
    </section>
  )
}
