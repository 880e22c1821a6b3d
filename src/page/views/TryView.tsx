/**
 * Try it: plays the effective card (the base card and chosen upgrades)
 * against a training target with chosen statuses and sources and a seed,
 * through `POST /v1/scenarios/run`, and shows each impact's bucket pipeline
 * as a breakdown and the statuses applied afterwards.
 *
 * @since 0.1.0
 */
import { useEffect, useState } from "preact/hooks"
import type { CardListItemDoc, RunReportDoc } from "../Api.js"
import { useNames, wordsOfId } from "../Locale.js"
import { breakdownParts, breakdownText, statusAppliedText } from "../model/Breakdown.js"
import type { ExecutorEventDoc } from "../model/Docs.js"
import type { EffectiveDoc } from "../model/Docs.js"
import { scenarioBody, type SourceRow } from "../model/Scenario.js"
import type { ViewProps } from "../Views.js"
import { CardFace } from "./CardFace.js"
import { ErrorBox, useTask } from "./Common.js"

const EventView = ({ e }: { readonly e: ExecutorEventDoc }) => {
  if (e.type === "impact" && "contributions" in e) {
    const ev = e as Extract<ExecutorEventDoc, { type: "impact"; contributions: unknown }>
    const parts = breakdownParts(ev.base, ev.contributions, ev.amount)
    return (
      <li class="event impact" data-node={ev.nodeId}>
        <div>
          <strong>{wordsOfId(ev.nodeId)}</strong> → {ev.targetId} {ev.effect.toLowerCase()}
          <code class="engine">{ev.nodeId}</code>
        </div>
        <div class="breakdown" aria-label={`breakdown: ${breakdownText(parts)}`} data-breakdown={breakdownText(parts)}>
          {parts.map((p, i) => (
            <span key={i} class={`part part-${p.kind}`} title={p.title}>
              {p.text}
            </span>
          ))}
        </div>
        <div class="muted">
          hp {ev.hpBefore} → {ev.hpAfter}
        </div>
      </li>
    )
  }
  if (e.type === "statusApplied" && "stacksBefore" in e) {
    const ev = e as Extract<ExecutorEventDoc, { type: "statusApplied"; stacksBefore: number }>
    return (
      <li class="event status-applied" data-node={ev.nodeId} data-status={ev.statusId}>
        <strong>{wordsOfId(ev.nodeId)}</strong> → {ev.targetId}: {wordsOfId(ev.statusId)} {ev.stacksBefore} →{" "}
        {ev.stacks} stacks
        <span class="engine">
          {" "}
          <code>{ev.nodeId}</code> <strong>{statusAppliedText(ev)}</strong>
        </span>
      </li>
    )
  }
  if (e.type === "skip" && "reason" in e) {
    return (
      <li class="event skip">
        skip {wordsOfId(String(e["nodeId"]))}: {String(e["reason"])} {e["fact"] === undefined ? "" : String(e["fact"])}
      </li>
    )
  }
  return <li class="event other">{e.type}</li>
}

const defaultSources: ReadonlyArray<SourceRow> = [
  { holder: "hero", kind: "attribute", id: "strength", amount: 2, turns: 0 },
  { holder: "target", kind: "status", id: "vulnerable", amount: 1, turns: 1 }
]

export const TryView = ({ api, runtime }: ViewProps) => {
  const [cards, setCards] = useState<ReadonlyArray<CardListItemDoc>>([])
  const [cardId, setCardId] = useState("basic_attack")
  const [available, setAvailable] = useState<ReadonlyArray<string>>([])
  const [upgrades, setUpgrades] = useState<ReadonlyArray<string>>([])
  const [seed, setSeed] = useState(1)
  const [targetHp, setTargetHp] = useState(60)
  const [sources, setSources] = useState<ReadonlyArray<SourceRow>>(defaultSources)
  const [report, setReport] = useState<RunReportDoc | null>(null)
  const [card, setCard] = useState<EffectiveDoc | null>(null)
  const { busy, failure, run } = useTask()
  const names = useNames(runtime)

  useEffect(() => {
    void run(async () => setCards(await api.cards()))
  }, [api, run, runtime.contentHash])

  useEffect(() => {
    setUpgrades([])
    void run(async () => {
      const d = await api.discover({ cardId, activity: "scenario" })
      setAvailable(d.offers.filter((o) => o.assessment.isCompatible).map((o) => o.upgradeId))
    })
  }, [api, cardId, runtime.contentHash])

  // The card as it will be played: the base card with the chosen upgrades sealed in order.
  useEffect(() => {
    void run(async () => setCard((await api.effective(cardId, upgrades)).effectiveBase))
  }, [api, cardId, upgrades, runtime.contentHash])

  const play = () =>
    run(async () => {
      setReport(await api.runScenario(scenarioBody(runtime, { cardId, upgrades, seed, targetHp, sources })))
    })

  const setRow = (i: number, patch: Partial<SourceRow>) =>
    setSources(sources.map((s, j) => (j === i ? { ...s, ...patch } : s)))
  const play0 = report?.steps[0]
  const statuses = runtime.statuses

  return (
    <section class="view try-view" aria-labelledby="try-title">
      <h2 id="try-title">Try it</h2>
      <ErrorBox failure={failure} />
      <form
        class="try-form"
        onSubmit={(ev) => {
          ev.preventDefault()
          void play()
        }}
      >
        <label>
          Card{" "}
          <select value={cardId} onChange={(ev) => setCardId((ev.target as HTMLSelectElement).value)} name="card">
            {cards.map((c) => (
              <option key={c.cardId} value={c.cardId}>
                {names.card(c.cardId, c.nameKey)} ({c.cost})
              </option>
            ))}
          </select>
        </label>
        <fieldset>
          <legend>Upgrades, in ledger order</legend>
          {available.length === 0 ? <span class="muted">none compatible</span> : null}
          {available.map((u) => (
            <label key={u} class="check">
              <input
                type="checkbox"
                name="upgrade"
                value={u}
                checked={upgrades.includes(u)}
                onChange={(ev) =>
                  setUpgrades(
                    (ev.target as HTMLInputElement).checked ? [...upgrades, u] : upgrades.filter((x) => x !== u)
                  )}
              />{" "}
              <span title={u}>{names.upgrade(u)}</span>
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>Statuses and sources</legend>
          <table class="sources">
            <thead>
              <tr>
                <th scope="col">on</th>
                <th scope="col">kind</th>
                <th scope="col">id</th>
                <th scope="col">points / stacks</th>
                <th scope="col">turns (0 = permanent)</th>
                <th scope="col">
                  <span class="sr-only">remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sources.map((s, i) => (
                <tr key={i}>
                  <td data-label="on">
                    <select
                      aria-label={`source ${i + 1} holder`}
                      value={s.holder}
                      onChange={(ev) =>
                        setRow(i, { holder: (ev.target as HTMLSelectElement).value as SourceRow["holder"] })}
                    >
                      <option value="hero">hero</option>
                      <option value="target">target</option>
                    </select>
                  </td>
                  <td data-label="kind">
                    <select
                      aria-label={`source ${i + 1} kind`}
                      value={s.kind}
                      onChange={(ev) => {
                        const kind = (ev.target as HTMLSelectElement).value as SourceRow["kind"]
                        // A status is one the runtime declares: switching to it picks the first.
                        setRow(
                          i,
                          kind === "status" && !statuses.includes(s.id) ? { kind, id: statuses[0] ?? "" } : { kind }
                        )
                      }}
                    >
                      <option value="attribute">attribute</option>
                      <option value="status">status</option>
                      <option value="relic">relic</option>
                      <option value="buff">buff</option>
                    </select>
                  </td>
                  <td data-label="id">
                    {s.kind === "status" ?
                      (
                        <select
                          aria-label={`source ${i + 1} id`}
                          value={s.id}
                          onChange={(ev) => setRow(i, { id: (ev.target as HTMLSelectElement).value })}
                        >
                          {statuses.includes(s.id) ? null : <option value={s.id}>choose a status</option>}
                          {statuses.map((id) => (
                            <option key={id} value={id}>
                              {names.status(id)}
                            </option>
                          ))}
                        </select>
                      ) :
                      (
                        <input
                          aria-label={`source ${i + 1} id`}
                          value={s.id}
                          onInput={(ev) => setRow(i, { id: (ev.target as HTMLInputElement).value })}
                        />
                      )}
                  </td>
                  <td data-label="points / stacks">
                    <input
                      aria-label={`source ${i + 1} amount`}
                      type="number"
                      min={0}
                      value={s.amount}
                      onInput={(ev) => setRow(i, { amount: Number((ev.target as HTMLInputElement).value) })}
                    />
                  </td>
                  <td data-label="turns (0 = permanent)">
                    <input
                      aria-label={`source ${i + 1} turns`}
                      type="number"
                      min={0}
                      value={s.turns}
                      onInput={(ev) => setRow(i, { turns: Number((ev.target as HTMLInputElement).value) })}
                    />
                  </td>
                  <td>
                    <button
                      type="button"
                      onClick={() => setSources(sources.filter((_, j) => j !== i))}
                      aria-label={`remove source ${i + 1}`}
                    >
                      ×
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <button
            type="button"
            onClick={() =>
              setSources([...sources, {
                holder: "target",
                kind: "status",
                id: statuses[0] ?? "",
                amount: 1,
                turns: 0
              }])}
          >
            Add a source
          </button>
        </fieldset>
        <label>
          Target HP{" "}
          <input
            type="number"
            name="targetHp"
            min={1}
            value={targetHp}
            onInput={(ev) => setTargetHp(Number((ev.target as HTMLInputElement).value))}
          />
        </label>
        <label>
          Seed{" "}
          <input
            type="number"
            name="seed"
            min={0}
            value={seed}
            onInput={(ev) => setSeed(Number((ev.target as HTMLInputElement).value))}
          />
        </label>
        <button type="submit" disabled={busy}>
          Play
        </button>
      </form>
      {card === null ? null : (
        <div class="try-card">
          <CardFace card={card} names={names} />
        </div>
      )}
      {play0 === undefined ? null : (
        <section class="try-result" aria-label="Result">
          <h3>Events</h3>
          <ol class="events">
            {play0.events.map((e, i) => <EventView key={i} e={e} />)}
          </ol>
          <p class="fingerprint engine">
            fingerprint <code>{play0.fingerprint.slice(0, 16)}…</code>
          </p>
        </section>
      )}
    </section>
  )
}
