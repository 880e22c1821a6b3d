/**
 * Cards: the runtime's cards, one drawn as a card, the transformations
 * `discover` offers beside it (compatible first; incompatible ones with their
 * diagnostic codes), and the stored instance's commands — apply, remove,
 * replace — with the card redrawn and changed components highlighted, its
 * history and its branches.
 *
 * @since 0.1.0
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks"
import type { CardListItemDoc, HistoryEventDoc, InstanceDoc, LedgerCommand } from "../Api.js"
import { useNames } from "../Locale.js"
import type { DiscoverDoc } from "../model/Docs.js"
import { sortOffers } from "../model/Offers.js"
import type { ViewProps } from "../Views.js"
import { BeforeAfter, type Comparison } from "./BeforeAfter.js"
import { CardFace } from "./CardFace.js"
import { Diagnostics, ErrorBox, humanize, useTask, wordsOf } from "./Common.js"

const newCommandId = (): string => `web-${crypto.randomUUID()}`

/** What the view draws of an instance (an untouched one is the catalog card: no stored sequence or origins). */
type ShownInstance = Pick<InstanceDoc, "instanceId" | "cardId" | "branch" | "revision" | "ledger" | "effective">

const historyLine = (e: HistoryEventDoc, upgrade: (id: string) => string): string => {
  const c = e.body.command
  const what = c === undefined
    ? e.kind
    : [c.kind, "upgradeId" in c ? upgrade(c.upgradeId) : undefined]
      .filter((x) => x !== undefined)
      .join(" ")
  return `revision ${e.revision}: ${what}`
}

export const CardsView = ({ api, runtime }: ViewProps) => {
  const [cards, setCards] = useState<ReadonlyArray<CardListItemDoc>>([])
  const [cardId, setCardId] = useState<string | null>(null)
  const [activity, setActivity] = useState("scenario")
  const [branch, setBranch] = useState("main")
  const [branches, setBranches] = useState<ReadonlyArray<string>>(["main"])
  /** Branches made on this page: any instance can be written there, so they stay offered. */
  const [created, setCreated] = useState<ReadonlyArray<string>>([])
  const [instance, setInstance] = useState<ShownInstance | null>(null)
  const [offers, setOffers] = useState<DiscoverDoc | null>(null)
  const [history, setHistory] = useState<ReadonlyArray<HistoryEventDoc>>([])
  const [changed, setChanged] = useState<ReadonlyArray<string>>([])
  const [outcome, setOutcome] = useState<string | null>(null)
  const [newBranch, setNewBranch] = useState("")
  const [replaceWith, setReplaceWith] = useState<Readonly<Record<string, string>>>({})
  const [comparison, setComparison] = useState<Comparison | null>(null)
  /** The upgrade previewed now (redrawn from new content when the served content switches), or null. */
  const previewing = useRef<string | null>(null)
  /** The content hash the instance was last drawn from (a change of it is a switch, not a new selection). */
  const drawnFrom = useRef(runtime.contentHash)
  const { busy, failure, run } = useTask()
  const names = useNames(runtime)
  const words = useMemo(
    () =>
      wordsOf([
        ...runtime.transformations.map((t) => [t, names.upgrade(t)] as const),
        ...cards.map((c) => [c.cardId, names.card(c.cardId, c.nameKey)] as const)
      ]),
    [names, cards, runtime]
  )
  const instanceId = cardId === null ? "" : `workbench.${cardId}`

  // The card list: again whenever the served content switches (the selected card stays selected).
  useEffect(() => {
    void run(async () => {
      const list = await api.cards()
      setCards(list)
      setCardId((c) => c !== null && list.some((x) => x.cardId === c) ? c : list[0]?.cardId ?? null)
    })
  }, [api, run, runtime.contentHash])

  /**
   * The branches offered: those the instance can be read on (listed under its route only once it is
   * stored, so opening a card never asks about an instance that does not exist), `main`, the ones made
   * here, and the current one.
   */
  const offered = (listed: ReadonlyArray<string>, br: string): ReadonlyArray<string> => {
    const all = ["main", ...listed.filter((b) => b !== "main"), ...created, br]
    return all.filter((b, i) => all.indexOf(b) === i)
  }

  /**
   * The instance as stored, with the offers for it. An instance no command
   * has touched yet (revision 0) is the catalog card with an empty ledger:
   * it is drawn from `effective` and has no history to read.
   */
  const reload = async (id: string, br: string, act: string): Promise<ShownInstance["effective"]> => {
    const iid = `workbench.${id}`
    const disc = await api.discover({ cardId: id, activity: act, instanceId: iid, branch: br })
    if (disc.revision === 0) {
      const card = await api.effective(id)
      setInstance({
        instanceId: iid,
        cardId: id,
        branch: br,
        revision: 0,
        ledger: card.ledger,
        effective: card.effectiveBase
      })
      setHistory([])
      setOffers(disc)
      setBranches(offered([], br))
      return card.effectiveBase
    }
    const [inst, hist, listed] = await Promise.all([
      api.instance(iid, br),
      api.history(iid, br),
      api.branches(iid)
    ])
    setInstance(inst)
    setHistory(hist)
    setOffers(disc)
    setBranches(offered(listed.map((b) => b.name), br))
    return inst.effective
  }

  useEffect(() => {
    if (cardId === null) return
    // A switch of the served content redraws what is open (the card, its preview); a new selection starts afresh.
    const switched = drawnFrom.current !== runtime.contentHash
    drawnFrom.current = runtime.contentHash
    const again = switched ? previewing.current : null
    setChanged([])
    setOutcome(null)
    if (again === null) {
      setComparison(null)
      previewing.current = null
    }
    void run(async () => {
      const effective = await reload(cardId, branch, activity)
      if (again !== null) await showPreview(again, effective, await activeUpgrades(cardId, branch, activity))
    })
  }, [cardId, branch, activity, runtime.contentHash])

  // Time to interactive (measured by scripts/bench/workbench.mjs): the first card drawn with its controls.
  useEffect(() => {
    if (instance !== null && performance.getEntriesByName("workbench:interactive").length === 0) {
      performance.mark("workbench:interactive")
    }
  }, [instance])

  const upgradeName = (command: LedgerCommand): string =>
    "upgradeId" in command ? names.upgrade(command.upgradeId) : `entry ${command.entryId}`

  const send = (command: LedgerCommand) =>
    run(async () => {
      if (cardId === null || instance === null) return
      const before = instance.effective
      const result = await api.command(instanceId, {
        commandId: newCommandId(),
        cardId,
        branch,
        expectedRevision: instance.revision,
        activity,
        command
      })
      const after = await reload(cardId, branch, activity)
      previewing.current = null
      setChanged(result.changedComponentIds)
      setOutcome(`${command.kind}: ${result.status}, revision ${result.revision}`)
      setComparison({
        title: `${command.kind === "remove" ? "Removed" : "Applied"}: ${upgradeName(command)}`,
        before,
        after
      })
    })

  /** The active entries' upgrades of the instance as stored now. */
  const activeUpgrades = async (id: string, br: string, act: string): Promise<ReadonlyArray<string>> => {
    const disc = await api.discover({ cardId: id, activity: act, instanceId: `workbench.${id}`, branch: br })
    if (disc.revision === 0) return []
    const inst = await api.instance(`workbench.${id}`, br)
    return inst.ledger.entries.filter((e) => e.state === "active").map((e) => e.upgradeId)
  }

  const showPreview = async (
    upgradeId: string,
    before: ShownInstance["effective"],
    active: ReadonlyArray<string>
  ) => {
    if (cardId === null) return
    const card = await api.effective(cardId, [...active, upgradeId])
    previewing.current = upgradeId
    setComparison({ title: `Preview: ${names.upgrade(upgradeId)}`, before, after: card.effectiveBase })
  }

  /** An upgrade's preview: the card with the active entries' upgrades and this one sealed in order. */
  const preview = (upgradeId: string) =>
    run(async () => {
      if (cardId === null || instance === null) return
      const active = instance.ledger.entries.filter((e) => e.state === "active").map((e) => e.upgradeId)
      await showPreview(upgradeId, instance.effective, active)
    })

  const createBranch = () =>
    run(async () => {
      const name = newBranch.trim()
      if (cardId === null || name === "") return
      await api.createBranch(instanceId, { name, parent: branch })
      setCreated((cs) => (cs.includes(name) ? cs : [...cs, name]))
      setBranches((bs) => (bs.includes(name) ? bs : [...bs, name]))
      setNewBranch("")
      setBranch(name)
    })

  const entries = instance?.ledger.entries.filter((e) => e.state === "active") ?? []
  const compatible = offers === null ? [] : offers.offers.filter((o) => o.assessment.isCompatible)

  const ledgerSection = (
    <section class="instance" aria-label="Stored instance">
      <h3>
        Stored copy on branch <code>{branch}</code>, revision {instance?.revision ?? "–"}
        <span class="engine">
          {" "}(instance <code>{instanceId}</code>)
        </span>
      </h3>
      <h4>Ledger</h4>
      {entries.length === 0 ? <p class="muted">No active entries.</p> : null}
      <ul class="ledger">
        {entries.map((e) => (
          <li key={e.entryId} data-entry={e.entryId}>
            <code class="engine">{e.entryId}</code> <span title={e.upgradeId}>{names.upgrade(e.upgradeId)}</span>{" "}
            <code class="muted engine">{e.upgradeId}</code>
            <button
              type="button"
              disabled={busy}
              onClick={() => void send({ kind: "remove", entryId: e.entryId })}
            >
              Remove {names.upgrade(e.upgradeId)}
            </button>
            <label>
              Replace {names.upgrade(e.upgradeId)} with{" "}
              <select
                value={replaceWith[e.entryId] ?? ""}
                onChange={(ev) =>
                  setReplaceWith({ ...replaceWith, [e.entryId]: (ev.target as HTMLSelectElement).value })}
              >
                <option value="">—</option>
                {(offers?.offers ?? []).map((o) => (
                  <option key={o.upgradeId} value={o.upgradeId}>
                    {names.upgrade(o.upgradeId)}
                  </option>
                ))}
              </select>
            </label>
            <button
              type="button"
              disabled={busy || (replaceWith[e.entryId] ?? "") === ""}
              onClick={() =>
                void send({ kind: "replace", entryId: e.entryId, upgradeId: replaceWith[e.entryId] ?? "" })}
            >
              Replace
            </button>
          </li>
        ))}
      </ul>
      <h4>History</h4>
      <ol class="history" aria-label="History">
        {history.map((h) => <li key={h.sequence}>{historyLine(h, names.upgrade)}</li>)}
      </ol>
      <h4>Branches</h4>
      <div class="branches">
        <label>
          Branch{" "}
          <select
            value={branch}
            onChange={(ev) => setBranch((ev.target as HTMLSelectElement).value)}
            aria-label="Switch branch"
          >
            {branches.map((b) => (
              <option key={b} value={b}>
                {b}
              </option>
            ))}
          </select>
        </label>
        <label>
          New branch name{" "}
          <input value={newBranch} onInput={(ev) => setNewBranch((ev.target as HTMLInputElement).value)} />
        </label>
        <button type="button" disabled={busy || newBranch.trim() === ""} onClick={() => void createBranch()}>
          Create branch
        </button>
      </div>
    </section>
  )

  return (
    <section class="view cards-view" aria-labelledby="cards-title">
      <h2 id="cards-title">Cards</h2>
      <ErrorBox failure={failure} />
      <div class="cards-layout">
        <nav class="card-list" aria-label="Cards">
          <ul>
            {cards.map((c) => (
              <li key={c.cardId}>
                <button
                  type="button"
                  aria-pressed={c.cardId === cardId}
                  onClick={() => setCardId(c.cardId)}
                  data-card={c.cardId}
                >
                  <span class="cost-chip" aria-label={`cost ${c.cost}`}>{c.cost}</span>{" "}
                  {names.card(c.cardId, c.nameKey)}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <div class="card-column">
          {instance === null
            ? <p class="muted">{busy ? "Loading…" : "Choose a card."}</p>
            : <CardFace card={instance.effective} names={names} changed={changed} />}
          <p class="outcome" role="status" aria-live="polite">
            {outcome ?? ""}
          </p>
          {comparison === null
            ? null
            : <BeforeAfter comparison={comparison} names={names} onClose={() => setComparison(null)} />}
        </div>
        <aside class="offers" aria-label="Offers">
          <h3>Offers</h3>
          <label>
            Activity{" "}
            <select
              name="activity"
              value={activity}
              onChange={(ev) => setActivity((ev.target as HTMLSelectElement).value)}
            >
              {runtime.activities.map((a) => (
                <option key={a} value={a}>
                  {humanize(a)}
                </option>
              ))}
            </select>
          </label>
          <ul class="offer-list">
            {sortOffers(offers?.offers ?? []).map((o) => (
              <li
                key={o.upgradeId}
                class={o.assessment.isCompatible ? "offer compatible" : "offer incompatible"}
                data-offer={o.upgradeId}
              >
                <div class="offer-head">
                  <strong title={o.upgradeId}>{names.upgrade(o.upgradeId)}</strong>
                  <span class="muted">
                    <code class="engine">{o.upgradeId} ·</code> {humanize(o.category ?? "")}{" "}
                    {o.slotId !== undefined ? `· slot ${humanize(o.slotId)}` : ""}
                  </span>
                </div>
                {o.assessment.isCompatible ?
                  (
                    <div>
                      <span class="ok">compatible</span>{" "}
                      <span class="muted engine">
                        changes {o.assessment.changedComponentIds.join(", ") || "nothing"}
                      </span>
                      <div class="offer-actions">
                        <button
                          type="button"
                          class="preview"
                          disabled={busy}
                          onClick={() => void preview(o.upgradeId)}
                        >
                          Preview {names.upgrade(o.upgradeId)}
                        </button>
                        <button
                          type="button"
                          class="apply"
                          disabled={busy}
                          onClick={() => void send({ kind: "apply", upgradeId: o.upgradeId })}
                        >
                          Apply {names.upgrade(o.upgradeId)}
                        </button>
                      </div>
                    </div>
                  ) :
                  <Diagnostics items={o.assessment.diagnostics} words={words} />}
              </li>
            ))}
          </ul>
          {compatible.length === 0 && offers !== null
            ? <p class="muted">Nothing compatible in {humanize(offers.activity)}.</p>
            : null}
        </aside>
        {ledgerSection}
      </div>
    </section>
  )
}
