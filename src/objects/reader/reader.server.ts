/**
 * A reader's own Durable Object (issue 38; docs/ARCHITECTURE.md "Reader objects"), addressed by the reader's id
 * (`withReader`, stub.server.ts), stored in SQLite (wrangler.jsonc `durable_objects`, migration tag v1). It holds what
 * belongs to one reader — their reading progress, favourites, hidden series, sessions, address, alarms and money (coin lots
 * and ledger, purchases and rights, payments, gifts, coupons, tickets: money-db.server.ts) — and runs each call's writes
 * in one transaction with the outbox rows that tell the shared side (events.ts). The outbox is sent to the queue `READER_EVENTS` right after the write
 * and keeps each event until the consumer says it is applied (`applied`); the object's alarm sends again what it still holds.
 *
 * The move from D1: the first call of a reader takes their rows of `reading_progress`, `favorites`, `hidden_series`,
 * `refresh_tokens`, `addresses`, `alarms` and the money tables (money-move.server.ts; and deletes them there), under `blockConcurrencyWhile` so no other call sees the object half-moved; the cron moves
 * readers who make no call (move.server.ts, `moveIn`). A move merges — the newer place in a series wins, a mark the
 * object holds stays — so a move made twice changes nothing. An object is moved again once when what moves grows
 * (`MOVES`): the one of a reader moved before favourites moved takes them on its next call.
 */
import { DurableObject } from 'cloudflare:workers'
import { migrateReader } from './schema.server.ts'
import { EVENTS_PER_MESSAGE, dayOf, type ReaderEvent, type ReaderEventsJob } from '../../features/reader/events.ts'
import {
  hiddenSeries,
  markedSeries,
  marksOf,
  mergeMarks,
  setMark,
  type Mark,
  type MarkedSeries,
  type SeriesMarks,
} from '../../features/library/marks.server.ts'
import {
  mergeProgress,
  positionAt,
  progressIn,
  recentProgress,
  writeProgress,
  type StoredProgress,
} from '../../features/viewer/progress-store.server.ts'
import {
  endAllSessions,
  endSession,
  mergeSessions,
  openSessions,
  rotateSession,
  sessionOpen,
  signIns,
  startSession,
  type MovedToken,
  type Rotated,
  type Rotation,
  type SessionStart,
} from '../../features/auth/session-store.server.ts'
import type { ReaderSignIn } from '../../features/auth/session-store.server.ts'
import { readAddress, writeAddress } from '../../features/payment/address-store.server.ts'
import type { Address } from '../../features/payment/address.ts'
import {
  addAlarms,
  alarmPage,
  claimPush,
  mergeAlarms,
  readAlarm,
  readAllAlarms,
  unreadAlarms,
} from '../../features/alarm/alarm-store.server.ts'
import { ALARM_KEEP_MS, type AlarmRow, type AlarmRuleName, type NewAlarm } from '../../features/alarm/alarm.ts'
import type { Cursor } from '../../features/catalogue/catalogue.ts'
import { isoAfter } from '../../lib/time.ts'
import type { Statement } from '../../lib/server/db.ts'
import { localDb, runMoneyBatch, type MoneyOutcome } from '../../features/reader/money-store.server.ts'
import { moneyChores, nextMoneyDue, noticeAlarms, noticesDue } from './money-time.server.ts'
import { queuePushes, type Written } from '../../features/alarm/alarm.server.ts'
import { createDb } from '../../lib/server/db.ts'
import { countMetric } from '../../lib/metrics/metrics.server.ts'
import { forgetMoney, mergeMoney, takeMoney } from './money-move.server.ts'
import { toAdultState } from '../../features/age/age.server.ts'
import { ACCOUNT_CARD_SQL, dropCard, keepCard, keptCard, type AccountCard } from '../../features/age/account-card.server.ts'
import type { SessionClaim } from '../../features/reader/session-claim.ts'
import { HELD_SQL, HOLDINGS_SQL, heldParams, type EpisodeHoldingRow } from '../../features/ownership/holding.server.ts'
import { episodeAccess, type AccessEpisode } from '../../features/viewer/viewer.ts'
import { isAdult, mayOpen, type AgeEdition } from '../../features/age/age.ts'
import { likes, setLike } from '../../features/like/likes.server.ts'
import { follows, setFollow } from '../../features/library/follows.server.ts'
import { spendingIn, writeLimit, type MonthSpent } from '../../features/spending/limit.server.ts'
import type { LimitState } from '../../features/spending/spending.ts'
import { readerRows, type ReaderRows } from '../../features/export/reader-rows.server.ts'
import type { MoneyRun } from '../../features/reader/money-store.server.ts'
import { PROCEDURES, type ProcedureInput, type ProcedureName, type ProcedureOutcome } from './procedures.server.ts'

/** A call made with an access token's claim whose session the object found ended (the caller answers NEED_TO_REFRESH). */
export type SessionEnded = { sessionEnded: true }
/** Who a money call is for: `session`, an access token's claim the object checks first; `account`, the card without a check. */
type Caller = { session?: SessionClaim; account?: boolean }

/** An episode a reader opens, as the viewer asks their object about it (`opening`). */
type Opening = {
  session?: SessionClaim
  episodeId: number
  seriesId: number
  /** The episode as the access rule reads it. */
  episode: AccessEpisode
  /** The paid episodes whose holdings are asked: the episode and the next one, when they are paid. */
  paidIds: number[]
  ageRules: Pick<AgeEdition, 'krAdultAuth' | 'adultNeedsBirthDate' | 'notLoggedInAdultCookie'>
  now: string
}
/** `ended`: the token's session has ended (nothing else is read); `card`: null for a gone account; `liked`: the reader likes the episode. */
type Opened = { ended: boolean; card: AccountCard | null; holdings: EpisodeHoldingRow[]; position: number | null; liked: boolean }

/** A like or its withdrawal (`on`), as the like route asks the reader's object (`like`). */
type Liking = {
  session: SessionClaim
  seriesId: number
  episodeId: number
  /** The series is for adults: only an adult reader may like its episodes. */
  seriesIsAdult: boolean
  ageRules: Pick<AgeEdition, 'krAdultAuth' | 'adultNeedsBirthDate' | 'notLoggedInAdultCookie'>
  on: boolean
  now: string
}

/** How long after a send the alarm sends again what the consumer has not said it applied. */
const OUTBOX_RETRY_MS = 60_000
/**
 * What the move from D1 takes: 1 reading progress, 2 and favourites and hidden series, 3 and sessions, 4 and the
 * address, 5 and the alarms, 6 and the money rows (fact `moved`).
 */
const MOVES = 6
/** D1's refresh tokens a move takes (`?`: now). */
export const LIVE_TOKENS = `revoked_at IS NULL AND expires_at > ?`
/** Rows of one table a move takes at most. */
const MOVE_ROWS = 5000

export class Reader extends DurableObject<Cloudflare.Env> {
  private readonly sql: SqlStorage
  /** The reader this object belongs to, once its first call (and its move from D1) is done. */
  private readerId: number | null = null
  /** Whether this object took all of what moves today (`MOVES`). */
  private moved = false
  /** The alarm's instant as this instance set or read it (null: none set; undefined: not read yet). */
  private alarmAt: number | null | undefined = undefined
  /** The newest outbox event this instance has sent: an outbox still holding it has a message on its way (an instance started afresh sends its outbox at its first write). */
  private sent = 0
  /** Moves on at each drop of the account card: a read of D1 begun before a drop keeps nothing. */
  private cardDrops = 0
  /** The read of the account card under way, which the checks that arrive meanwhile share. */
  private cardRead: Promise<AccountCard | null> | null = null
  /** The UTC day the daily report last counted this reader active (`facts.active_day`; undefined: not read yet). */
  private activeDay: string | null | undefined = undefined

  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env)
    this.sql = ctx.storage.sql
    void ctx.blockConcurrencyWhile(async () => {
      migrateReader(ctx.storage)
      const known = this.fact('reader')
      this.readerId = known === null ? null : Number(known)
      this.moved = Number(this.fact('moved')) === MOVES
    })
  }

  /**
   * Saves where the reader is in a series (the caller has checked that the episode is published). `by.session`: the
   * access token's claim, checked first (`session`); `by.paid`: the episode is not free, so the reader must hold it at
   * the save's instant (`HELD_SQL` over their rights). A refusal writes nothing.
   */
  async saveProgress(
    readerId: number,
    progress: StoredProgress,
    by: { session?: SessionClaim; paid?: boolean } = {},
  ): Promise<{ refused: 'NEED_TO_REFRESH' | 'UNAUTHORIZED_CONTENTS' | null; updatedAt: string }> {
    await this.ready(readerId)
    const { updatedAt } = progress
    if (by.session && !(await this.checked(readerId, by.session))) return { refused: 'NEED_TO_REFRESH', updatedAt }
    const held = `SELECT ${HELD_SQL} AS held`
    if (by.paid && this.sql.exec<{ held: number }>(held, ...heldParams(readerId, progress.episodeId, updatedAt)).one().held !== 1)
      return { refused: 'UNAUTHORIZED_CONTENTS', updatedAt }
    await this.write(() => writeProgress(this.sql, progress))
    return { refused: null, updatedAt }
  }

  /**
   * An episode the reader opens (viewer/viewer.server.ts `openEpisode`), in one call: the access token's session checked
   * when its claim is given (else the account card as kept), the reader's holdings of the paid episodes asked and their
   * place in the episode. When the access rule (`episodeAccess`) opens it to a live account, their first open of it on
   * the UTC day is a view (docs/API.md "View counts"), told to the series' counts through the outbox; earlier days'
   * rows go in the same write.
   */
  async opening(readerId: number, o: Opening): Promise<Opened> {
    await this.ready(readerId)
    const card = o.session ? await this.checked(readerId, o.session) : await this.card(readerId)
    if (o.session && !card) return { ended: true, card: null, holdings: [], position: null, liked: false }
    const holdings =
      o.paidIds.length === 0 ? [] : this.sql.exec<EpisodeHoldingRow>(HOLDINGS_SQL, readerId, JSON.stringify(o.paidIds)).toArray()
    const now = new Date(o.now)
    const own = holdings.filter((h) => h.episodeId === o.episodeId)
    const adult = isAdult(o.ageRules, toAdultState(card ?? undefined), undefined, now)
    if (card && episodeAccess(o.episode, { adult }, own, now).open) {
      const { seriesId, episodeId } = o
      const day = dayOf(o.now)
      await this.write(() => {
        this.sql.exec(`DELETE FROM views WHERE day < ?`, day)
        const counted =
          this.sql
            .exec(`INSERT INTO views (day, episode_id) VALUES (?, ?) ON CONFLICT DO NOTHING RETURNING episode_id`, day, episodeId)
            .toArray().length > 0
        return counted ? { kind: 'view', seriesId, episodeId, day } : null
      })
    }
    return { ended: false, card, holdings, position: positionAt(this.sql, o.episodeId), liked: likes(this.sql, o.episodeId) }
  }

  /**
   * Likes an episode or stops liking it (issue 37 point 3): the access token's session checked first, an adult series'
   * episode for an adult reader only. Repeatable: answers whether the reader now likes it and whether this call changed
   * it (a change tells the series' tally through the outbox, in the same transaction).
   */
  async like(readerId: number, l: Liking): Promise<{ refused: 'NEED_TO_REFRESH' | 'ADULT_ONLY_CONTENTS' | null; changed: boolean }> {
    await this.ready(readerId)
    const card = await this.checked(readerId, l.session)
    if (!card) return { refused: 'NEED_TO_REFRESH', changed: false }
    if (!mayOpen(l.seriesIsAdult, isAdult(l.ageRules, toAdultState(card), undefined, new Date(l.now))))
      return { refused: 'ADULT_ONLY_CONTENTS', changed: false }
    let changed = false
    await this.write(() => {
      const event = setLike(this.sql, l.seriesId, l.episodeId, l.on, l.now)
      changed = event !== null
      return event
    })
    return { refused: null, changed }
  }

  /** Whether the reader follows creator `creatorId` (issue 37 point 2). */
  async following(readerId: number, creatorId: number): Promise<boolean> {
    await this.ready(readerId)
    return follows(this.sql, creatorId)
  }

  /** Follows a creator or stops (the caller has checked that the creator exists); repeatable. */
  async follow(readerId: number, creatorId: number, on: boolean): Promise<void> {
    await this.ready(readerId)
    await this.write(() => setFollow(this.sql, creatorId, on, new Date().toISOString()))
  }

  /** The reader's spending limit at `now` and what they spent on episodes since `since` (issue 37 point 5). */
  async spending(readerId: number, since: string, now: string): Promise<MonthSpent & { limit: LimitState }> {
    await this.ready(readerId)
    return spendingIn(this.sql, readerId, since, new Date(now))
  }

  /** The reader asks for spending limit `coins` (null: none): lower at once, higher after a day (`changeLimit`). */
  async setSpendingLimit(readerId: number, coins: number | null, now: string): Promise<LimitState> {
    await this.ready(readerId)
    return writeLimit(this.sql, coins, new Date(now))
  }

  /** The reader's library rows for their data export (issue 37 point 6). */
  async exportRows(readerId: number): Promise<ReaderRows> {
    await this.ready(readerId)
    return readerRows(this.sql)
  }

  /** The reader's place in a series and their marks on it. */
  async inSeries(readerId: number, seriesId: number): Promise<SeriesMarks & { progress: StoredProgress | null }> {
    await this.ready(readerId)
    return { progress: progressIn(this.sql, seriesId), ...marksOf(this.sql, seriesId) }
  }

  /**
   * A series page's reader part in one call (SeriesMe.astro, GET /contents/{id}/me): their place in the series and their
   * marks on it, and `money`'s reads of their money rows (their rights and ticket use in it); with `me`, first the
   * header's part (the `me` procedure) after the session's check, which, refused, answers nothing else.
   */
  async seriesPart(
    readerId: number,
    seriesId: number,
    money: Statement[],
    me?: { claim: SessionClaim; input: ProcedureInput<'me'> },
  ): Promise<(SeriesMarks & { progress: StoredProgress | null; money: MoneyOutcome; me?: ProcedureOutcome<'me'> }) | SessionEnded> {
    const header = me && (await this.decide(readerId, 'me', me.input, { session: me.claim }))
    if (header && 'sessionEnded' in header) return header
    return { ...(await this.inSeries(readerId, seriesId)), money: this.transact(money), ...(header !== undefined && { me: header }) }
  }

  /** Sets or clears a favourite or a hidden mark (the caller has checked that the series is published). */
  async mark(readerId: number, seriesId: number, mark: Mark, on: boolean): Promise<void> {
    await this.ready(readerId)
    await this.write(() => setMark(this.sql, seriesId, mark, on, new Date().toISOString()))
  }

  /** A shelf of marks (favourites leave out hidden series), newest first after `cursor`. */
  async marked(readerId: number, mark: Mark, cursor: MarkedSeries | null, limit: number): Promise<MarkedSeries[]> {
    await this.ready(readerId)
    return markedSeries(this.sql, mark, cursor, limit)
  }

  /** The series the reader hid. */
  async hidden(readerId: number): Promise<number[]> {
    await this.ready(readerId)
    return hiddenSeries(this.sql)
  }

  /** Where the reader stopped in an episode (null: not the last one they read of its series). */
  async positionAt(readerId: number, episodeId: number): Promise<number | null> {
    await this.ready(readerId)
    return positionAt(this.sql, episodeId)
  }

  /** The reader's series, newest read first, after `cursor`. */
  async recentProgress(readerId: number, cursor: { updatedAt: string; seriesId: number } | null, limit: number): Promise<StoredProgress[]> {
    await this.ready(readerId)
    return recentProgress(this.sql, cursor, limit)
  }

  /** A sign-in: a new session with its first refresh token (auth/session-store.server.ts). */
  async startSession(readerId: number, start: SessionStart): Promise<void> {
    await this.ready(readerId)
    this.ctx.storage.transactionSync(() => startSession(this.sql, start))
  }

  /** A refresh: the token replaced, or the refusal (and the session it ended). */
  async rotateSession(readerId: number, rotation: Rotation): Promise<Rotated> {
    await this.ready(readerId)
    return this.ctx.storage.transactionSync(() => rotateSession(this.sql, rotation))
  }

  /** A logout: the token's session ends; its id, or null for a token unknown here. */
  async endSession(readerId: number, tokenHash: string, now: string): Promise<string | null> {
    await this.ready(readerId)
    return this.ctx.storage.transactionSync(() => endSession(this.sql, tokenHash, now))
  }

  /** Every session ends (the account's version moved on from `version`); answers how many were open. */
  async endAllSessions(readerId: number, version: number, now: string): Promise<number> {
    await this.ready(readerId)
    this.dropAccount()
    return this.ctx.storage.transactionSync(() => endAllSessions(this.sql, version, now))
  }

  /**
   * The session check of an access token (age/account-card.server.ts): its session open here at the token's version,
   * and the account card at that version too. The card (the reader's flags, switches and profile), else null. D1 is read
   * only when no card younger than an access token's life is kept, or when the token is newer than the card.
   */
  async session(readerId: number, claim: SessionClaim): Promise<AccountCard | null> {
    await this.ready(readerId)
    return this.checked(readerId, claim)
  }

  /** The account's row changed in D1 (account-card.server.ts): the next check reads it again. */
  async forgetAccount(): Promise<void> {
    this.dropAccount()
  }

  /** The reader's open sessions and newest sign-ins, for an operator's look-up. */
  async sessions(readerId: number, version: number, now: string, limit: number): Promise<{ open: number; signIns: ReaderSignIn[] }> {
    await this.ready(readerId)
    return { open: openSessions(this.sql, version, now), signIns: signIns(this.sql, version, now, limit) }
  }

  /** The reader's shipping address, or null. */
  async address(readerId: number): Promise<Address | null> {
    await this.ready(readerId)
    return readAddress(this.sql)
  }

  /** Saves (replaces) the reader's shipping address. */
  async saveAddress(readerId: number, address: Address, now: string): Promise<void> {
    await this.ready(readerId)
    writeAddress(this.sql, address, now)
  }

  /** Delivers alarms (each once, by its dedup key); answers the ids of those the reader did not have. */
  async addAlarms(readerId: number, alarms: NewAlarm[]): Promise<number[]> {
    await this.ready(readerId)
    return this.ctx.storage.transactionSync(() => addAlarms(this.sql, alarms, new Date().toISOString()))
  }

  /** A page of the reader's alarms after `cursor` (one more row when there are more). */
  async alarms(readerId: number, cursor: Cursor | null): Promise<AlarmRow[]> {
    await this.ready(readerId)
    return alarmPage(this.sql, cursor, new Date().toISOString())
  }

  /** The reader's unread alarms. */
  async unreadAlarms(readerId: number): Promise<number> {
    await this.ready(readerId)
    return unreadAlarms(this.sql, new Date().toISOString())
  }

  /** Marks one alarm read (repeatable): its link, or false when there is no such alarm. */
  async readAlarm(readerId: number, id: number, now: string): Promise<string | null | false> {
    await this.ready(readerId)
    return readAlarm(this.sql, id, now)
  }

  /** Marks every alarm read; answers how many were unread. */
  async readAllAlarms(readerId: number, now: string): Promise<number> {
    await this.ready(readerId)
    return readAllAlarms(this.sql, now)
  }

  /** Claims an alarm's push at `at` (once, and not for an alarm read), or gives the claim back (`release`). */
  async claimPush(readerId: number, id: number, at: string, release: boolean): Promise<AlarmRow | null> {
    await this.ready(readerId)
    return claimPush(this.sql, id, at, release)
  }

  /**
   * Runs a batch over the reader's money rows in one transaction (money-store.server.ts); given an access token's claim,
   * after its session check (`session`), which refused runs nothing.
   */
  async money(readerId: number, statements: Statement[], claim?: SessionClaim): Promise<MoneyOutcome | SessionEnded> {
    await this.ready(readerId)
    if (claim && !(await this.checked(readerId, claim))) return { sessionEnded: true }
    const outcome = this.transact(statements)
    // a batch that wrote nothing (a refusal undid it, or it only read) has no event to send and moves no due instant
    if (outcome.ok && outcome.results.some((r) => r.meta.rows_written)) await this.afterMoney()
    return outcome
  }

  /**
   * Runs the money procedure `name` (procedures.server.ts) on `input`: it reads, decides and writes in one turn, which no
   * other call interleaves; what it wrote then leaves the outbox and sets the next wake.
   */
  async decide<K extends ProcedureName>(
    readerId: number,
    name: K,
    input: ProcedureInput<K>,
    by: Caller = {},
  ): Promise<ProcedureOutcome<K> | SessionEnded> {
    await this.ready(readerId)
    // the account card, checked against the caller's session when the caller gives one
    const account = by.session ? await this.checked(readerId, by.session) : by.account ? await this.card(readerId) : undefined
    if (by.session && !account) return { sessionEnded: true }
    let wrote = false
    const run: MoneyRun = (statements) => {
      const outcome = this.transact(statements, false)
      wrote ||= outcome.ok && outcome.results.some((r) => r.meta.rows_written)
      return outcome
    }
    const outcome = (PROCEDURES[name] as (run: MoneyRun, input: ProcedureInput<K>, account?: AccountCard | null) => ProcedureOutcome<K>)(
      run,
      input,
      account,
    )
    if (wrote) await this.afterMoney()
    return outcome
  }

  /** Moves the reader's rows still in D1 (the cron's background move; any number of times). */
  async moveIn(readerId: number): Promise<number> {
    let moved = 0
    await this.ctx.blockConcurrencyWhile(async () => {
      moved = await this.move(readerId)
    })
    return moved
  }

  /**
   * The account was withdrawn: what follows or profiles the reader goes (progress, marks, sessions, address, alarms, likes, follows, the spending limit);
   * the money records stay, as they did in D1 (payments, purchases and the ledger are the service's accounts; the
   * withdrawal expired the coins left).
   */
  async forget(): Promise<void> {
    this.dropAccount()
    this.ctx.storage.transactionSync(() => {
      // likes and follows (their D1 projections are deleted by the withdrawal itself; an episode keeps its count) and
      // the spending limit profile the reader too
      for (const table of ['progress', 'marks', 'refresh_tokens', 'sessions', 'address', 'alarms', 'likes', 'follows', 'spending_limit'])
        this.sql.exec(`DELETE FROM ${table}`)
    })
  }

  /**
   * The alarm sends what the outbox still holds, then does the reader's money chores and notices that are due
   * (money-time.server.ts), and sets the next wake.
   */
  override async alarm(): Promise<void> {
    // the alarm that fired is spent: none is set until this run sets one
    this.alarmAt = null
    await this.flush(true)
    if (this.readerId !== null) await this.wake(this.readerId, new Date().toISOString())
  }

  /**
   * The reader's money work due at `at` (the alarm's, at the clock's now; a test's, at its own instant): expiries and
   * retention, the notices as alarms (their pushes queued), then the next wake.
   */
  async wake(readerId: number, at: string): Promise<void> {
    await this.ready(readerId)
    const now = new Date(at)
    await moneyChores(localDb(this.ctx.storage), now)
    const drafts = noticesDue(this.sql, now)
    if (drafts.length > 0) {
      const notices = await noticeAlarms(this.env.DB, drafts)
      const byRule = new Map<AlarmRuleName, Written[]>()
      this.ctx.storage.transactionSync(() => {
        for (const { rule, alarm } of notices)
          for (const id of addAlarms(this.sql, [alarm], now.toISOString()))
            byRule.set(rule, [...(byRule.get(rule) ?? []), { id, readerId }])
      })
      const db = createDb(this.env.DB)
      for (const [rule, written] of byRule) await queuePushes(db, this.env.ALARMS, rule, written)
    }
    await this.schedule(now)
  }

  /**
   * The shared side applied the events up to `seq` (events.server.ts): the outbox forgets them, and sends what was
   * written while they were on their way, or held back past a message's `EVENTS_PER_MESSAGE`.
   */
  async applied(readerId: number, seq: number): Promise<void> {
    await this.ready(readerId)
    this.sql.exec(`DELETE FROM outbox WHERE seq <= ?`, seq)
    await this.flush(false)
  }

  /** The account card when the token's session is open here at its version and the card is at that version too, else null. */
  private async checked(readerId: number, claim: SessionClaim): Promise<AccountCard | null> {
    if (!sessionOpen(this.sql, claim.sessionId, claim.sessionVersion)) return null
    const card = await this.card(readerId, claim.sessionVersion)
    if (card === null || card.sessionVersion !== claim.sessionVersion) return null
    await this.countActive()
    return card
  }

  /**
   * The daily report's active readers (src/lib/metrics/metrics.ts `active`): a reader whose session is checked on a UTC day is
   * counted once that day, whatever the number of their requests or of this object's restarts.
   */
  private async countActive(): Promise<void> {
    const day = dayOf(new Date().toISOString())
    if (this.activeDay === undefined) this.activeDay = this.fact('active_day')
    if (this.activeDay === day) return
    this.activeDay = day // before anything awaits: a check arriving meanwhile counts nothing
    this.sql.exec(`INSERT INTO facts (key, value) VALUES ('active_day', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, day)
    await countMetric({ name: 'active' })
  }

  /** The kept account card, else (or when `atLeast` is a newer session version than its own) the one read from D1. */
  private async card(readerId: number, atLeast = 0): Promise<AccountCard | null> {
    const card = keptCard(this.sql, new Date().toISOString())
    return card === undefined || (card !== null && card.sessionVersion < atLeast) ? this.readCard(readerId) : card
  }

  /** Reads the account card from D1 and keeps it, unless it was dropped meanwhile (one read for the checks that wait on it). */
  private readCard(readerId: number): Promise<AccountCard | null> {
    if (this.cardRead) return this.cardRead
    const drops = this.cardDrops
    const now = new Date().toISOString()
    const read = this.env.DB.prepare(ACCOUNT_CARD_SQL)
      .bind(readerId)
      .first<AccountCard>()
      .then((card) => {
        if (drops === this.cardDrops) keepCard(this.sql, card, now)
        return card
      })
      .finally(() => {
        if (this.cardRead === read) this.cardRead = null
      })
    this.cardRead = read
    return read
  }

  private dropAccount(): void {
    this.cardDrops++
    this.cardRead = null
    dropCard(this.sql)
  }

  /** One batch over the money rows in one transaction (the one place every money batch of a call runs: tests hook it). */
  private transact(statements: Statement[], counted = true): MoneyOutcome {
    return runMoneyBatch(this.ctx.storage, statements, counted)
  }

  /** After money was written: a purchase's event (reader migration 6's trigger) leaves the outbox; the next due instant. */
  private async afterMoney(): Promise<void> {
    await this.flush(false)
    await this.schedule(new Date())
  }

  /** Sets the object's alarm to the next money work due (money-time.server.ts). */
  private async schedule(now: Date): Promise<void> {
    const next = nextMoneyDue(this.sql, now)
    if (next !== null) await this.wakeBy(next)
  }

  /** Sets the object's alarm to `at` when it is earlier than the one set (known after the first look: `alarmAt`). */
  private async wakeBy(at: number): Promise<void> {
    if (this.alarmAt === undefined) this.alarmAt = await this.ctx.storage.getAlarm()
    if (this.alarmAt !== null && this.alarmAt <= at) return
    await this.ctx.storage.setAlarm(at)
    this.alarmAt = at
  }

  /** First call of this object's life: its reader's rows move in from D1 before anything reads or writes. */
  private async ready(readerId: number): Promise<void> {
    if (this.readerId === readerId && this.moved) return
    if (this.readerId !== null && this.readerId !== readerId)
      throw new Error(`reader object ${this.readerId} called for reader ${readerId}`)
    await this.ctx.blockConcurrencyWhile(async () => {
      if (!this.moved) await this.move(readerId)
    })
  }

  private async move(readerId: number): Promise<number> {
    const [progress, favorites, hidden, tokens, account, address, alarms] = await this.env.DB.batch([
      this.env.DB.prepare(
        `SELECT rp.series_id AS seriesId, rp.episode_id AS episodeId, e.no AS episodeNo, rp.position, rp.updated_at AS updatedAt
           FROM reading_progress rp LEFT JOIN episodes e ON e.id = rp.episode_id WHERE rp.user_id = ? LIMIT ${MOVE_ROWS}`,
      ).bind(readerId),
      this.env.DB.prepare(`SELECT series_id AS seriesId, created_at AS at FROM favorites WHERE user_id = ? LIMIT ${MOVE_ROWS}`).bind(
        readerId,
      ),
      this.env.DB.prepare(`SELECT series_id AS seriesId, created_at AS at FROM hidden_series WHERE user_id = ? LIMIT ${MOVE_ROWS}`).bind(
        readerId,
      ),
      // the tokens still of use: a revoked or expired one opens nothing (unknown to the object, it is refused the same
      // way) and stays for the retention sweep
      this.env.DB.prepare(
        `SELECT id, family_id AS sessionId, token_hash AS tokenHash, parent_id AS parentId, client_kind AS clientKind, ip_address AS ip,
                created_at AS createdAt, expires_at AS expiresAt, rotated_at AS rotatedAt
           FROM refresh_tokens WHERE ${LIVE_TOKENS} AND user_id = ? LIMIT ${MOVE_ROWS}`,
      ).bind(new Date().toISOString(), readerId),
      this.env.DB.prepare(`SELECT session_version AS version FROM users WHERE id = ?`).bind(readerId),
      this.env.DB.prepare(
        `SELECT name, city, zip_code AS zipCode, address1, address2, phone, country, updated_at AS updatedAt FROM addresses WHERE user_id = ?`,
      ).bind(readerId),
      this.env.DB.prepare(
        `SELECT id, kind, title, body, link, coalesce(dedup_key, 'MOVED:' || id) AS dedupKey, created_at AS createdAt, read_at AS readAt,
                pushed_at AS pushedAt
           FROM alarms WHERE user_id = ? AND created_at > ? ORDER BY id LIMIT ${MOVE_ROWS}`,
      ).bind(readerId, isoAfter(new Date(), -ALARM_KEEP_MS)),
    ])
    const places = (progress?.results ?? []) as (Omit<StoredProgress, 'episodeNo'> & { episodeNo: number | null })[]
    const marks = [
      ...((favorites?.results ?? []) as MarkedSeries[]).map((r) => ({ ...r, mark: 'favorite' as const })),
      ...((hidden?.results ?? []) as MarkedSeries[]).map((r) => ({ ...r, mark: 'hidden' as const })),
    ]
    const moved = (tokens?.results ?? []) as (MovedToken & { id: string })[]
    const version = (account?.results[0] as { version: number } | undefined)?.version ?? 0
    const saved = address?.results[0] as (Address & { updatedAt: string }) | undefined
    const alarmRows = (alarms?.results ?? []) as (AlarmRow & { dedupKey: string; pushedAt: string | null })[]
    const money = await takeMoney(this.env.DB, readerId)
    let moneyRows = 0
    this.ctx.storage.transactionSync(() => {
      moneyRows = mergeMoney(this.sql, money)
      // a row whose episode is gone opens nothing: it is dropped with the others
      mergeProgress(
        this.sql,
        places.filter((r): r is StoredProgress => r.episodeNo !== null),
      )
      mergeMarks(this.sql, marks)
      mergeSessions(this.sql, version, moved)
      if (saved) {
        const { updatedAt, ...fields } = saved
        writeAddress(this.sql, fields, updatedAt, true)
      }
      mergeAlarms(this.sql, alarmRows)
      this.sql.exec(`INSERT INTO facts (key, value) VALUES ('reader', ?) ON CONFLICT (key) DO NOTHING`, String(readerId))
    })
    // what was taken goes from D1 (rows written there since stay for the next move); the move counts as done after
    const taken = (rows: readonly MarkedSeries[]) => JSON.stringify(rows.map((r) => [r.seriesId, r.at]))
    const gone = (table: string, at: string) =>
      this.env.DB.prepare(
        `DELETE FROM ${table} WHERE user_id = ?1 AND EXISTS (SELECT 1 FROM json_each(?2) j
           WHERE json_extract(j.value, '$[0]') = ${table}.series_id AND json_extract(j.value, '$[1]') = ${table}.${at})`,
      )
    await this.env.DB.batch([
      gone('reading_progress', 'updated_at').bind(readerId, taken(places.map((p) => ({ seriesId: p.seriesId, at: p.updatedAt })))),
      gone('favorites', 'created_at').bind(readerId, taken(marks.filter((m) => m.mark === 'favorite'))),
      gone('hidden_series', 'created_at').bind(readerId, taken(marks.filter((m) => m.mark === 'hidden'))),
      this.env.DB.prepare(`DELETE FROM refresh_tokens WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))`).bind(
        readerId,
        JSON.stringify(moved.map((t) => t.id)),
      ),
      this.env.DB.prepare(`DELETE FROM addresses WHERE user_id = ? AND updated_at = ?`).bind(readerId, saved?.updatedAt ?? ''),
      // with the alarms of more than a month ago, which nobody sees any more
      this.env.DB.prepare(`DELETE FROM alarms WHERE user_id = ? AND (id IN (SELECT value FROM json_each(?)) OR created_at <= ?)`).bind(
        readerId,
        JSON.stringify(alarmRows.map((a) => a.id)),
        isoAfter(new Date(), -ALARM_KEEP_MS),
      ),
      ...forgetMoney(readerId, money).map((s) => this.env.DB.prepare(s.sql).bind(...(s.params ?? []))),
    ])
    this.sql.exec(
      `INSERT INTO facts (key, value) VALUES ('moved', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      String(MOVES),
    )
    this.readerId = readerId
    this.moved = true
    return places.length + marks.length + moved.length + (saved ? 1 : 0) + alarmRows.length + moneyRows
  }

  /** Runs `change` in one transaction with the outbox row of the event it answers, then sends the outbox. */
  private async write(change: () => ReaderEvent | null): Promise<void> {
    const event = this.ctx.storage.transactionSync(() => {
      const made = change()
      if (made) this.sql.exec(`INSERT INTO outbox (id, body) VALUES (?, ?)`, crypto.randomUUID(), JSON.stringify(made))
      return made
    })
    if (event) await this.flush(false)
  }

  /**
   * Sends the outbox's oldest events (at most `EVENTS_PER_MESSAGE`) as one queue message when none this instance sent is
   * still on its way (`applied` has not answered it), or when `again` (the alarm): events written meanwhile wait and go
   * together in the next message, so a reader buying or reading in a burst makes one message a round trip, not one an
   * event. The alarm is set before the send: an object stopped in between, a failed send or a message the consumer never
   * applied are sent again.
   */
  private async flush(again: boolean): Promise<void> {
    const readerId = this.readerId
    if (readerId === null) return
    const rows = this.sql
      .exec<{ seq: number; body: string }>(`SELECT seq, body FROM outbox ORDER BY seq LIMIT ?`, EVENTS_PER_MESSAGE)
      .toArray()
    const newest = rows.at(-1)?.seq ?? 0
    if (newest === 0 || (!again && rows[0]!.seq <= this.sent)) return
    await this.wakeBy(Date.now() + OUTBOX_RETRY_MS)
    try {
      await this.env.READER_EVENTS.send(
        { readerId, events: rows.map((r) => ({ seq: r.seq, event: JSON.parse(r.body) as ReaderEvent })) } satisfies ReaderEventsJob,
        { contentType: 'json' },
      )
      this.sent = Math.max(this.sent, newest)
    } catch (e) {
      console.error(JSON.stringify({ event: 'reader.outbox.failed', readerId, rows: rows.length, error: String(e) }))
    }
  }

  private fact(key: string): string | null {
    return this.sql.exec<{ value: string }>(`SELECT value FROM facts WHERE key = ?`, key).toArray()[0]?.value ?? null
  }
}
