/**
 * `npm run ops -- <command>`: operator commands on one edition through its operator API (docs/API.md "Operator API",
 * `/api/ops/*`, OPS_URL and OPS_TOKEN), called by `opsApi`: one code path for a local run (`npm start`) and a
 * deployed edition. Every change prints its plan first and is sent to an address that is not local only with --yes:
 * coins (`coins grant|deduct|show`), a series import (`import`: the folder is read and its images rendered here, the
 * rows and objects stored by the API), alarms, episodes, series, support, notices, coupons, readers, events and
 * banners. `reseed` alone works on the local state (scripts/seed.ts) and is refused when OPS_URL is not local.
 * `npm run ops -- --help` lists the commands; `npm run ops -- help <command>` explains one.
 */
import { OPS_LIST_DEFAULT, OPS_LIST_MAX, OpsListQuery, OpsReasonRequest, type OpsPage } from '../src/lib/ops.ts'
import { statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { formatMoney } from '../src/lib/i18n/format.ts'
import { wallClock } from '../src/lib/time.ts'
import { z } from 'zod'
import { AlarmBroadcastRequest } from '../src/features/alarm/alarm.ts'
import {
  CannedName,
  CannedReplyRequest,
  CannedSetRequest,
  MAX_BODY_LENGTH,
  MAX_SEARCH_TEXT,
  QNA_CATEGORIES,
  QnaAnswerRequest,
  QnaSearchQuery,
} from '../src/features/qna/qna.ts'
import type { CannedReply, SupportQna } from '../src/features/qna/qna.server.ts'
import {
  MAX_NOTICE_BODY,
  MAX_NOTICE_TITLE,
  NOTICE_CATEGORIES,
  NoticeEditRequest,
  NoticePinRequest,
  NoticePublishRequest,
} from '../src/features/notice/notice.ts'
import type { OpsNotice, OpsNoticeItem } from '../src/features/notice/notice.server.ts'
import {
  COUPON_TYPES,
  CouponCreateRequest,
  MAX_COUPON_MINIMUM,
  MAX_COUPON_QUANTITY,
  MAX_REWARD_DAYS,
  MAX_TICKETS,
  REWARD_TYPES,
} from '../src/features/coupon/coupon.ts'
import { PLATFORMS } from '../src/lib/platform.ts'
import type { CouponReader, OpsCoupon } from '../src/features/coupon/coupon.server.ts'
import {
  EarlyOpenRequest,
  EpisodeScheduleRequest,
  MAX_SERIES_SEARCH,
  SeriesListQuery,
  SeriesScheduleRequest,
  parseScheduleDays,
} from '../src/features/catalogue/catalogue-ops.ts'
import type { OpsEpisode, OpsEpisodeItem, OpsSeries, OpsSeriesItem } from '../src/features/catalogue/catalogue-ops.server.ts'
import type { EarlyEpisode } from '../src/features/catalogue/early.server.ts'
import { EventCreateRequest, MAX_EVENT_DESCRIPTION, MAX_EVENT_TITLE, OPS_EVENT_KINDS } from '../src/features/event/event.ts'
import type { OpsEvent } from '../src/features/event/event.server.ts'
import { BANNER_PLACEMENTS, BannerCreateRequest, MAX_BANNER_SIDE, MAX_BANNER_TITLE } from '../src/features/catalogue/banner-ops.ts'
import type { OpsBanner } from '../src/features/catalogue/banner-ops.server.ts'
import { BANNER_DISPLAYS } from '../src/features/catalogue/catalogue.ts'
import { importKeys } from '../src/features/catalogue/series-import.ts'
import { SLICE_WIDTHS } from '../src/features/catalogue/catalogue.ts'
import { READER_KEYS, READER_LIST_SIZE, ReaderLookup } from '../src/features/account/reader-ops.ts'
import type { ReaderReport } from '../src/features/account/reader-ops.server.ts'
import { AdminAdjustRequest, WalletReportQuery } from '../src/features/wallet/wallet.schema.ts'
import {
  COIN_TYPES,
  MAX_ADMIN_ADJUST,
  MAX_WALLET_REPORT_ROWS,
  expiryInstant,
  type Balances,
  type CoinType,
} from '../src/features/wallet/wallet.ts'
import type { LedgerEntry, WalletReport } from '../src/features/wallet/wallet.server.ts'
import type { DebtRow, OpsPaymentReport } from '../src/features/payment/payment.server.ts'
import { isPaymentId, REFUND_DAYS } from '../src/features/payment/payment.ts'
import {
  AuditQuery,
  MAX_AUDIT_DAYS,
  OperatorAddRequest,
  OperatorParam,
  changedFields,
  type AuditEntry,
} from '../src/features/operator/operator.ts'
import type { OpsOperator } from '../src/features/operator/operator.server.ts'
import {
  CommentBlockRequest,
  MAX_BLOCK_DAYS,
  MAX_REPORTED_DAYS,
  REPORTED_SORTS,
  ReportedQuery,
  type CommentBan,
  type ReportedComment,
} from '../src/features/comment/moderation.ts'
import type { ModeratedComment } from '../src/features/comment/moderation.server.ts'
import { BLIND_AFTER_REPORTS } from '../src/features/comment/comment.ts'
import { LOCAL_OPS_TOKEN, quietEnv, run } from './lib.ts'
import { writeSampleEpisode, writeSampleSeries } from './ops/sample.ts'
import {
  DailyReportQuery,
  MAX_REPORT_DAYS,
  METRICS,
  METRICS_DATASET,
  firstReportDay,
  reportSql,
  type MetricName,
  type ReportRow,
} from '../src/lib/metrics/metrics.ts'
import { ALERT_KINDS, AlertsQuery, MAX_ALERT_DAYS, type OpsAlert } from '../src/features/operator/alerts.ts'

type Options = NonNullable<ParseArgsConfig['options']>
type Values = Record<string, string | boolean | undefined>
type Command = {
  usage: string
  summary: string
  details: string
  options: Options
  run: (v: Values) => Promise<void>
  /** Works on the local state (reseed) rather than through the operator API of a running edition (OPS_URL). */
  local?: true
  /** The one word the command takes after its name (`operator add <name>`), given to `run` as that option. */
  argument?: string
}

const GLOBAL: Options = {
  'persist-to': { type: 'string', default: '.wrangler/state' },
  config: { type: 'string', short: 'c' },
  help: { type: 'boolean', short: 'h' },
}
const GLOBAL_HELP = `Options of reseed (the local state):
  --persist-to DIR   local state directory (default .wrangler/state), as for wrangler dev / d1 migrations
  -c, --config FILE  wrangler config (default: the built worker's, else wrangler.jsonc)
  EDITION=<id>       environment variable choosing the edition (default fr)`
const REMOTE_HELP = `Environment (every command but reseed):
  OPS_URL     the running edition's address (default http://localhost:$PORT, PORT default 8787: \`npm start\`)
  OPS_TOKEN   its operator token (Authorization: Bearer); default the local run's token, for a local OPS_URL only
  Against a URL that is not local (localhost, 127.x, ::1) no change is sent without --yes: the plan is printed.`

/** Events and banners: what readers see is on catalogue pages, edge-cached per audience class (docs/ARCHITECTURE.md). */
const CACHE_HELP = `  Catalogue pages are edge-cached 60 s per audience class: a visit more than a minute after the change shows it,
  except that a browser that showed the page in the last 10 minutes shows its own copy once more while it fetches
  the new one (stale-while-revalidate).`

/** Titles of notices, events and banners and events' descriptions are rich-text labels (src/lib/text/rich-text.ts). */
const RICH_LABEL = `  Titles (and an event's description) may carry span, br, a and div; a style's colour, weight, italics, underline,
  size and a div's alignment show in the site's palette; "@:key" shows the edition's message key; "##null##" shows nothing.`

/** The lists (series, episodes, notices, events, banners): one page at a time, the next one by its cursor. */
const LIST_OPTIONS: Options = { limit: { type: 'string' }, cursor: { type: 'string' } }
const LIST_HELP = `  --limit N      rows on the page (1 to ${OPS_LIST_MAX}, default ${OPS_LIST_DEFAULT})
  --cursor C     the next page: the --cursor the page before printed at its end
  Times are in the edition's time zone (the API says which; the header names it).`

const ADJUST_OPTIONS: Options = {
  email: { type: 'string' },
  type: { type: 'string' },
  amount: { type: 'string' },
  reason: { type: 'string' },
  yes: { type: 'boolean' },
}

/** Thrown for a bad command line: printed with the command's usage, exit code 2. */
class UsageError extends Error {}

/** A command that cannot run here (reseed off a local run): one line, exit code 2. */
class Refused extends UsageError {}

/** A refusal of the operator API (`{result: "ERROR", code, message}`) or an answer that is not the API's: exit code 1. */
class ApiError extends Error {}

const SEND_OPTIONS: Options = {
  text: { type: 'string' },
  reason: { type: 'string' },
  series: { type: 'string' },
  link: { type: 'string' },
  yes: { type: 'boolean' },
}

const COMMANDS: Record<string, Command> = {
  'coins grant': {
    usage: 'coins grant --email E --type COIN|FREE_COIN|BONUS|MILEAGE --amount N --reason TEXT [--expires 2027-01-31] [--yes]',
    summary: 'give coins to an account: a new lot, ledger CHARGE with source ADMIN (POST /api/ops/coins)',
    details: `  --amount N      1 to ${MAX_ADMIN_ADJUST.toLocaleString('en')}
  --reason TEXT   why (1 to 200 characters), written for the reader: their coin history shows it after "customer
                  service adjustment" (the ledger row's description); the audit trail keeps it too
  --expires DATE  the lot expires at the end of that day (UTC), or at an ISO instant, in the future; default never
  --yes           grant on an OPS_URL that is not local (without it, only the plan is printed)
  Reads the account first (GET /api/ops/coins): the plan names it and its balance. Prints the ledger entry and the
  new balances. An unknown e-mail is refused (NOT_FOUND_USER), nothing changes.`,
    options: { ...ADJUST_OPTIONS, expires: { type: 'string' } },
    run: (v) => adjust(v, +1),
  },
  'coins deduct': {
    usage: 'coins deduct --email E --type COIN|FREE_COIN|BONUS|MILEAGE --amount N --reason TEXT [--yes]',
    summary: 'take coins back: ledger CANCEL with source ADMIN (POST /api/ops/coins)',
    details: `  Draws only lots of --type, earliest expiry first, in one transaction; refuses when the balance of that
  type is short (nothing changes). Prints the ledger entries and the new balances. --reason, --yes as for coins grant.`,
    options: ADJUST_OPTIONS,
    run: (v) => adjust(v, -1),
  },
  'coins show': {
    usage: 'coins show --email E [--limit N]',
    summary: "an account's balances, lots and last ledger rows (GET /api/ops/coins)",
    details: `  --limit N  ledger rows shown, newest first (1 to ${MAX_WALLET_REPORT_ROWS}, default 20)
  Also checks the wallet invariant: Σ lots' remaining = Σ ledger amounts (exit 1 if broken).`,
    options: { email: { type: 'string' }, limit: { type: 'string', default: '20' } },
    run: show,
  },
  'coins forgive': {
    usage: 'coins forgive --email E --reason TEXT [--yes]',
    summary: "settle an account's open debts without coins (POST /api/ops/coins/debt/forgive)",
    details: `  A debt is what a reader spent of a payment whose money went back (a refund at the provider, a dispute); the
  next top-up settles it first, or the operator forgives it here. Reads the account first (GET /api/ops/coins): the
  plan lists its open debts; with none, nothing is sent. --reason, --yes as for coins grant (the reason goes to the
  audit trail).`,
    options: { email: { type: 'string' }, reason: { type: 'string' }, yes: { type: 'boolean' } },
    run: forgive,
  },
  reseed: {
    usage: 'reseed [--no-images]',
    summary: 'wipe and re-seed the local demo data (scripts/seed.ts --force)',
    details: `  Empties every seeded table (accounts made by hand too) and every reader's object (their progress, sessions,
  alarms and money), and seeds the demo again, in the local state (--persist-to); restart a local server that was
  running. Local only: with OPS_URL set to an address that is not local it is refused (exit 2), nothing done;
  a deployed edition has no demo data.`,
    options: { 'no-images': { type: 'boolean' } },
    run: reseed,
    local: true,
  },
  sample: {
    usage: 'sample --to <folder>',
    summary: 'write the example series and its next episode, images drawn, ready for import and episode add',
    details: `  Writes <folder>/series (series.json of scripts/ops/sample-series with its cover and slices as PNG files) and
  <folder>/episode (episode.json of scripts/ops/sample-episode with its slices), then prints the commands that upload
  them: import --dir <folder>/series, and episode add --series <its id> --dir <folder>/episode. Nothing is sent.
  --to FOLDER  where to write (created if needed; files of the same names are replaced)`,
    options: { to: { type: 'string' } },
    run: sampleCommand,
    local: true,
  },
  import: {
    usage: 'import --dir <folder> --reason TEXT [--yes]',
    summary: 'import a series from a folder of images + series.json through the operator API; prints the new series id',
    details: `  series.json: title, description, genre, status, type (IMAGE|TEXT), isAdult, isBl, readingDirection,
  creators [{name, role}], tags [], schedule [weekdays or TEN], cover (file), episodes [{no, title, free,
  priceRent, priceBuy, images [files, top to bottom], alt? [one text per image], transcript? [per image, its
  lines in reading order: [{kind: speech|caption|sfx, speaker?, text}], [] for none], publishedAt?}].
  Example: scripts/ops/sample-series (with its images: npm run ops -- sample --to <folder>).
  The folder is validated and every image probed here first (a bad field or a broken image stops it, nothing
  sent); the plan (title, episodes, slices, objects, source bytes) is printed. Then POST /api/ops/series/import
  creates the series unpublished, the images are rendered here into WebP at 640/828/1080 px (cover 256/384/640/1200)
  and uploaded (PUT /api/ops/media/<key>: covers/<id>/ and series/<id>/ep/<no>/<n>/, like the seed's), and
  POST /api/ops/series/{id}/import/finish writes its rows and publishes it. A failure on the way removes the series
  and its objects (…/import/abort).
  --reason TEXT  why (1 to 200 characters): in the audit trail (npm run ops -- audit)
  --yes          import into an OPS_URL that is not local (without it, only the plan is printed)`,
    options: { dir: { type: 'string' }, reason: { type: 'string' }, yes: { type: 'boolean' } },
    run: importCommand,
  },
  'alarm send': {
    usage: 'alarm send --text TEXT --reason TEXT [--series N] [--link /path] [--yes]',
    summary: 'send a notice alarm to every reader, or to the readers of one series (POST /api/ops/alarms)',
    details: `  --text TEXT    the alarm's text, shown as written (1 to 200 characters)
  --reason TEXT  why it is sent, stored with the broadcast (1 to 200 characters)
  --series N     only the readers of series N (a favourite or a reading in progress); default every reader
  --link PATH    the page it opens, a path of the same site (e.g. /notice/3)
  --yes          send to every reader, or to an OPS_URL that is not local (without it, only the plan is printed)
  The plan says how many readers it reaches now. The queue consumer writes the alarms in batches; prints the
  broadcast id.`,
    options: SEND_OPTIONS,
    run: alarmSend,
  },
  'episode list': {
    usage: 'episode list --series N [--limit N] [--cursor C]',
    summary: "a series' episodes with their ids, latest first: state, publication time, price (GET /api/ops/series/{id}/episodes)",
    details: `  --series N     the series' id (series list)
  One line each: the episode's id (what episode publish|schedule|unpublish take), its number, title, state
  (PUBLISHED, SCHEDULED: comes out at its time, UNPUBLISHED: taken down, UPLOADING: an episode add not finished), its publication time, whether its alarms
  were sent, and its price (free, or coins to rent and to buy). An unknown series is refused (NOT_EXIST).
${LIST_HELP}`,
    options: { series: { type: 'string' }, ...LIST_OPTIONS },
    run: episodeList,
  },
  'episode publish': {
    usage: 'episode publish --id N --reason TEXT [--yes]',
    summary: "publish an episode now and queue its alarms to its series' favouriting readers (POST /api/ops/episodes/{id}/publish)",
    details: `  --id N         the episode's id (not its number in the series)
  --reason TEXT  why (1 to 200 characters): in the audit trail (npm run ops -- audit)
  --yes          publish on an OPS_URL that is not local (without it, only the plan is printed)
  An episode scheduled later is published now; an earlier one keeps its date. Its alarms are queued once: publishing
  an episode already announced (by the cron or a previous publish) changes nothing and says so.`,
    options: { id: { type: 'string' }, reason: { type: 'string' }, yes: { type: 'boolean' } },
    run: episodePublish,
  },
  'episode schedule': {
    usage: 'episode schedule --id N --at ISO --reason TEXT [--yes]',
    summary: 'date an episode later; the cron announces it then (POST /api/ops/episodes/{id}/schedule)',
    details: `  --id N         the episode's id (not its number in the series)
  --at ISO       when it comes out: an ISO instant with its offset (2026-12-03T10:00:00+01:00) or a date (its start,
                 UTC), in the future; to publish now, use episode publish
  --reason TEXT  why (1 to 200 characters): in the audit trail (npm run ops -- audit)
  --yes          schedule on an OPS_URL that is not local (without it, only the plan is printed)
  Until then it is off its series page and the viewer. At that time the cron (every minute) queues its alarms to the
  readers who favourited its series. An episode already announced (its readers were told it is out) is refused,
  INVALID_PARAMETER: episode unpublish it first. Pages follow within a minute (edge cache), the API at once.`,
    options: { id: { type: 'string' }, at: { type: 'string' }, reason: { type: 'string' }, yes: { type: 'boolean' } },
    run: episodeSchedule,
  },
  'episode unpublish': {
    usage: 'episode unpublish --id N --reason TEXT [--yes]',
    summary: 'take an episode down: off its series page, the viewer and every list (POST /api/ops/episodes/{id}/unpublish)',
    details: `  The episode is kept, dated at the end of time. Readers who bought or rented it keep their ownership (a rental's
  clock runs on) but cannot open it until it is back: episode publish (now) or episode schedule (later) brings it
  back and announces it to the favouriting readers not told yet. One already down is refused (NOT_EXIST).
  --reason, --yes as for episode schedule. Pages follow within a minute (edge cache), the API at once.`,
    options: { id: { type: 'string' }, reason: { type: 'string' }, yes: { type: 'boolean' } },
    run: episodeUnpublish,
  },
  'episode add': {
    usage: 'episode add --series N --dir <folder> --reason TEXT [--yes]',
    summary: 'add the next episode to a running series from a folder of slice images + episode.json; prints its id',
    details: `  --series N     the series' id (series list)
  --dir FOLDER   episode.json and its images: {no?, title, free, priceRent, priceBuy, images [files, top to bottom],
                 alt? [one text per image], transcript? [per image, its lines: [{kind: speech|caption|sfx,
                 speaker?, text}], [] for none], publishedAt?} — an episode of the import's series.json, its number
                 optional (default: the series' last + 1). publishedAt: ISO instant with its offset; in the future,
                 the episode comes out then and the cron sends its alarms; absent or past, it is out at once and its
                 alarms are queued to the readers who favourited the series (as episode publish).
  --reason TEXT  why (1 to 200 characters): in the audit trail (npm run ops -- audit)
  --yes          add to an OPS_URL that is not local (without it, only the plan is printed)
  The folder is validated and every image probed here first, and the series and its last number read
  (GET /api/ops/series/{id}/episodes): an unknown series, a number taken or a broken image stops it, nothing sent.
  Then POST /api/ops/series/{id}/episodes reserves the number (the episode unpublished), the images are rendered
  here into WebP at 640/828/1080 px and uploaded (PUT /api/ops/media/<key>: series/<id>/ep/<no>/<n>/), and
  POST /api/ops/episodes/{id}/upload/finish writes its slices and dates it. A failure on the way removes the episode
  and its objects (…/upload/abort). Pages follow within a minute (edge cache), the API at once.`,
    options: { series: { type: 'string' }, dir: { type: 'string' }, reason: { type: 'string' }, yes: { type: 'boolean' } },
    run: episodeAdd,
  },
  'episode replace-slice': {
    usage: 'episode replace-slice --episode N --slice K --file <image> --reason TEXT [--yes]',
    summary: 'replace one broken slice of an episode with a new image (POST /api/ops/episodes/{id}/slices/{n})',
    details: `  --episode N    the episode's id (episode list), not its number in the series
  --slice K      the slice's position, from 1 (top)
  --file IMAGE   the new image (any format sharp reads); probed here first, a broken file stops it, nothing sent
  --reason TEXT  why (1 to 200 characters): in the audit trail (npm run ops -- audit)
  --yes          replace on an OPS_URL that is not local (without it, only the plan is printed)
  The image is rendered into WebP at 640/828/1080 px and uploaded under a new R2 prefix
  (series/<id>/ep/<no>/<K>-<time>/), then POST /api/ops/episodes/{id}/upload/finish points the slice at it: the
  slice's URL changes, so no browser or edge cache keeps the old image under it. The old renditions are deleted by
  the cron an hour later (pages cached and signed URLs issued before still name them).
  Readers get the new URL at their next opening (pages: within a minute, the edge cache). An unknown episode or
  slice is refused (NOT_EXIST), as is a second upload on the same episode while one is open (INVALID_PARAMETER); a
  failure on the way removes the new objects and the slice keeps its image (…/upload/abort).`,
    options: {
      episode: { type: 'string' },
      slice: { type: 'string' },
      file: { type: 'string' },
      reason: { type: 'string' },
      yes: { type: 'boolean' },
    },
    run: episodeReplaceSlice,
  },
  'series list': {
    usage: 'series list [--search TEXT] [--limit N] [--cursor C]',
    summary: 'series with their ids, newest first: state, adult, episodes (GET /api/ops/series)',
    details: `  --search TEXT  only the series whose title contains TEXT (1 to ${MAX_SERIES_SEARCH} characters; any case for A to Z)
  One line each: id, title, state (PUBLISHED; SCHEDULED: on the lists, its first episode dated later; UNPUBLISHED:
  withdrawn; IMPORTING: an import not finished), adult, episodes (all, and out now) and the next one dated later.
${LIST_HELP}`,
    options: { search: { type: 'string' }, ...LIST_OPTIONS },
    run: seriesList,
  },
  'series publish': {
    usage: 'series publish --id N --reason TEXT [--yes]',
    summary: 'put a withdrawn series back on the lists and its page (POST /api/ops/series/{id}/publish)',
    details: `  --id N         the series' id
  --reason TEXT  why (1 to 200 characters): in the audit trail (npm run ops -- audit)
  --yes          publish on an OPS_URL that is not local (without it, only the plan is printed)
  A series published already is left as it is (the command says so). Pages follow within a minute (edge cache).`,
    options: { id: { type: 'string' }, reason: { type: 'string' }, yes: { type: 'boolean' } },
    run: (v) => seriesPublish(v, true),
  },
  'series unpublish': {
    usage: 'series unpublish --id N --reason TEXT [--yes]',
    summary: 'withdraw a series: off every list, its page answers 404 (POST /api/ops/series/{id}/unpublish)',
    details: `  Readers keep what they bought or rented but cannot open it until series publish brings it back. Its schedule
  and episodes are kept. --reason, --yes as for series publish. Pages follow within a minute (edge cache).`,
    options: { id: { type: 'string' }, reason: { type: 'string' }, yes: { type: 'boolean' } },
    run: (v) => seriesPublish(v, false),
  },
  'early open': {
    usage: 'early open --series N [--episodes N] --reason TEXT [--yes]',
    summary: "open a series' next scheduled episodes to early readers, before their publication (POST /api/ops/series/{id}/early)",
    details: `  --series N     the series' id (series list)
  --episodes N   how many of its next scheduled episodes (by number) should be open early, 1 to 20 (default: the
                 edition's earlyAccess.episodes); those open already stay so
  --reason, --yes as for series publish.
  Signed-in readers may then rent or buy them with coins at the edition's early prices (earlyAccess.rent and .buy in
  its edition.json); guests never see them, and wait-until-free never opens them. Each newly opened episode's alarm
  is queued to the readers who favourited the series, once. At its publication time it becomes an ordinary episode
  at its own prices; readers keep what they bought. Taking one down (episode unpublish) ends its early access.
  Prints the episodes opened and every one open early now; episode list shows them too.`,
    options: { series: { type: 'string' }, episodes: { type: 'string' }, reason: { type: 'string' }, yes: { type: 'boolean' } },
    run: earlyOpen,
  },
  'series schedule': {
    usage: 'series schedule --id N --days MON,THU|TEN|NONE --reason TEXT [--yes]',
    summary: "set a series' weekly schedule: the weekday lists it is on (POST /api/ops/series/{id}/schedule)",
    details: `  --days LIST    weekdays by name or first three letters, comma-separated (MON,THU), or TEN alone, or NONE
                 (off the weekly lists); replaces the series' days: days it keeps keep their place, new days go
                 to the end of that day's list
  --reason, --yes as for series publish. Pages follow within a minute (edge cache), the API at once.`,
    options: { id: { type: 'string' }, days: { type: 'string' }, reason: { type: 'string' }, yes: { type: 'boolean' } },
    run: seriesSchedule,
  },
  'support list': {
    usage: 'support list',
    summary: 'questions waiting for an answer, oldest first (GET /api/ops/qna)',
    details: `  One line each: id, date, category, images, report (a reader's report of a problem with an episode, from the
  viewer: the problem and the episode's id), title, the author's e-mail. At most 200: the next ones show once these
  are answered.`,
    options: {},
    run: supportList,
  },
  'support show': {
    usage: 'support show --id N',
    summary:
      "one question: its text, author, answer and replies, the addresses of its images, a report's episode, problem and the reader's device (GET /api/ops/qna/{id})",
    details: `  --id N  the question's id (support list)
  Its images are served by GET /api/ops/qna/{id}/image/{n} with the same bearer token; the command prints a curl
  line for each.`,
    options: { id: { type: 'string' } },
    run: supportShow,
  },
  'support answer': {
    usage: 'support answer --id N --text TEXT --reason TEXT [--yes]',
    summary: "answer a waiting question: COMPLETED on /qna, the answer mail, the reader's alarm (POST /api/ops/qna/{id}/answer)",
    details: `  --id N         the question's id (support list)
  --text TEXT    the answer, as the reader reads it on /qna and in the mail (1 to ${MAX_BODY_LENGTH} characters)
  --reason TEXT  why (1 to 200 characters): in the audit trail (npm run ops -- audit)
  --yes          answer on an OPS_URL that is not local (without it, only the plan is printed)
  A question already answered (or unknown) is refused: NOT_EXIST, nothing changes. Locally the mail is in the outbox.`,
    options: { id: { type: 'string' }, text: { type: 'string' }, reason: { type: 'string' }, yes: { type: 'boolean' } },
    run: supportAnswer,
  },
  'support search': {
    usage: `support search [--text T] [--email E] [--category ${QNA_CATEGORIES.join('|')}] [--from DATE] [--to DATE] [--answered | --waiting] [--limit N] [--cursor C]`,
    summary: 'questions answered or not, newest first, by text, reader, category, date (GET /api/ops/qna/search)',
    details: `  --text T        in the title, the question or the answer (1 to ${MAX_SEARCH_TEXT} characters; any case for A to Z)
  --email E       one reader's questions (the address the answer goes to, or their account's)
  --category C    one category: ${QNA_CATEGORIES.join(', ')}
  --from DATE     filed from (YYYY-MM-DD: that day's start UTC, or an ISO instant)
  --to DATE       filed through (YYYY-MM-DD: that day's end UTC, or an ISO instant)
  --answered      only answered questions (COMPLETED); --waiting: only waiting ones (WAIT)
${LIST_HELP}
  Then: support show --id N for one, support edit-answer <id> to change an answer.`,
    options: {
      ...LIST_OPTIONS,
      text: { type: 'string' },
      email: { type: 'string' },
      category: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      answered: { type: 'boolean' },
      waiting: { type: 'boolean' },
    },
    run: supportSearch,
  },
  'support edit-answer': {
    usage: 'support edit-answer <id> --text TEXT --reason TEXT [--yes]',
    summary: 'change the answer of an answered question: the reader reads it on /qna (POST /api/ops/qna/{id}/answer/edit)',
    details: `  <id>           the question's id (support search --answered)
  --text TEXT    the new answer (1 to ${MAX_BODY_LENGTH} characters)
  --reason TEXT  why (1 to 200 characters): in the audit trail with the answer before and after
  --yes          edit on an OPS_URL that is not local (without it, only the plan is printed)
  No second mail or alarm: the reader finds the new text on /qna. A waiting question is refused (NOT_EXIST: answer it
  with support answer); the same text again changes nothing.`,
    options: { text: { type: 'string' }, reason: { type: 'string' }, yes: { type: 'boolean' } },
    argument: 'id',
    run: supportEditAnswer,
  },
  'support canned list': {
    usage: 'support canned list',
    summary: "the canned replies in the edition's language, by name (GET /api/ops/qna/canned)",
    details: `  One block each: name, last change (when, by whom), the text. Set one with support canned set, answer with one with
  support reply <id> --canned NAME.`,
    options: {},
    run: supportCannedList,
  },
  'support canned set': {
    usage: 'support canned set <name> --text TEXT --reason TEXT [--yes]',
    summary: "create or replace a canned reply in the edition's language (POST /api/ops/qna/canned/{name})",
    details: `  <name>         2 to 40 of a-z, 0-9 and -, a letter first (payment-refused, zoom-bug)
  --text TEXT    the reply as readers will read it (1 to ${MAX_BODY_LENGTH} characters), in the edition's language: each
                 edition (and so each language) has its own replies
  --reason TEXT  why (1 to 200 characters): in the audit trail with the text before and after
  --yes          on an OPS_URL that is not local (without it, only the plan is printed)`,
    options: { text: { type: 'string' }, reason: { type: 'string' }, yes: { type: 'boolean' } },
    argument: 'name',
    run: supportCannedSet,
  },
  'support reply': {
    usage: 'support reply <id> --canned NAME --reason TEXT [--yes]',
    summary: 'answer a waiting question with a canned reply, as support answer does (POST /api/ops/qna/{id}/reply)',
    details: `  <id>           the question's id (support list, support search --waiting)
  --canned NAME  the canned reply (support canned list); its text is printed in the plan
  --reason TEXT  why (1 to 200 characters): in the audit trail
  --yes          answer on an OPS_URL that is not local (without it, only the plan is printed)
  COMPLETED on /qna, the answer mail, the reader's alarm. An unknown reply is refused before anything is sent; a
  question already answered (or unknown) is refused: NOT_EXIST, nothing changes.`,
    options: { canned: { type: 'string' }, reason: { type: 'string' }, yes: { type: 'boolean' } },
    argument: 'id',
    run: supportReply,
  },
  'notice list': {
    usage: 'notice list [--limit N] [--cursor C]',
    summary: 'every notice with its id, newest first: state, date, pinned, global or on a series (GET /api/ops/notices)',
    details: `  One line each: id, state (PUBLISHED; SCHEDULED: appears at its date; UNPUBLISHED: taken down), publication date,
  pinned, category, where (global: /notice, or series N's page) and title.
${LIST_HELP}`,
    options: LIST_OPTIONS,
    run: noticeList,
  },
  'notice publish': {
    usage: `notice publish --title T --body B --reason TEXT [--series N] [--pinned] [--category ${NOTICE_CATEGORIES.join('|')}] [--at ISO] [--yes]`,
    summary: "publish a notice, global (/notice) or on one series' page (POST /api/ops/notices)",
    details: `  --title T      1 to ${MAX_NOTICE_TITLE} characters;  --body B  1 to ${MAX_NOTICE_BODY.toLocaleString('en')} characters (a blank line separates paragraphs)
${RICH_LABEL}
  --series N     attach it to series N (shown on its page) instead of the /notice list
  --pinned       listed first;  --category  default NOTICE
  --at ISO       publication date (YYYY-MM-DD: that day's start UTC, or an ISO instant); later: it appears then
  --reason TEXT  why (1 to 200 characters): in the audit trail (npm run ops -- audit)
  --yes          publish on an OPS_URL that is not local (without it, only the plan is printed)
  The cached notice count (KV, 5 minutes) is dropped, so /notice counts it at once.`,
    options: {
      title: { type: 'string' },
      body: { type: 'string' },
      series: { type: 'string' },
      pinned: { type: 'boolean' },
      category: { type: 'string' },
      at: { type: 'string' },
      reason: { type: 'string' },
      yes: { type: 'boolean' },
    },
    run: noticePublish,
  },
  'notice edit': {
    usage: 'notice edit --id N [--title T] [--body B] [--at ISO] --reason TEXT [--yes]',
    summary: "change a notice's title, body or publication date (POST /api/ops/notices/{id})",
    details: `  At least one of --title, --body, --at; the others are kept. --at also brings an unpublished notice back.
  --reason, --yes as for notice publish.`,
    options: {
      id: { type: 'string' },
      title: { type: 'string' },
      body: { type: 'string' },
      at: { type: 'string' },
      reason: { type: 'string' },
      yes: { type: 'boolean' },
    },
    run: noticeEdit,
  },
  'notice pin': {
    usage: 'notice pin --id N [--off] --reason TEXT [--yes]',
    summary: 'pin a notice (listed first), or unpin it with --off (POST /api/ops/notices/{id}/pin)',
    details: `  --reason, --yes as for notice publish.`,
    options: { id: { type: 'string' }, off: { type: 'boolean' }, reason: { type: 'string' }, yes: { type: 'boolean' } },
    run: noticePin,
  },
  'notice unpublish': {
    usage: 'notice unpublish --id N --reason TEXT [--yes]',
    summary: 'take a notice down: off /notice, its page, its series page and the count (POST /api/ops/notices/{id}/unpublish)',
    details: `  The notice is kept, dated at the end of time; notice edit --id N --at DATE publishes it again.
  One already down is refused (NOT_EXIST). --reason, --yes as for notice publish.`,
    options: { id: { type: 'string' }, reason: { type: 'string' }, yes: { type: 'boolean' } },
    run: noticeUnpublish,
  },
  'coupon create': {
    usage: `coupon create (--code C | --downloadable) --title T --type ${COUPON_TYPES.join('|')} --reward ${REWARD_TYPES.join('|')} --amount N --reason TEXT [options] [--yes]`,
    summary: 'create a coupon: a code to type, or downloadable from /coupon (POST /api/ops/coupons)',
    details: `  --code C          the code readers type (letters, digits, _ and -; stored upper case), or
  --downloadable    listed on /coupon for readers to download
  --title T         its name (1 to 100 characters);  --type  ${COUPON_TYPES.join(' or ')}
  --reward R        COIN (a lot of --lot, default FREE_COIN), MILEAGE or ROULETTE_TICKET (at most ${MAX_TICKETS})
  --amount N        how much of the reward;  --lot FREE_COIN|BONUS|COIN (COIN rewards only)
  --reward-days N   the granted coins or tickets expire N days after (1 to ${MAX_REWARD_DAYS}); default never
  --minimum N       downloadable only: the reward comes with a top-up of at least N (0 to ${MAX_COUPON_MINIMUM.toLocaleString('en')})
  --starts DATE     usable from (YYYY-MM-DD: that day's start UTC, or an ISO instant); default now
  --expires DATE    usable through (YYYY-MM-DD: that day's end UTC, or an ISO instant), in the future; default never
  --platform P      only on ${PLATFORMS.join(', ')}; default every platform
  --quantity N      how many readers may use it (1 to ${MAX_COUPON_QUANTITY.toLocaleString('en')}); default unlimited
  --reason TEXT     why (1 to 200 characters): in the audit trail (npm run ops -- audit)
  --yes             create on an OPS_URL that is not local (without it, only the plan is printed)
  A code already taken (in any case) is refused, nothing written.`,
    options: {
      code: { type: 'string' },
      downloadable: { type: 'boolean' },
      title: { type: 'string' },
      type: { type: 'string' },
      reward: { type: 'string' },
      amount: { type: 'string' },
      lot: { type: 'string' },
      'reward-days': { type: 'string' },
      minimum: { type: 'string' },
      starts: { type: 'string' },
      expires: { type: 'string' },
      platform: { type: 'string' },
      quantity: { type: 'string' },
      reason: { type: 'string' },
      yes: { type: 'boolean' },
    },
    run: couponCreate,
  },
  'coupon expire': {
    usage: 'coupon expire --id N --reason TEXT [--yes]',
    summary: 'end a coupon now: readers get EXPIRED_COUPON, what they received stays (POST /api/ops/coupons/{id}/expire)',
    details: `  One already over is refused (EXPIRED_COUPON). --reason, --yes as for coupon create.`,
    options: { id: { type: 'string' }, reason: { type: 'string' }, yes: { type: 'boolean' } },
    run: couponExpire,
  },
  'coupon report': {
    usage: 'coupon report [--id N]',
    summary: 'coupons with their use counts, newest first, or one (GET /api/ops/coupons)',
    details: `  Columns: used/stock (the coupon's counter and its quantity), received (readers holding it), rewarded (readers
  whose reward was granted), its state (LIVE, NOT_STARTED, EXPIRED, SOLD_OUT) and expiry. At most 200.`,
    options: { id: { type: 'string' } },
    run: couponReportCommand,
  },
  'reader show': {
    usage: 'reader show (--email E | --id N | --nickname NAME | --payment pay_… | --phone NUMBER)',
    summary: 'one reader: account, balances, payments with refunds, purchases, sign-ins (GET /api/ops/readers)',
    details: `  --email E          the e-mail of the account (the live one, else the latest withdrawn one), or
  --id N             the account's id (a withdrawn account too), or
  --nickname NAME    the nickname as readers see it (any case; lookalike letters match), or
  --payment pay_…    the id of one of the reader's payments, or
  --phone NUMBER     the phone number of a phone-registered account, as the reader gives it (read in the edition's
                     country: 06 12 34 56 78 in fr; +82 10 … for another country)
  Prints the account (created, adult verification, last sign-in, withdrawn?), its balances as coins show does and the
  wallet invariant, then the last ${READER_LIST_SIZE} payments (with the provider's refund and dispute events), purchases
  and sign-ins (one per sign-in: a refresh-token family's first token; "open" while that device is still signed in).
  Never a password hash or a token.`,
    options: {
      email: { type: 'string' },
      id: { type: 'string' },
      nickname: { type: 'string' },
      payment: { type: 'string' },
      phone: { type: 'string' },
    },
    run: readerShow,
  },
  'reader sessions end': {
    usage: 'reader sessions end (--email E | --id N) --reason TEXT [--yes]',
    summary: 'sign a reader out on every device at once (POST /api/ops/readers/{id}/sessions/end)',
    details: `  --email E | --id N  the reader (an e-mail is looked up first: GET /api/ops/readers)
  --reason TEXT       why (1 to 200 characters): in the audit trail (npm run ops -- audit)
  --yes               end them on an OPS_URL that is not local (without it, only the plan is printed)
  The same as the reader's own "sign out of every device": their refresh tokens are revoked and their access tokens
  refused at the next request (the app must sign in again, the browser is signed out). A withdrawn or unknown
  account is refused (NOT_FOUND_USER), nothing changes.`,
    options: { email: { type: 'string' }, id: { type: 'string' }, reason: { type: 'string' }, yes: { type: 'boolean' } },
    run: readerSessionsEnd,
  },
  'comments reported': {
    usage: 'comments reported [--days N] [--series N] [--sort newest|most] [--limit N] [--cursor C]',
    summary: 'reported comments not reviewed yet, with their ids (GET /api/ops/comments/reported)',
    details: `  One line each: comment id, reports open (not reviewed) and ever, latest report, state (REPORT: shown; BLIND: hidden
  as a notice after ${BLIND_AFTER_REPORTS} reports), series and episode, author (reader id), the text's start.
  --days N        only comments reported in the last N days (1 to ${MAX_REPORTED_DAYS}); default any
  --series N      only the comments of series N
  --sort newest   latest report first, a page at a time (default); --sort most: most open reports first, one page
${LIST_HELP}
  Then: comments hide|restore <id> --reason TEXT reviews one.`,
    options: { ...LIST_OPTIONS, days: { type: 'string' }, series: { type: 'string' }, sort: { type: 'string' } },
    run: commentsReported,
  },
  'comments hide': {
    usage: 'comments hide <id> --reason TEXT [--yes]',
    summary: "hide a comment: gone from readers' lists and counts, its reports reviewed (POST /api/ops/comments/{id}/hide)",
    details: `  <id>           the comment's id (comments reported lists them)
  --reason TEXT  why (1 to 200 characters): in the audit trail (npm run ops -- audit)
  --yes          hide on an OPS_URL that is not local (without it, only the plan is printed)
  Its author still finds it, marked hidden, in their own comments. One hidden already stays so (nothing changes);
  one unknown or deleted by its author is refused (NOT_EXIST).`,
    options: { reason: { type: 'string' }, yes: { type: 'boolean' } },
    argument: 'id',
    run: (v) => commentsModerate(v, 'hide'),
  },
  'comments restore': {
    usage: 'comments restore <id> --reason TEXT [--yes]',
    summary: 'restore a comment: visible again, its reports reviewed (POST /api/ops/comments/{id}/restore)',
    details: `  <id>, --reason, --yes as for comments hide. Restores a hidden comment, or dismisses the reports of one still shown
  (REPORT) or shown as a notice (BLIND); only reports made afterwards count towards hiding it again. One visible
  without open reports stays so (nothing changes).`,
    options: { reason: { type: 'string' }, yes: { type: 'boolean' } },
    argument: 'id',
    run: (v) => commentsModerate(v, 'restore'),
  },
  'comments block': {
    usage: 'comments block (--email E | --user N) --days N --reason TEXT [--yes]',
    summary: 'block a reader from commenting for N days (POST /api/ops/readers/{id}/comment-block)',
    details: `  --email E | --user N  the reader (an e-mail is looked up first: GET /api/ops/readers)
  --days N              for how long (1 to ${MAX_BLOCK_DAYS} days, from now)
  --reason TEXT         why (1 to 200 characters): shown to the reader above the comment form, with the end of the block,
                        and in the audit trail
  --yes                 block on an OPS_URL that is not local (without it, only the plan is printed)
  Their posts are refused (UNAUTHORIZED_USER) until then; their comments stay. A reader blocked already keeps that block
  (nothing changes): unblock first to change it.`,
    options: {
      email: { type: 'string' },
      user: { type: 'string' },
      days: { type: 'string' },
      reason: { type: 'string' },
      yes: { type: 'boolean' },
    },
    run: commentsBlock,
  },
  'comments unblock': {
    usage: 'comments unblock (--email E | --user N) --reason TEXT [--yes]',
    summary: 'end a reader’s block from commenting now (POST /api/ops/readers/{id}/comment-unblock)',
    details: `  --email, --user, --reason, --yes as for comments block. A reader not blocked stays so (nothing changes).`,
    options: { email: { type: 'string' }, user: { type: 'string' }, reason: { type: 'string' }, yes: { type: 'boolean' } },
    run: commentsUnblock,
  },
  'event list': {
    usage: 'event list [--limit N] [--cursor C]',
    summary: 'every event with its id, newest first: state and period (GET /api/ops/events)',
    details: `  One line each: id, state (RUNNING, NOT_STARTED, ENDED), kind, start, end, who may take part, title.
${LIST_HELP}`,
    options: LIST_OPTIONS,
    run: eventList,
  },
  'event create': {
    usage: `event create --title T --ends DATE --reason TEXT [--kind ${OPS_EVENT_KINDS.join('|')}] [--description D] [--starts DATE] [--only ADULT|NON_ADULT] [--yes]`,
    summary: 'create an event listed on /event (POST /api/ops/events)',
    details: `  --title T        1 to ${MAX_EVENT_TITLE} characters;  --description D  0 to ${MAX_EVENT_DESCRIPTION} characters (default none)
${RICH_LABEL}
  --kind K         default PROMOTION (a ROULETTE needs its prize table: only the seed makes one)
  --starts DATE    from (YYYY-MM-DD: that day's start UTC, or an ISO instant); default now
  --ends DATE      through (YYYY-MM-DD: that day's end UTC, or an ISO instant), after the start and in the future
  --only ADULT     adults only (NON_ADULT: minors only); default everyone
  --reason TEXT    why (1 to 200 characters): in the audit trail (npm run ops -- audit)
  --yes            create on an OPS_URL that is not local (without it, only the plan is printed)
${CACHE_HELP}`,
    options: {
      title: { type: 'string' },
      description: { type: 'string' },
      kind: { type: 'string' },
      starts: { type: 'string' },
      ends: { type: 'string' },
      only: { type: 'string' },
      reason: { type: 'string' },
      yes: { type: 'boolean' },
    },
    run: eventCreate,
  },
  'event end': {
    usage: 'event end --id N --reason TEXT [--yes]',
    summary: 'end an event now: off /event, no more taking part (POST /api/ops/events/{id}/end)',
    details: `  One already ended is refused (NOT_EVENT_PERIOD), nothing changes; one not started yet ends too.
  --reason, --yes as for event create.
${CACHE_HELP}`,
    options: { id: { type: 'string' }, reason: { type: 'string' }, yes: { type: 'boolean' } },
    run: eventEnd,
  },
  audit: {
    usage: 'audit [--days N] [--target KIND:ID] [--operator NAME] [--limit N] [--cursor C]',
    summary: 'the audit trail: every change through the operator API, newest first (GET /api/ops/audit)',
    details: `  One block per change: id, time, operator (root: OPS_TOKEN; else a named token), action, target, route and reason,
  then each field the change altered as before → after (a target the change created or removed: shown whole).
  --days N         only the last N days (1 to ${MAX_AUDIT_DAYS}); default every change
  --target KIND:ID only changes of one target: user:12 (coins, sessions), payment:pay_…, notice:5, episode:240, series:3,
                   coupon:7, event:4, banner:2, qna:9, broadcast:11, operator:alice,
                   comment:31, canned:refund.fr-FR
  --operator NAME  only the changes of one operator (root or a name of operator add)
${LIST_HELP}`,
    options: { ...LIST_OPTIONS, days: { type: 'string' }, target: { type: 'string' }, operator: { type: 'string' } },
    run: auditList,
  },
  alerts: {
    usage: 'alerts [--days N]',
    summary:
      'the hours with trouble: webhooks refused or failed, queue messages dead-lettered, cron sweeps failed, 5xx (GET /api/ops/alerts)',
    details: `  One line per kind and hour, newest first: how many times, the first and the latest detail, and whether the
  operator was mailed. The edition mails mail.alertsTo (edition.json) once per kind per hour: at the first webhook,
  dead letter or cron failure, at the ${ALERT_KINDS.errors.threshold}th server error. A local run's mails are in its outbox.
  --days N  the last N days (1 to ${MAX_ALERT_DAYS}); default 7`,
    options: { days: { type: 'string' } },
    run: alertsList,
  },
  report: {
    usage: 'report [--days N]',
    summary: 'the daily report: top-ups, refunds, disputes, debts, sales, sign-ups and trouble per UTC day and edition',
    details: `  Sums per UTC day (newest first), edition, figure and key (a currency, a sale's kind, a sign-up's way, a kind of
  trouble), from what the worker counts as it happens: never a query over readers' data. A deployed edition counts
  into Workers Analytics Engine (dataset ${METRICS_DATASET}, every edition's), read here through Cloudflare's SQL API
  with CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_API_TOKEN (a token with Account Analytics: Read); a local run
  (OPS_URL local) keeps its sums in its D1 (GET /api/ops/report).
  --days N  the last N UTC days, today included (1 to ${MAX_REPORT_DAYS}); default 7`,
    options: { days: { type: 'string' } },
    run: dailyReport,
  },
  'operator list': {
    usage: 'operator list',
    summary: 'the named operator tokens, live ones first (GET /api/ops/operators; root only)',
    details: `  One line each: id, name, created (when, by whom), revoked. Never a token: it is shown once, by operator add.`,
    options: {},
    run: operatorList,
  },
  'operator add': {
    usage: 'operator add <name> --reason TEXT [--yes]',
    summary: 'a named operator token, printed once (POST /api/ops/operators; root only)',
    details: `  <name>         2 to 32 of a-z, 0-9, - and _, a letter first; not root. A name with a live token is refused.
  --reason TEXT  why (1 to 200 characters): in the audit trail
  --yes          on an OPS_URL that is not local (without it, only the plan is printed)
  Only root (OPS_TOKEN) manages operators. The new token is printed once and stored only as its SHA-256: give it to
  the operator, who sets it as their OPS_TOKEN; their changes are then recorded under their name (npm run ops -- audit).`,
    options: { reason: { type: 'string' }, yes: { type: 'boolean' } },
    argument: 'name',
    run: operatorAdd,
  },
  'operator revoke': {
    usage: 'operator revoke <name> --reason TEXT [--yes]',
    summary: "revoke an operator's token: refused from its next request on (POST /api/ops/operators/{name}/revoke; root only)",
    details: `  The audit trail keeps what the operator did. A name without a live token is refused (NOT_EXIST).
  --reason, --yes as for operator add.`,
    options: { reason: { type: 'string' }, yes: { type: 'boolean' } },
    argument: 'name',
    run: operatorRevoke,
  },
  'payment show': {
    usage: 'payment show <paymentId>',
    summary: "one payment: its state, reader, coins left, the provider's events and reversals (GET /api/ops/payments/{id})",
    details: `  <paymentId>  pay_… (as reader show lists them)
  Prints the payment, the lots it caused with what is left of each, the provider's events (payment_events: checkout,
  refunds and disputes made at the provider), its reversals with their debt, and whether payment refund would take it.`,
    options: {},
    argument: 'paymentId',
    run: paymentShow,
  },
  'payment refund': {
    usage: 'payment refund <paymentId> --reason TEXT [--yes]',
    summary: "refund a payment through the provider, as the reader's own refund (POST /api/ops/payments/{id}/refund)",
    details: `  The reader's refund path (spec §9): in one guarded batch the coins it brought leave the reader's wallet (its paid
  coins, its bonus, a top-up coupon's reward), then the provider gives the money back; if the provider refuses, the
  coins come back. Refused in one line, nothing changed (INVALID_PARAMETER, NOT_REFUNDABLE), when its coins were
  used, it was refunded already, it is not paid, or it was paid ${REFUND_DAYS} days ago or more.
  Reads the payment first (GET /api/ops/payments/{id}): the plan names the reader and the coins that leave.
  --reason TEXT  why (1 to 200 characters): in the audit trail
  --yes          refund on an OPS_URL that is not local (without it, only the plan is printed)`,
    options: { reason: { type: 'string' }, yes: { type: 'boolean' } },
    argument: 'paymentId',
    run: paymentRefund,
  },
  'banner list': {
    usage: 'banner list [--limit N] [--cursor C]',
    summary: 'every banner with its id, newest first: shown or ended, period, where it leads (GET /api/ops/banners)',
    details: `  One line each: id, state (SHOWN, NOT_STARTED, ENDED), placement, position, start, end, adult, title and link.
${LIST_HELP}`,
    options: LIST_OPTIONS,
    run: bannerList,
  },
  'banner create': {
    usage: `banner create --display ${BANNER_DISPLAYS.join('|')} --title T --link L --reason TEXT [options] [--yes]`,
    summary: 'create a banner; HOME ones slide in the home carousel (POST /api/ops/banners)',
    details: `  --display D      ONLY_TEXT (text only), ONLY_ICON (picture only), ICON_TEXT / TEXT_ICON (picture then text / text then picture)
  --title T        1 to ${MAX_BANNER_TITLE} characters, one line;  --subtitle S  the same, optional
${RICH_LABEL}
  --link L         the page it opens: a path of this site (/detail/24, /roulette) or an http(s) address
  --image KEY      with a picture display: the R2 MEDIA prefix of its WebP widths (<KEY>/<width>.webp, e.g. banners/12),
                   uploaded beforehand; --width W --height H  its size in px (16 to ${MAX_BANNER_SIDE})
  --background #rrggbb   the slide's colour;  --position N  order in the carousel, low first (default 0)
  --placement P    ${BANNER_PLACEMENTS.join(', ')} (default HOME; the pages show HOME banners)
  --adult          shown only to readers who may see adult series
  --starts DATE    from (YYYY-MM-DD: that day's start UTC, or an ISO instant); default now
  --ends DATE      through (YYYY-MM-DD: that day's end UTC, or an ISO instant), in the future; default never
  --reason TEXT    why (1 to 200 characters): in the audit trail (npm run ops -- audit)
  --yes            create on an OPS_URL that is not local (without it, only the plan is printed)
${CACHE_HELP}`,
    options: {
      display: { type: 'string' },
      title: { type: 'string' },
      subtitle: { type: 'string' },
      link: { type: 'string' },
      image: { type: 'string' },
      width: { type: 'string' },
      height: { type: 'string' },
      background: { type: 'string' },
      position: { type: 'string' },
      placement: { type: 'string' },
      adult: { type: 'boolean' },
      starts: { type: 'string' },
      ends: { type: 'string' },
      reason: { type: 'string' },
      yes: { type: 'boolean' },
    },
    run: bannerCreate,
  },
  'banner end': {
    usage: 'banner end --id N --reason TEXT [--yes]',
    summary: 'end a banner now: out of its carousel (POST /api/ops/banners/{id}/end)',
    details: `  One already ended is refused (NOT_EVENT_PERIOD), nothing changes. --reason, --yes as for banner create.
${CACHE_HELP}`,
    options: { id: { type: 'string' }, reason: { type: 'string' }, yes: { type: 'boolean' } },
    run: bannerEnd,
  },
}

// ───────────────────────────── commands ─────────────────────────────

function need(v: Values, name: string): string {
  const value = v[name]
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`)
  return value
}

function coinType(v: Values): CoinType {
  const type = need(v, 'type').toUpperCase()
  if (!(COIN_TYPES as readonly string[]).includes(type)) throw new UsageError(`--type must be one of ${COIN_TYPES.join(', ')}`)
  return type as CoinType
}

/** `--email` checked as the API checks it. */
function emailOf(v: Values): string {
  const email = need(v, 'email').trim()
  checked(WalletReportQuery, { email }, { email: `--email must be an e-mail address, not "${email}"` })
  return email
}

/** One account's wallet through `GET /api/ops/coins` (NOT_FOUND_USER: no live account with that e-mail), with its open debts. */
function walletOf(to: Target, email: string, limit: number): Promise<WalletReport & { debts: DebtRow[] }> {
  return opsApi(to, `/coins?${new URLSearchParams({ email, limit: String(limit) })}`, undefined, 'no such route')
}

async function forgive(v: Values): Promise<void> {
  const email = emailOf(v)
  const reason = reasonOf(v)
  const to = target()
  const { userId, debts = [] } = await walletOf(to, email, 1)
  if (debts.length === 0) {
    console.log(`${email} (user ${userId}) owes nothing: nothing sent`)
    return
  }
  const owed = debts.reduce((n, d) => n + d.debt, 0)
  confirm(v, to, [`forgive ${owed} coins owed by ${email} (user ${userId}) on ${debts.length} reversed payment(s)`, `reason: ${reason}`])
  const { forgiven } = await opsApi<{ forgiven: number }>(to, '/coins/debt/forgive', { email, reason }, 'no such route')
  console.log(`forgave ${forgiven} coins owed by ${email}`)
}

function printDebts(debts: DebtRow[]): void {
  if (debts.length === 0) return
  console.log(`
open debts (${debts.reduce((n, d) => n + d.debt, 0)} coins), settled first by the next top-up:`)
  printTable(debts.map((d) => ({ payment: d.paymentId, reason: d.reason, coins: d.debt, since: date(d.createdAt) })))
}

async function adjust(v: Values, sign: 1 | -1): Promise<void> {
  const email = emailOf(v)
  const type = coinType(v)
  const text = need(v, 'amount')
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > MAX_ADMIN_ADJUST) {
    throw new UsageError(`--amount must be a whole number from 1 to ${MAX_ADMIN_ADJUST.toLocaleString('en')}`)
  }
  const reason = reasonOf(v)
  const request = { email, type, amount: sign * Number(text), reason, ...(typeof v.expires === 'string' ? { expiresAt: v.expires } : {}) }
  const body = checked(AdminAdjustRequest, request, {
    expiresAt: '--expires must be a date (YYYY-MM-DD, end of that day UTC) or an ISO instant with its offset',
  })
  let expires: string | null
  try {
    expires = expiryInstant(body.expiresAt)
  } catch {
    throw new UsageError(`--expires ${body.expiresAt} is not a date`) // e.g. 2027-02-30
  }
  if (expires !== null && !(Date.parse(expires) > Date.now())) throw new UsageError(`--expires ${body.expiresAt} is not in the future`)
  const to = target()
  // the account and its balance of --type first: the plan names them, a short balance is refused before any change
  const before = await walletOf(to, email, 1)
  const has = before.balances[type]
  const short = (code: string, balance: number) =>
    new ApiError(`${code}: ${email} has ${balance} ${type} that can be deducted, less than ${text}; nothing changed`)
  if (sign < 0 && has < Number(text)) throw short(type === 'MILEAGE' ? 'MILEAGE_INSUFFICIENT' : 'COIN_INSUFFICIENT', has)
  confirm(v, to, [
    sign > 0
      ? `grant ${text} ${type} to ${email} (user ${before.userId}, has ${has}): a new lot${body.expiresAt ? ` expiring ${expires}` : ' that never expires'}, ledger CHARGE source ADMIN`
      : `deduct ${text} ${type} from ${email} (user ${before.userId}, has ${has}): earliest expiry first, ledger CANCEL source ADMIN`,
    `reason: ${body.reason} (shown to the reader in their coin history; the ledger row's description and the audit trail)`,
  ])
  let res: { entries: LedgerEntry[]; balances: Balances }
  try {
    res = await opsApi<{ entries: LedgerEntry[]; balances: Balances }>(to, '/coins', body, 'no such route')
  } catch (e) {
    // spent meanwhile: the API refused the whole deduction
    if (e instanceof ApiError && /^(COIN|MILEAGE)_INSUFFICIENT /.test(e.message)) {
      const now = await walletOf(to, email, 1).catch(() => null)
      if (now) throw short(e.message.split(' ')[0]!, now.balances[type])
    }
    throw e
  }
  console.log(`${sign > 0 ? 'granted' : 'deducted'} ${text} ${type} ${sign > 0 ? 'to' : 'from'} ${email}`)
  printEntries(res.entries)
  printBalances(res.balances)
}

async function show(v: Values): Promise<void> {
  const email = emailOf(v)
  const limit = String(v.limit)
  const parsed = checked(
    WalletReportQuery,
    { email, limit },
    { limit: `--limit must be a whole number from 1 to ${MAX_WALLET_REPORT_ROWS}` },
  )
  const to = target()
  const { userId, balances, lots, entries, wallet, debts = [] } = await walletOf(to, email, parsed.limit)
  console.log(`${email} (user ${userId})`)
  printBalances(balances)
  console.log(`\nlots (${lots.length}), in spend order:`)
  const now = Date.now()
  printTable(
    lots.map((l) => ({
      id: l.id,
      type: l.type,
      amount: l.amount,
      remaining: l.remaining,
      expires: l.expiresAt ? `${date(l.expiresAt)}${Date.parse(l.expiresAt) <= now ? ' (expired)' : ''}` : 'never',
      source: l.source,
      ref: l.ref ?? '',
      created: date(l.createdAt),
    })),
  )
  printDebts(debts)
  console.log(`\nlast ${entries.length} ledger rows, newest first:`)
  printEntries(entries)
  console.log('')
  printInvariant(wallet)
}

async function reseed(v: Values): Promise<void> {
  // the demo data is off on a deployed edition: reseed only ever writes the local state
  const { url, local } = opsUrl()
  if (!local) throw new Refused(`reseed only wipes the local demo state; OPS_URL is ${url.origin}, not a local run: nothing done`)
  // seed.ts runs from the project root: hand it an absolute state directory
  const args = ['scripts/seed.ts', '--force', '--persist-to', resolve(String(v['persist-to']))]
  if (v['no-images']) args.push('--no-images')
  if (v.config) args.push('--config', resolve(String(v.config)))
  await run(process.execPath, args)
}

async function sampleCommand(v: Values): Promise<void> {
  const to = resolve(need(v, 'to'))
  const series = await writeSampleSeries(join(to, 'series'))
  const episode = await writeSampleEpisode(join(to, 'episode'))
  console.log(`the example series: ${series} (series.json, its cover and slices)`)
  console.log(`its next episode:   ${episode} (episode.json and its slices)`)
  console.log(`\nupload them (the import prints the new series' id):`)
  console.log(`  npm run ops -- import --dir ${series} --reason "example series"`)
  console.log(`  npm run ops -- episode add --series <id> --dir ${episode} --reason "Friday's episode"`)
}

async function importCommand(v: Values): Promise<void> {
  const dir = need(v, 'dir')
  const reason = reasonOf(v)
  const { importSeries, planImport } = await import('./ops/import.ts') // sharp: loaded by this command only
  const plan = await planImport(dir, reason) // ImportError (exit 1) names the field or file; nothing sent
  const m = plan.request.manifest
  const files = [m.cover, ...m.episodes.flatMap((e) => e.images)]
  const sourceBytes = files.reduce((n, f) => n + statSync(join(plan.folder, f)).size, 0)
  const objects = importKeys(1, m).length
  const to = target()
  confirm(v, to, [
    `import "${m.title}" (${m.type}, ${m.genre}, ${m.status}) from ${plan.folder}: ${m.episodes.length} episodes, ${plan.slices} slices`,
    `upload ${objects} WebP objects rendered here from ${files.length} images (${(sourceBytes / 1024).toFixed(0)} KiB of source files)`,
    'the series stays unpublished until every object is uploaded; a failure removes it and its objects',
    `reason: ${reason} (in the audit trail)`,
  ])
  const api = {
    start: (request: unknown) => opsApi<{ seriesId: number; keys: string[] }>(to, '/series/import', request, 'no such route'),
    put: async (key: string, bytes: Uint8Array) => {
      await opsApi(to, `/media/${key}`, new Upload(bytes, 'image/webp'), `no import open for ${key}`)
    },
    finish: async (id: number) => {
      await opsApi(to, `/series/${id}/import/finish`, { reason }, `no import open for series ${id}`)
    },
    abort: async (id: number) => {
      await opsApi(to, `/series/${id}/import/abort`, { reason: `${reason} (import failed)`.slice(0, 200) }, `no import of series ${id}`)
    },
  }
  const started = performance.now()
  const res = await importSeries(api, plan, { log: (line) => console.error(line) })
  console.error(
    `import: done in ${((performance.now() - started) / 1000).toFixed(1)} s: ${res.episodes} episodes, ${res.slices} slices, ` +
      `${res.objects} R2 objects (${(res.bytes / 1024).toFixed(0)} KiB)`,
  )
  console.log(`series id ${res.seriesId}`)
}

/** The operator API's upload steps into a running series (scripts/ops/episode.ts), over HTTP. */
function uploadApi(to: Target, reason: string) {
  return {
    addEpisode: (seriesId: number, request: unknown) =>
      opsApi<{ episodeId: number; no: number; keys: string[] }>(to, `/series/${seriesId}/episodes`, request, `no series ${seriesId}`),
    replaceSlice: (episodeId: number, n: number, body: unknown) =>
      opsApi<{ key: string; keys: string[] }>(to, `/episodes/${episodeId}/slices/${n}`, body, `no slice ${n} in episode ${episodeId}`),
    put: async (key: string, bytes: Uint8Array) => {
      await opsApi(to, `/media/${key}`, new Upload(bytes, 'image/webp'), `no upload open for ${key}`)
    },
    finish: (id: number) =>
      opsApi<{ publishedAt?: string; announced?: boolean }>(
        to,
        `/episodes/${id}/upload/finish`,
        { reason },
        `no upload open on episode ${id}`,
      ),
    abort: async (id: number) => {
      await opsApi(
        to,
        `/episodes/${id}/upload/abort`,
        { reason: `${reason} (upload failed)`.slice(0, 200) },
        `no upload open on episode ${id}`,
      )
    },
  }
}

async function episodeAdd(v: Values): Promise<void> {
  const seriesId = rowId(v, 'series')
  const dir = need(v, 'dir')
  const reason = reasonOf(v)
  const { addEpisode, planEpisodeAdd } = await import('./ops/episode.ts') // sharp: loaded by this command only
  const plan = await planEpisodeAdd(dir, seriesId, reason) // ImportError (exit 1) names the field or file; nothing sent
  const to = target()
  const e = plan.request.episode
  // the series and its numbers, read before anything changes: an unknown series or a taken number stops it here
  const last = await opsApi<OpsPage<OpsEpisodeItem> & { series: { title: string } }>(
    to,
    `/series/${seriesId}/episodes?limit=1${e.no === undefined ? '' : `&cursor=${e.no + 1}`}`,
    undefined,
    `no series ${seriesId}`,
  )
  if (e.no !== undefined && last.items[0]?.no === e.no)
    throw new ApiError(`episode ${e.no} of series ${seriesId} exists already (id ${last.items[0].id}): nothing sent`)
  const no = e.no ?? (last.items[0]?.no ?? 0) + 1
  const sourceBytes = e.images.reduce((n, f) => n + statSync(join(plan.folder, f)).size, 0)
  const when =
    e.publishedAt && new Date(e.publishedAt) > new Date()
      ? `dated ${e.publishedAt}: the cron announces it then`
      : 'out at once, its alarms queued'
  confirm(v, to, [
    `add episode ${no} ${JSON.stringify(e.title)} to series ${seriesId} ${JSON.stringify(last.series.title)} from ${plan.folder}: ${e.images.length} slices, ${priceOf({ isFree: e.free, priceRent: e.priceRent, priceBuy: e.priceBuy })}`,
    `upload ${e.images.length * SLICE_WIDTHS.length} WebP objects rendered here (${(sourceBytes / 1024).toFixed(0)} KiB of source files); ${when}`,
    'the episode stays unpublished until every object is uploaded; a failure removes it and its objects',
    `reason: ${reason} (in the audit trail)`,
  ])
  const res = await addEpisode(uploadApi(to, reason), plan, { log: (line) => console.error(line) })
  console.error(
    `episode add: done: ${res.objects} R2 objects (${(res.bytes / 1024).toFixed(0)} KiB); published at ${res.publishedAt}${res.announced ? ', alarms queued' : ''}`,
  )
  console.log(`episode id ${res.episodeId} (series ${seriesId}, no. ${res.no})`)
}

async function episodeReplaceSlice(v: Values): Promise<void> {
  const episodeId = rowId(v, 'episode')
  const n = rowId(v, 'slice')
  const file = need(v, 'file')
  const reason = reasonOf(v)
  const { planSliceReplace, replaceSlice } = await import('./ops/episode.ts') // sharp: loaded by this command only
  const plan = await planSliceReplace(file, reason)
  const to = target()
  confirm(v, to, [
    `replace slice ${n} of episode ${episodeId} with ${join(plan.folder, plan.file)} (${plan.size.width}×${plan.size.height} px)`,
    `upload ${SLICE_WIDTHS.length} WebP objects rendered here under a new key: the slice's URL changes (the old objects go an hour later)`,
    `reason: ${reason} (in the audit trail)`,
  ])
  const res = await replaceSlice(uploadApi(to, reason), episodeId, n, plan, { log: (line) => console.error(line) })
  console.log(`replaced: slice ${n} of episode ${episodeId} is ${res.key}/<width>.webp (${res.objects} objects)`)
}

// ───────────────────────────── operator API (remote commands) ─────────────────────────────

type Target = { url: string; token: string; local: boolean }

/** The running edition the remote commands call: OPS_URL (default the local run's port) and its token. */
function target(): Target {
  const { url, given, local } = opsUrl()
  const token = process.env.OPS_TOKEN || (local ? LOCAL_OPS_TOKEN : '')
  if (!token) throw new UsageError(`OPS_TOKEN is required for ${url.origin} (the local default token is only used on a local OPS_URL)`)
  return { url: given.replace(/\/+$/, ''), token, local }
}

/** OPS_URL (default the local run's port) and whether it is a local run (localhost, 127.x, ::1). */
function opsUrl(): { url: URL; given: string; local: boolean } {
  const given = process.env.OPS_URL || `http://localhost:${process.env.PORT || 8787}`
  let url: URL
  try {
    url = new URL(given)
  } catch {
    throw new UsageError(`OPS_URL "${given}" is not a URL (e.g. http://localhost:8787)`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`OPS_URL "${given}" must be an http(s) address`)
  const host = url.hostname
  return { url, given, local: host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '[::1]' }
}

/**
 * Prints the plan; refuses (exit 2, nothing sent) without --yes on a URL that is not local, or anywhere when the change
 * is one that always asks (`always`: why, e.g. it reaches every reader).
 */
function confirm(v: Values, to: Target, plan: string[], always?: string): void {
  console.log([`plan (${to.url}${to.local ? ', a local run' : ''}):`, ...plan.map((line) => `  ${line}`)].join('\n'))
  if (v.yes) return
  if (always) throw new UsageError(`${always}: nothing sent; add --yes to do it`)
  if (!to.local) throw new UsageError(`${to.url} is not a local run: nothing sent; add --yes to do it`)
}

/** A file body for the operator API (`PUT /api/ops/media/{key}`). */
class Upload {
  readonly bytes: Uint8Array<ArrayBuffer>
  readonly type: string
  constructor(bytes: Uint8Array, type: string) {
    this.bytes = new Uint8Array(bytes) // its own ArrayBuffer, as fetch wants
    this.type = type
  }
}

/**
 * One call to the operator API, a POST of `body` (a GET when `body` is undefined, a PUT of an `Upload`); answers the envelope's `data` or
 * throws ApiError with the API's code and message (`notFound` says what a 404 NOT_EXIST means for this call).
 */
async function opsApi<T>(to: Target, path: string, body: unknown, notFound: string): Promise<T> {
  const method = body === undefined ? 'GET' : body instanceof Upload ? 'PUT' : 'POST'
  let res: Response
  try {
    res = await fetch(`${to.url}/api/ops${path}`, {
      method,
      headers: {
        authorization: `Bearer ${to.token}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': body instanceof Upload ? body.type : 'application/json' }),
      },
      ...(body === undefined ? {} : { body: body instanceof Upload ? body.bytes : JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    })
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message
    throw new ApiError(`cannot reach ${to.url} (${cause}); is the edition running (npm start) and OPS_URL right?`, { cause: e })
  }
  const zone = res.headers.get('x-edition-time-zone')
  if (zone && knownZone(zone)) editionTimeZone = zone
  const answer = (await res.json().catch(() => null)) as { result?: string; data?: T; code?: string; message?: string } | null
  // the change was made but its audit row could not be written: the server logged it whole (issue 39 point 5)
  if (res.headers.get('x-ops-audit') === 'lost')
    console.error(`ops: warning: the audit row of ${method} /api/ops${path} was not stored (see the worker's error log)`)
  if (res.ok && answer?.result === 'SUCCESS') return answer.data as T
  if (answer?.result === 'ERROR' && answer.code) {
    const hint =
      res.status === 401
        ? ' (check OPS_TOKEN)'
        : answer.code === 'NOT_EXIST'
          ? ` (${notFound}, or the operator API is off: no OPS_TOKEN on the server)`
          : ''
    throw new ApiError(`${answer.code} (HTTP ${res.status}) from ${method} /api/ops${path}: ${answer.message ?? ''}${hint}`)
  }
  throw new ApiError(`HTTP ${res.status} from ${method} ${to.url}/api/ops${path} is not an operator API answer`)
}

/** A positive row id given as `--name` (digits only). */
function rowId(v: Values, name: string): number {
  const text = need(v, name)
  if (!/^[1-9]\d{0,14}$/.test(text)) throw new UsageError(`--${name} must be a positive whole number (an id), not "${text}"`)
  return Number(text)
}

/**
 * `request` checked by the API's own schema before anything is sent; a refusal names the options at fault, one hint
 * per field (`hints`, the reason's is shared).
 */
function checked<S extends z.ZodType>(schema: S, request: Record<string, unknown>, hints: Record<string, string>): z.output<S> {
  const parsed = schema.safeParse(request)
  if (parsed.success) return parsed.data
  const all: Record<string, string> = { reason: '--reason must be 1 to 200 characters', ...hints }
  const fields = [...new Set(parsed.error.issues.map((i) => String(i.path[0] ?? '')))]
  throw new UsageError(fields.map((f) => all[f] ?? f).join('; '))
}

/** A whole number given as `--name`, or undefined when the option is absent. */
function wholeOpt(v: Values, name: string): number | undefined {
  const text = v[name]
  if (text === undefined) return undefined
  if (typeof text !== 'string' || !/^\d{1,15}$/.test(text.trim())) throw new UsageError(`--${name} must be a whole number, not "${text}"`)
  return Number(text)
}

/** The optional string options `names` that were given, renamed (`--at` → `publishedAt`). */
function given(v: Values, names: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(names).flatMap(([opt, field]) => (typeof v[opt] === 'string' ? [[field, v[opt] as string]] : [])),
  )
}

function reasonOf(v: Values): string {
  const reason = need(v, 'reason').trim()
  if (reason.length > 200) throw new UsageError(`--reason must be 1 to 200 characters (it has ${reason.length})`)
  return reason
}

async function alarmSend(v: Values): Promise<void> {
  const text = need(v, 'text')
  const request = {
    text,
    reason: reasonOf(v),
    ...(v.link !== undefined ? { link: String(v.link) } : {}),
    ...(v.series !== undefined ? { seriesId: rowId(v, 'series') } : {}),
  }
  const body = checked(AlarmBroadcastRequest, request, {
    text: `--text must be 1 to 200 characters (it has ${text.trim().length})`,
    link: '--link must be a path of this site, e.g. /notice/3 (no scheme, no host, no spaces, at most 300 characters)',
    seriesId: '--series must be a positive whole number',
  })
  const to = target()
  const { readers } = await opsApi<{ readers: number }>(
    to,
    `/alarms/reach${body.seriesId ? `?seriesId=${body.seriesId}` : ''}`,
    undefined,
    `no series ${body.seriesId}`,
  )
  const everyone = !body.seriesId
  confirm(
    v,
    to,
    [
      `send a notice alarm to ${everyone ? 'every reader' : `the readers of series ${body.seriesId} (a favourite or a reading in progress)`}: ${readers} now`,
      `text:   ${JSON.stringify(body.text)}`,
      `link:   ${body.link ?? '(none)'}`,
      `reason: ${body.reason}`,
    ],
    everyone ? `this reaches every reader (${readers})` : undefined,
  )
  const res = await opsApi<{ broadcastId: number }>(to, '/alarms', body, body.seriesId ? `no series ${body.seriesId}` : 'no such route')
  console.log(`sent: broadcast ${res.broadcastId} queued; the queue consumer writes its alarms`)
}

async function episodePublish(v: Values): Promise<void> {
  const id = rowId(v, 'id')
  const reason = reasonOf(v)
  const to = target()
  confirm(v, to, [
    `publish episode ${id} now (an earlier publication date is kept) and queue its alarms to the readers who favourited its series, once`,
    `reason: ${reason} (in the audit trail)`,
  ])
  const res = await opsApi<{ episodeId: number; publishedAt: string; announced: boolean }>(
    to,
    `/episodes/${id}/publish`,
    { reason },
    `no episode ${id}`,
  )
  console.log(
    res.announced
      ? `published: episode ${res.episodeId}, published at ${res.publishedAt}; its alarms are queued`
      : `unchanged: episode ${res.episodeId} (published at ${res.publishedAt}) was already announced; no alarm queued`,
  )
}

// ───────────────────────────── daily commands: episodes and series ─────────────────────────────

function printEpisode(verb: string, e: OpsEpisode): void {
  const when = e.state === 'UNPUBLISHED' ? 'is unpublished' : `${e.state === 'SCHEDULED' ? 'comes out' : 'published'} ${e.publishedAt}`
  console.log(`${verb}: episode ${e.id} (series ${e.seriesId}, no. ${e.no}) ${when}: ${JSON.stringify(e.title)}`)
}

async function episodeSchedule(v: Values): Promise<void> {
  const id = rowId(v, 'id')
  const body = checked(
    EpisodeScheduleRequest,
    { publishedAt: need(v, 'at'), reason: reasonOf(v) },
    { publishedAt: '--at must be a date (YYYY-MM-DD) or an ISO instant with its offset (2026-12-03T10:00:00Z), from 2000 on' },
  )
  if (body.publishedAt <= new Date().toISOString()) {
    throw new UsageError(`--at ${body.publishedAt} is not in the future: to publish now, use episode publish --id ${id}`)
  }
  const to = target()
  confirm(v, to, [
    `date episode ${id} ${body.publishedAt}: off its series page until then, announced by the cron at that time`,
    `reason: ${body.reason} (in the audit trail)`,
  ])
  printEpisode('scheduled', await opsApi<OpsEpisode>(to, `/episodes/${id}/schedule`, body, `no episode ${id}`))
}

async function episodeUnpublish(v: Values): Promise<void> {
  const id = rowId(v, 'id')
  const body = checked(OpsReasonRequest, { reason: reasonOf(v) }, {})
  const to = target()
  confirm(v, to, [
    `take episode ${id} down (off its series page, the viewer and the lists; owners keep it, to open once it is back)`,
    `reason: ${body.reason} (in the audit trail)`,
  ])
  printEpisode(
    'unpublished',
    await opsApi<OpsEpisode>(to, `/episodes/${id}/unpublish`, body, `no published episode ${id}: unknown or down already`),
  )
}

async function earlyOpen(v: Values): Promise<void> {
  const seriesId = rowId(v, 'series')
  const episodes = wholeOpt(v, 'episodes')
  const body = checked(
    EarlyOpenRequest,
    { reason: reasonOf(v), ...(episodes === undefined ? {} : { episodes }) },
    { episodes: '--episodes must be 1 to 20' },
  )
  const to = target()
  confirm(v, to, [
    `open the next ${body.episodes ?? "(the edition's number of)"} scheduled episodes of series ${seriesId} to early readers, at the edition's early prices`,
    `queue each newly opened one's alarm to the readers who favourited the series`,
    `reason: ${body.reason} (in the audit trail)`,
  ])
  const res = await opsApi<{ opened: EarlyEpisode[]; early: EarlyEpisode[] }>(
    to,
    `/series/${seriesId}/early`,
    body,
    `no series ${seriesId}`,
  )
  const line = (e: EarlyEpisode) =>
    `episode ${e.id} (no. ${e.no}) ${JSON.stringify(e.title)}, comes out ${e.publishedAt}, early rent ${e.priceRent} · buy ${e.priceBuy}`
  console.log(
    res.opened.length === 0
      ? `unchanged: no scheduled episode of series ${seriesId} left to open early`
      : `opened early: ${res.opened.length} episode${res.opened.length === 1 ? '' : 's'}; their alarms are queued`,
  )
  for (const e of res.opened) console.log(`  ${line(e)}`)
  console.log(`open early now: ${res.early.length}`)
  for (const e of res.early) console.log(`  ${line(e)}`)
}

function seriesLine(s: OpsSeries): string {
  return `series ${s.id} ${JSON.stringify(s.title)} is ${s.isPublished ? 'published' : 'withdrawn'}, schedule ${s.schedule.join(', ') || 'none'}`
}

async function seriesPublish(v: Values, published: boolean): Promise<void> {
  const id = rowId(v, 'id')
  const body = checked(OpsReasonRequest, { reason: reasonOf(v) }, {})
  const to = target()
  confirm(v, to, [
    published ? `put series ${id} back on the lists and its page` : `withdraw series ${id}: off every list, its page answers 404`,
    `reason: ${body.reason} (in the audit trail)`,
  ])
  const action = published ? 'publish' : 'unpublish'
  const s = await opsApi<OpsSeries & { changed: boolean }>(to, `/series/${id}/${action}`, body, `no series ${id}`)
  console.log(`${s.changed ? `${action}ed` : 'unchanged'}: ${seriesLine(s)}`)
}

async function seriesSchedule(v: Values): Promise<void> {
  const id = rowId(v, 'id')
  const text = need(v, 'days')
  const days = parseScheduleDays(text)
  if (!days) throw new UsageError(`--days must be weekdays (MON,THU or MONDAY,THURSDAY), TEN or NONE, not "${text}"`)
  const body = checked(SeriesScheduleRequest, { days, reason: reasonOf(v) }, { days: '--days must name each day once, and TEN alone' })
  const to = target()
  confirm(v, to, [
    `set series ${id}'s weekly schedule to ${body.days.join(', ') || 'none (off the weekly lists)'}`,
    `reason: ${body.reason} (in the audit trail)`,
  ])
  console.log(`scheduled: ${seriesLine(await opsApi<OpsSeries>(to, `/series/${id}/schedule`, body, `no series ${id}`))}`)
}

// ───────────────────────────── daily commands: support, notices, coupons ─────────────────────────────

type WithImages = SupportQna & { imageUrls: string[] }

async function supportList(): Promise<void> {
  const to = target()
  const { items } = await opsApi<{ items: SupportQna[] }>(to, '/qna', undefined, 'no such route')
  console.log(`${items.length} question${items.length === 1 ? '' : 's'} waiting (${to.url}), oldest first:`)
  printTable(
    items.map((q) => ({
      id: q.id,
      date: date(q.createdAt),
      category: q.category,
      images: q.images,
      report: q.report ? `${q.report.problem} ep. ${q.report.episodeId ?? '(deleted)'}` : '',
      title: q.title,
      email: q.email ?? `(user ${q.userId}, no e-mail)`,
    })),
  )
}

async function supportShow(v: Values): Promise<void> {
  const id = rowId(v, 'id')
  const to = target()
  const q = await opsApi<WithImages>(to, `/qna/${id}`, undefined, `no question ${id}`)
  // readers' text reaches the operator's terminal as text only, whatever an older row holds
  const safe = (text: string) => text.replace(/(?!\n)[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`)
  console.log(`question ${q.id} · ${q.status} · ${q.category} · ${date(q.createdAt)}`)
  console.log(`from:  ${q.email ?? '(no e-mail)'} (user ${q.userId})`)
  if (q.report) {
    const r = q.report
    const episode =
      r.episodeId === null
        ? '(deleted)'
        : `${r.episodeId}, no. ${r.no} of series ${r.seriesId} "${safe(r.seriesTitle ?? '')}" (/viewer/${r.episodeId})`
    console.log(`report: ${r.problem} · episode ${episode}`)
    console.log(`device: ${safe(q.device ?? '(unknown)')}`)
  }
  console.log(`title: ${safe(q.title)}\n\n${safe(q.text)}\n`)
  if (q.answer !== null) console.log(`answer (${date(q.answeredAt ?? '')}):\n${safe(q.answer)}\n`)
  for (const r of q.replies) console.log(`reply by mail (${date(r.createdAt)}):\n${safe(r.text)}\n`)
  console.log(q.imageUrls.length ? `images (${q.imageUrls.length}), with the operator token:` : 'images: none')
  for (const [i, url] of q.imageUrls.entries()) {
    console.log(`  ${to.url}${url}`)
    console.log(`    curl -H "Authorization: Bearer $OPS_TOKEN" -o qna-${q.id}-${i + 1} ${to.url}${url}`)
  }
}

async function supportSearch(v: Values): Promise<void> {
  if (v.answered && v.waiting) throw new UsageError('give --answered or --waiting, not both')
  const filters: Record<string, string> = {
    ...given(v, { text: 'q', email: 'email', from: 'from', to: 'to' }),
    ...(typeof v.category === 'string' ? { category: v.category.toUpperCase() } : {}),
    ...(v.answered ? { status: 'COMPLETED' } : v.waiting ? { status: 'WAIT' } : {}),
  }
  const request = { ...given(v, { limit: 'limit', cursor: 'cursor' }), ...filters }
  checked(QnaSearchQuery, request, {
    q: `--text must be 1 to ${MAX_SEARCH_TEXT} characters once trimmed`,
    email: `--email must be an e-mail address, not "${String(v.email)}"`,
    category: `--category must be one of ${QNA_CATEGORIES.join(', ')}`,
    from: `--from must be ${DATE_HINT}`,
    to: `--to must be ${DATE_HINT}, not before --from`,
    limit: `--limit must be a whole number from 1 to ${OPS_LIST_MAX}`,
    cursor: '--cursor must be a positive whole number (the one the page before printed)',
  })
  const query = new URLSearchParams(request).toString()
  const to = target()
  const page = await listPage<OpsPage<SupportQna> & { timeZone: string }>(to, `/qna/search${query && `?${query}`}`, 'no such route')
  const what = Object.entries(filters).map(([k, value]) => `${k === 'q' ? 'text' : k} ${value}`)
  console.log(
    `${page.items.length} question${page.items.length === 1 ? '' : 's'} (${to.url})${what.length ? `, ${what.join(', ')}` : ''}, newest first; times in ${page.timeZone}:`,
  )
  printTable(
    page.items.map((q) => ({
      id: q.id,
      [`filed (${page.timeZone})`]: zoned(q.createdAt, page.timeZone),
      status: q.status,
      category: q.category,
      answered: q.answeredAt ? zoned(q.answeredAt, page.timeZone) : '',
      title: q.title,
      email: q.email ?? `(user ${q.userId}, no e-mail)`,
    })),
  )
  printNext(
    [
      'support search',
      repeatOptions(v, ['text', 'email', 'category', 'from', 'to']),
      v.answered ? '--answered' : v.waiting ? '--waiting' : '',
      repeatOptions(v, ['limit']),
    ]
      .filter(Boolean)
      .join(' '),
    page.next,
  )
}

async function supportEditAnswer(v: Values): Promise<void> {
  if (typeof v.id !== 'string') throw new UsageError('give the question id: support edit-answer <id> (support search lists them)')
  const id = rowId(v, 'id')
  const text = need(v, 'text')
  const body = checked(
    QnaAnswerRequest,
    { answer: text, reason: reasonOf(v) },
    { answer: `--text must be 1 to ${MAX_BODY_LENGTH} characters once trimmed (it has ${text.trim().length})` },
  )
  const to = target()
  confirm(v, to, [
    `replace the answer of question ${id}: the reader reads the new one on /qna (no second mail)`,
    `answer: ${JSON.stringify(body.answer)}`,
    `reason: ${body.reason} (in the audit trail, with the answer before)`,
  ])
  const q = await opsApi<SupportQna & { changed: boolean }>(
    to,
    `/qna/${id}/answer/edit`,
    body,
    `no answered question ${id}: unknown or still waiting (support answer)`,
  )
  console.log(
    q.changed
      ? `edited: the answer of question ${q.id} (${q.email ?? 'no e-mail'})`
      : `question ${q.id} has that answer already: nothing changed`,
  )
}

type CannedList = { lang: string; items: CannedReply[] }

async function supportCannedList(): Promise<void> {
  const to = target()
  const { lang, items } = await opsApi<CannedList>(to, '/qna/canned', undefined, 'no such route')
  console.log(`${items.length} canned repl${items.length === 1 ? 'y' : 'ies'} in ${lang} (${to.url}):`)
  if (items.length === 0) console.log('  (none: npm run ops -- support canned set <name> --text … --reason …)')
  for (const r of items) console.log(`\n${r.name}  (${date(r.updatedAt)}, ${r.updatedBy})\n  ${r.text.replace(/\n/g, '\n  ')}`)
}

function cannedNameOf(value: unknown, what: string): string {
  const name = typeof value === 'string' ? value.trim() : ''
  if (!name) throw new UsageError(`give the canned reply's name: ${what}`)
  if (!CannedName.safeParse(name).success)
    throw new UsageError(`the canned reply's name "${name}" must be 2 to 40 of a-z, 0-9 and -, a letter first`)
  return name
}

async function supportCannedSet(v: Values): Promise<void> {
  const name = cannedNameOf(v.name, 'support canned set <name>')
  const text = need(v, 'text')
  const body = checked(
    CannedSetRequest,
    { text, reason: reasonOf(v) },
    { text: `--text must be 1 to ${MAX_BODY_LENGTH} characters once trimmed (it has ${text.trim().length})` },
  )
  const to = target()
  confirm(v, to, [
    `set the canned reply ${name} in the edition's language (created, or its text replaced)`,
    `text: ${JSON.stringify(body.text)}`,
    `reason: ${body.reason} (in the audit trail)`,
  ])
  const r = await opsApi<CannedReply>(to, `/qna/canned/${name}`, body, 'no such route')
  console.log(`set: canned reply ${r.name} in ${r.lang} (${[...r.text].length} characters)`)
}

async function supportReply(v: Values): Promise<void> {
  if (typeof v.id !== 'string') throw new UsageError('give the question id: support reply <id> --canned NAME')
  const id = rowId(v, 'id')
  const name = cannedNameOf(v.canned, '--canned NAME')
  const body = checked(CannedReplyRequest, { canned: name, reason: reasonOf(v) }, {})
  const to = target()
  const { lang, items } = await opsApi<CannedList>(to, '/qna/canned', undefined, 'no such route')
  const reply = items.find((r) => r.name === name)
  if (!reply) throw new ApiError(`no canned reply ${name} in ${lang} (support canned list names them): nothing sent`)
  confirm(v, to, [
    `answer question ${id} with the canned reply ${name} (${lang}): COMPLETED on /qna, the answer mail and an alarm`,
    `answer: ${JSON.stringify(reply.text)}`,
    `reason: ${body.reason} (in the audit trail)`,
  ])
  const q = await opsApi<SupportQna>(to, `/qna/${id}/reply`, body, `no question ${id} waiting: unknown or answered already`)
  console.log(`answered: question ${q.id} (${q.email ?? 'no e-mail'}) with ${name}; answer mail sent (locally: the outbox), alarm written`)
}

async function supportAnswer(v: Values): Promise<void> {
  const id = rowId(v, 'id')
  const text = need(v, 'text')
  const body = checked(
    QnaAnswerRequest,
    { answer: text, reason: reasonOf(v) },
    {
      answer: `--text must be 1 to ${MAX_BODY_LENGTH} characters once trimmed (it has ${text.trim().length})`,
    },
  )
  const to = target()
  confirm(v, to, [
    `answer question ${id}: status COMPLETED, the reader sees the answer on /qna, gets the answer mail and an alarm`,
    `answer: ${JSON.stringify(body.answer)}`,
    `reason: ${body.reason} (in the audit trail)`,
  ])
  const q = await opsApi<SupportQna>(to, `/qna/${id}/answer`, body, `no question ${id} waiting: unknown or answered already`)
  console.log(
    `answered: question ${q.id} (${q.email ?? 'no e-mail'}) is ${q.status}; answer mail sent (locally: the outbox), alarm written`,
  )
}

const NOTICE_HINTS: Record<string, string> = {
  title: `--title must be 1 to ${MAX_NOTICE_TITLE} characters once trimmed`,
  body: `--body must be 1 to ${MAX_NOTICE_BODY.toLocaleString('en')} characters once trimmed`,
  category: `--category must be one of ${NOTICE_CATEGORIES.join(', ')}`,
  seriesId: '--series must be a positive whole number',
  publishedAt: '--at must be a date (YYYY-MM-DD) or an ISO instant with its offset (2026-12-01T09:00:00Z), from 2000 on',
}

function printNotice(verb: string, n: OpsNotice): void {
  console.log(
    `${verb}: notice ${n.id} (${n.category}${n.seriesId ? `, series ${n.seriesId}` : ', global'}${n.isPinned ? ', pinned' : ''}) ` +
      `${n.state === 'UNPUBLISHED' ? 'is unpublished' : `${n.state === 'SCHEDULED' ? 'appears' : 'published'} ${n.publishedAt}`}: ${JSON.stringify(n.title)}`,
  )
}

async function noticePublish(v: Values): Promise<void> {
  const reason = reasonOf(v)
  const request = {
    title: need(v, 'title'),
    body: need(v, 'body'),
    ...given(v, { at: 'publishedAt' }),
    ...(v.category !== undefined ? { category: String(v.category).toUpperCase() } : {}),
    ...(v.series !== undefined ? { seriesId: rowId(v, 'series') } : {}),
    pinned: v.pinned === true,
    reason,
  }
  const body = checked(NoticePublishRequest, request, NOTICE_HINTS)
  const to = target()
  confirm(v, to, [
    `publish a ${body.category} notice ${body.seriesId ? `on series ${body.seriesId}'s page` : 'on /notice (global)'}${body.pinned ? ', pinned' : ''}, ${body.publishedAt ? `dated ${body.publishedAt}` : 'now'}`,
    `title:  ${JSON.stringify(body.title)}`,
    `body:   ${body.body.length} characters`,
    `reason: ${body.reason} (in the audit trail)`,
  ])
  printNotice('published', await opsApi<OpsNotice>(to, '/notices', body, body.seriesId ? `no series ${body.seriesId}` : 'no such route'))
}

async function noticeEdit(v: Values): Promise<void> {
  const id = rowId(v, 'id')
  const reason = reasonOf(v)
  const body = checked(
    NoticeEditRequest,
    { ...given(v, { title: 'title', body: 'body', at: 'publishedAt' }), reason },
    {
      ...NOTICE_HINTS,
      title:
        v.title === undefined && v.body === undefined && v.at === undefined
          ? 'give at least one of --title, --body, --at'
          : NOTICE_HINTS.title!,
    },
  )
  const to = target()
  confirm(v, to, [
    `change notice ${id}: ${[body.title !== undefined && 'title', body.body !== undefined && 'body', body.publishedAt !== undefined && `date → ${body.publishedAt}`].filter(Boolean).join(', ')}`,
    ...(body.title !== undefined ? [`title:  ${JSON.stringify(body.title)}`] : []),
    `reason: ${body.reason} (in the audit trail)`,
  ])
  printNotice('changed', await opsApi<OpsNotice>(to, `/notices/${id}`, body, `no notice ${id}`))
}

async function noticePin(v: Values): Promise<void> {
  const id = rowId(v, 'id')
  const body = checked(NoticePinRequest, { pinned: v.off !== true, reason: reasonOf(v) }, {})
  const to = target()
  confirm(v, to, [`${body.pinned ? 'pin' : 'unpin'} notice ${id}`, `reason: ${body.reason} (in the audit trail)`])
  printNotice(body.pinned ? 'pinned' : 'unpinned', await opsApi<OpsNotice>(to, `/notices/${id}/pin`, body, `no notice ${id}`))
}

async function noticeUnpublish(v: Values): Promise<void> {
  const id = rowId(v, 'id')
  const body = checked(OpsReasonRequest, { reason: reasonOf(v) }, {})
  const to = target()
  confirm(v, to, [
    `take notice ${id} down (off /notice, its page, its series page and the count)`,
    `reason: ${body.reason} (in the audit trail)`,
  ])
  printNotice(
    'unpublished',
    await opsApi<OpsNotice>(to, `/notices/${id}/unpublish`, body, `no published notice ${id}: unknown or down already`),
  )
}

function couponLine(c: OpsCoupon): Record<string, string | number> {
  return {
    id: c.id,
    code: c.code ?? '(download)',
    title: c.title,
    type: c.type,
    reward: `${c.rewardAmount} ${c.rewardType === 'COIN' ? (c.rewardLotType ?? 'FREE_COIN') : c.rewardType}`,
    minimum: c.minimumAmount,
    'used/stock': `${c.usedCount}/${c.stock ?? '∞'}`,
    received: c.received,
    rewarded: c.used,
    state: c.state,
    platform: c.platform ?? 'all',
    expires: c.expiresAt ? date(c.expiresAt) : 'never',
  }
}

async function couponCreate(v: Values): Promise<void> {
  const reason = reasonOf(v)
  const request: Record<string, unknown> = {
    ...given(v, { code: 'code', title: 'title', starts: 'startsAt', expires: 'expiresAt' }),
    ...Object.fromEntries(
      (['type', 'reward', 'lot', 'platform'] as const).flatMap((k) =>
        typeof v[k] === 'string' ? [[{ reward: 'rewardType', lot: 'rewardLotType' }[k as string] ?? k, String(v[k]).toUpperCase()]] : [],
      ),
    ),
    downloadable: v.downloadable === true,
    rewardAmount: wholeOpt(v, 'amount'),
    rewardExpiresDays: wholeOpt(v, 'reward-days'),
    minimumAmount: wholeOpt(v, 'minimum'),
    quantity: wholeOpt(v, 'quantity'),
    reason,
  }
  need(v, 'title')
  const body = checked(CouponCreateRequest, request, {
    code:
      v.code === undefined && !v.downloadable
        ? 'give --code C or --downloadable'
        : v.code !== undefined && v.downloadable
          ? '--code and --downloadable exclude each other'
          : '--code must be letters, digits, _ or - (at most 64)',
    title: '--title must be 1 to 100 characters once trimmed',
    type: `--type must be one of ${COUPON_TYPES.join(', ')}`,
    rewardType: `--reward must be one of ${REWARD_TYPES.join(', ')}`,
    rewardAmount:
      request.rewardType === 'ROULETTE_TICKET'
        ? `--amount must be 1 to ${MAX_TICKETS} tickets`
        : `--amount must be 1 to ${MAX_ADMIN_ADJUST.toLocaleString('en')}`,
    rewardLotType: '--lot must be FREE_COIN, BONUS or COIN, and only with --reward COIN',
    rewardExpiresDays: `--reward-days must be 1 to ${MAX_REWARD_DAYS}`,
    minimumAmount: `--minimum must be 0 to ${MAX_COUPON_MINIMUM.toLocaleString('en')}, and only with --downloadable`,
    startsAt: '--starts must be a date (YYYY-MM-DD) or an ISO instant with its offset',
    expiresAt: '--expires must be a date (YYYY-MM-DD) or an ISO instant with its offset, after --starts',
    platform: `--platform must be one of ${PLATFORMS.join(', ')}`,
    quantity: `--quantity must be 1 to ${MAX_COUPON_QUANTITY.toLocaleString('en')}`,
  })
  const to = target()
  confirm(v, to, [
    `create ${body.code ? `coupon code ${body.code}` : 'a downloadable coupon (listed on /coupon)'}: ${JSON.stringify(body.title)}, ${body.type}`,
    `reward: ${body.rewardAmount} ${body.rewardType === 'COIN' ? (body.rewardLotType ?? 'FREE_COIN') : body.rewardType}${body.rewardExpiresDays ? `, expiring ${body.rewardExpiresDays} days after` : ''}${body.minimumAmount ? `, with a top-up of at least ${body.minimumAmount}` : ''}`,
    `usable: ${body.startsAt ?? 'now'} → ${body.expiresAt ?? 'never'}, ${body.platform ?? 'every platform'}, ${body.quantity ? `${body.quantity} readers` : 'unlimited'}`,
    `reason: ${body.reason} (in the audit trail)`,
  ])
  const c = await opsApi<OpsCoupon>(to, '/coupons', body, 'no such route')
  console.log(`created: coupon ${c.id} ${c.code ? `code ${c.code}` : '(downloadable)'}, ${c.state}`)
}

async function couponExpire(v: Values): Promise<void> {
  const id = rowId(v, 'id')
  const body = checked(OpsReasonRequest, { reason: reasonOf(v) }, {})
  const to = target()
  confirm(v, to, [
    `end coupon ${id} now (readers get EXPIRED_COUPON; what they received stays)`,
    `reason: ${body.reason} (in the audit trail)`,
  ])
  const c = await opsApi<OpsCoupon>(to, `/coupons/${id}/expire`, body, `no coupon ${id}`)
  console.log(
    `expired: coupon ${c.id} ${c.code ? `code ${c.code}` : '(downloadable)'} at ${c.expiresAt}; ${c.used} reader${c.used === 1 ? '' : 's'} rewarded`,
  )
}

async function couponReportCommand(v: Values): Promise<void> {
  const id = v.id === undefined ? undefined : rowId(v, 'id')
  const to = target()
  const { items, readers } = await opsApi<{ items: OpsCoupon[]; readers?: CouponReader[] }>(
    to,
    `/coupons${id ? `?id=${id}` : ''}`,
    undefined,
    `no coupon ${id}`,
  )
  console.log(`${items.length} coupon${items.length === 1 ? '' : 's'} (${to.url}), newest first:`)
  printTable(items.map(couponLine))
  if (!readers) return
  console.log(`\n${readers.length} reader${readers.length === 1 ? '' : 's'} of coupon ${id}, latest first:`)
  printTable(
    readers.map((r) => ({
      user: r.userId,
      email: r.email ?? '(withdrawn)',
      took: r.receivedAt ? date(r.receivedAt) : '',
      rewarded: r.redeemedAt ? date(r.redeemedAt) : '',
    })),
  )
}

// ───────────────────────────── readers ─────────────────────────────

/** `--email E` or `--id N`, exactly one, as the API's query (`ReaderLookup`). */
const READER_FLAGS: Record<(typeof READER_KEYS)[number], string> = {
  email: '--email E',
  id: '--id N',
  nickname: '--nickname NAME',
  payment: '--payment pay_…',
  phone: '--phone NUMBER',
}

/** The reader query of the one lookup option given among `allowed` (reader show: all five; sessions end: e-mail or id). */
function readerQuery(v: Values, allowed: readonly (typeof READER_KEYS)[number][] = ['email', 'id']): string {
  const keys = allowed.filter((k) => v[k] !== undefined)
  if (keys.length !== 1) {
    const flags = allowed.map((k) => READER_FLAGS[k])
    throw new UsageError(`give ${flags.slice(0, -1).join(', ')} or ${flags.at(-1)} (exactly one)`)
  }
  const key = keys[0]!
  const query: Record<string, string> = { [key]: key === 'id' ? String(rowId(v, 'id')) : need(v, key).trim() }
  checked(ReaderLookup, query, {
    email: `--email must be an e-mail address, not "${query.email}"`,
    nickname: '--nickname must be 1 to 40 characters',
    payment: `--payment must be a payment id (pay_ then 1 to 64 of a-z, 0-9 and _), not "${query.payment}"`,
    phone: `--phone must be a phone number (digits, spaces, + ( ) . -), not "${query.phone}"`,
  })
  return new URLSearchParams(query).toString()
}

const notFoundReader = (v: Values) =>
  v.id !== undefined
    ? `no account ${v.id}`
    : v.email !== undefined
      ? `no account with e-mail ${v.email}`
      : v.nickname !== undefined
        ? `no account with nickname ${v.nickname}`
        : v.payment !== undefined
          ? `no account with payment ${v.payment}`
          : `no account with phone ${v.phone}`

async function readerShow(v: Values): Promise<void> {
  const query = readerQuery(v, READER_KEYS)
  const to = target()
  const r = await opsApi<ReaderReport>(to, `/readers?${query}`, undefined, notFoundReader(v))
  const a = r.account
  console.log(
    `reader ${a.id}: ${a.email ?? '(no e-mail)'}${a.nickname ? ` "${a.nickname}"` : ''}${a.deletedAt ? `, WITHDRAWN ${date(a.deletedAt)}` : ''}`,
  )
  console.log(
    `created ${date(a.createdAt)} · platform ${a.platform} · sign-in ${a.signIn.join(', ') || 'none'} · e-mail ${a.emailVerifiedAt ? 'verified' : 'not verified'}`,
  )
  console.log(
    `adult: ${a.isAdult ? `verified${a.adultVerifiedAt ? ` ${date(a.adultVerifiedAt)}` : ''}` : 'not verified'} · last sign-in ${a.lastLoginAt ? date(a.lastLoginAt) : 'never'}` +
      (a.withdrawalRequestedAt && !a.deletedAt ? ` · withdrawal requested ${date(a.withdrawalRequestedAt)}` : ''),
  )
  printBalances(r.balances)
  printInvariant(r.wallet)
  // the limit the reader set (issue 37 point 5): "cannot buy" from a reader past it is answered here
  if (r.spending) {
    const coins = (n: number | null) => (n === null ? 'none' : `${n} coins a month`)
    const s = r.spending
    console.log(
      `spending limit: ${coins(s.limit)} · ${s.spent} spent this month · resets ${date(s.resetsAt)}` +
        (s.next ? ` · raise to ${coins(s.next.limit)} asked, from ${date(s.next.at)}` : ''),
    )
  }
  console.log(`\nlast ${r.payments.length} payments, newest first:`)
  printTable(
    r.payments.map((p) => ({
      id: p.id,
      date: date(p.createdAt),
      state: p.state,
      amount: formatMoney(p.amount, {
        locale: 'en-GB',
        currency: p.currency,
        price: { symbol: null, position: 'before', space: false, cents: 'always' },
      }),
      coins: p.coins,
      bonus: p.bonus,
      provider: `${p.provider}${p.method ? `/${p.method}` : ''}`,
      refunded: p.refundedAt ? date(p.refundedAt) : p.cancelledAt ? `cancelled ${date(p.cancelledAt)}` : '',
      events: p.events.map((e) => `${e.type ?? '?'} ${date(e.receivedAt)}`).join('; '),
    })),
  )
  console.log(`\nlast ${r.purchases.length} purchases, newest first:`)
  printTable(
    r.purchases.map((p) => ({
      id: p.id,
      date: date(p.createdAt),
      type: p.type,
      coins: p.coins,
      series: `${p.seriesId} ${p.seriesTitle}`,
      episode: `no ${p.episodeNo} (id ${p.episodeId})`,
    })),
  )
  console.log(`\nlast ${r.signIns.length} sign-ins, newest first:`)
  printTable(r.signIns.map((s) => ({ date: date(s.at), client: s.client, ip: s.ipAddress ?? '', signedIn: s.open ? 'open' : 'ended' })))
}

async function readerSessionsEnd(v: Values): Promise<void> {
  const query = readerQuery(v)
  const body = checked(OpsReasonRequest, { reason: reasonOf(v) }, {})
  const to = target()
  // an e-mail names the account through the report (a read): the plan then says whose sessions end
  const who =
    v.id !== undefined
      ? { id: rowId(v, 'id'), label: `reader ${rowId(v, 'id')}` }
      : await opsApi<ReaderReport>(to, `/readers?${query}`, undefined, notFoundReader(v)).then((r) => ({
          id: r.account.id,
          label: `reader ${r.account.id} (${r.account.email}, ${r.signIns.filter((s) => s.open).length} device(s) signed in)`,
        }))
  confirm(v, to, [
    `end every session of ${who.label}: refresh tokens revoked, access tokens refused at the next request`,
    `reason: ${body.reason} (in the audit trail)`,
  ])
  const res = await opsApi<{ id: number; email: string | null; ended: number }>(
    to,
    `/readers/${who.id}/sessions/end`,
    body,
    `no live account ${who.id}`,
  )
  console.log(`ended: every session of reader ${res.id} (${res.email ?? 'no e-mail'}); ${res.ended} device(s) were signed in`)
}

// ───────────────────────────── events and banners ─────────────────────────────

const DATE_HINT = 'a date (YYYY-MM-DD) or an ISO instant with its offset (2026-12-01T09:00:00Z)'

function printEvent(verb: string, e: OpsEvent): void {
  console.log(
    `${verb}: event ${e.id} (${e.kind}${e.restriction ? `, ${e.restriction === 'ADULT' ? 'adults' : 'minors'} only` : ''}) ${e.state}, ` +
      `${e.startsAt} → ${e.endsAt}: ${JSON.stringify(e.title)}`,
  )
}

async function eventCreate(v: Values): Promise<void> {
  const reason = reasonOf(v)
  need(v, 'title')
  need(v, 'ends')
  const request = {
    ...given(v, { title: 'title', description: 'description', starts: 'startsAt', ends: 'endsAt' }),
    ...(typeof v.kind === 'string' ? { kind: v.kind.toUpperCase() } : {}),
    ...(typeof v.only === 'string' ? { restriction: v.only.toUpperCase() } : {}),
    reason,
  }
  const body = checked(EventCreateRequest, request, {
    title: `--title must be 1 to ${MAX_EVENT_TITLE} characters once trimmed`,
    description: `--description must be at most ${MAX_EVENT_DESCRIPTION} characters`,
    kind: `--kind must be one of ${OPS_EVENT_KINDS.join(', ')} (a ROULETTE needs its prize table: only the seed makes one)`,
    startsAt: `--starts must be ${DATE_HINT}`,
    endsAt: `--ends must be ${DATE_HINT}, after --starts`,
    restriction: '--only must be ADULT or NON_ADULT',
  })
  const to = target()
  confirm(v, to, [
    `create a ${body.kind} event on /event${body.restriction ? ` for ${body.restriction === 'ADULT' ? 'adults' : 'minors'} only` : ''}: ${JSON.stringify(body.title)}`,
    `from ${body.startsAt ?? 'now'} through ${body.endsAt}; description ${body.description.length} characters`,
    `reason: ${body.reason} (in the audit trail)`,
  ])
  printEvent('created', await opsApi<OpsEvent>(to, '/events', body, 'no such route'))
}

async function eventEnd(v: Values): Promise<void> {
  const id = rowId(v, 'id')
  const body = checked(OpsReasonRequest, { reason: reasonOf(v) }, {})
  const to = target()
  confirm(v, to, [`end event ${id} now: off /event, no more taking part`, `reason: ${body.reason} (in the audit trail)`])
  printEvent('ended', await opsApi<OpsEvent>(to, `/events/${id}/end`, body, `no event ${id}`))
}

function printBanner(verb: string, b: OpsBanner): void {
  console.log(
    `${verb}: banner ${b.id} (${b.placement}, ${b.display}${b.isAdult ? ', adult' : ''}, position ${b.position}) ${b.state}, ` +
      `${b.startsAt ?? 'always'} → ${b.endsAt ?? 'never'}: ${JSON.stringify(b.title)} → ${b.link}`,
  )
}

async function bannerCreate(v: Values): Promise<void> {
  const reason = reasonOf(v)
  need(v, 'display')
  need(v, 'title')
  need(v, 'link')
  const request = {
    ...given(v, {
      title: 'title',
      subtitle: 'subtitle',
      link: 'link',
      image: 'imageKey',
      background: 'background',
      starts: 'startsAt',
      ends: 'endsAt',
    }),
    ...(typeof v.display === 'string' ? { display: v.display.toUpperCase() } : {}),
    ...(typeof v.placement === 'string' ? { placement: v.placement.toUpperCase() } : {}),
    imageWidth: wholeOpt(v, 'width'),
    imageHeight: wholeOpt(v, 'height'),
    position: wholeOpt(v, 'position'),
    adult: v.adult === true,
    reason,
  }
  const body = checked(BannerCreateRequest, request, {
    display: `--display must be one of ${BANNER_DISPLAYS.join(', ')}`,
    title: `--title must be 1 to ${MAX_BANNER_TITLE} characters on one line`,
    subtitle: `--subtitle must be 1 to ${MAX_BANNER_TITLE} characters on one line`,
    link: '--link must be a path of this site (/detail/24) or an http(s) address, without spaces',
    imageKey:
      v.image === undefined
        ? `--display ${String(v.display).toUpperCase()} shows a picture: give --image KEY --width W --height H`
        : typeof v.display === 'string' && v.display.toUpperCase() === 'ONLY_TEXT'
          ? '--display ONLY_TEXT shows no picture: leave out --image'
          : '--image must be an R2 prefix such as banners/12 (lower case letters, digits, _ - and /)',
    imageWidth: `--width and --height (16 to ${MAX_BANNER_SIDE}) go with --image`,
    imageHeight: `--height must be 16 to ${MAX_BANNER_SIDE}`,
    background: '--background must be a colour #rrggbb',
    position: '--position must be 0 to 1000',
    placement: `--placement must be one of ${BANNER_PLACEMENTS.join(', ')}`,
    startsAt: `--starts must be ${DATE_HINT}`,
    endsAt: `--ends must be ${DATE_HINT}, after --starts`,
  })
  const to = target()
  confirm(v, to, [
    `create a ${body.placement} banner (${body.display}${body.adult ? ', adult readers only' : ''}, position ${body.position}): ${JSON.stringify(body.title)} → ${body.link}`,
    ...(body.imageKey ? [`picture: ${body.imageKey}/<width>.webp, ${body.imageWidth} × ${body.imageHeight} px`] : []),
    `shown ${body.startsAt ?? 'now'} → ${body.endsAt ?? 'never'}`,
    `reason: ${body.reason} (in the audit trail)`,
  ])
  printBanner('created', await opsApi<OpsBanner>(to, '/banners', body, 'no such route'))
}

async function bannerEnd(v: Values): Promise<void> {
  const id = rowId(v, 'id')
  const body = checked(OpsReasonRequest, { reason: reasonOf(v) }, {})
  const to = target()
  confirm(v, to, [`end banner ${id} now: out of its carousel`, `reason: ${body.reason} (in the audit trail)`])
  printBanner('ended', await opsApi<OpsBanner>(to, `/banners/${id}/end`, body, `no banner ${id}`))
}

// ───────────────────────────── lists: the ids every edit needs (issue 39 point 2) ─────────────────────────────

/** `--limit` and `--cursor` checked as the API checks them, and `extra` fields, as a query string (`?…`, or none). */
function listQuery(v: Values, extra: Record<string, string> = {}, schema: z.ZodType = OpsListQuery): string {
  const request = { ...given(v, { limit: 'limit', cursor: 'cursor' }), ...extra }
  checked(schema, request, {
    limit: `--limit must be a whole number from 1 to ${OPS_LIST_MAX}`,
    cursor: '--cursor must be a positive whole number (the one the page before printed)',
    q: `--search must be 1 to ${MAX_SERIES_SEARCH} characters once trimmed`,
  })
  const query = new URLSearchParams(request).toString()
  return query && `?${query}`
}

/** One page of a list; an answer without its rows or with a time zone Intl does not know is not the API's. */
async function listPage<P extends OpsPage<unknown> & { timeZone: string }>(to: Target, path: string, notFound: string): Promise<P> {
  const page = await opsApi<P>(to, path, undefined, notFound)
  if (!Array.isArray(page?.items) || !knownZone(page.timeZone))
    throw new ApiError(`GET ${to.url}/api/ops${path} is not an operator API list`)
  return page
}

function knownZone(timeZone: unknown): timeZone is string {
  if (typeof timeZone !== 'string') return false
  try {
    return new Intl.DateTimeFormat('en', { timeZone }).resolvedOptions().timeZone !== ''
  } catch {
    return false
  }
}

/** An instant as `YYYY-MM-DD HH:mm` in `timeZone` (the edition's). */
function zoned(iso: string, timeZone: string): string {
  const c = wallClock(new Date(iso), timeZone)
  const two = (n: number) => String(n).padStart(2, '0')
  return `${c.year}-${two(c.month)}-${two(c.day)} ${two(c.hour)}:${two(c.minute)}`
}

/** The closing line of a page: the command line of the next page, or that this was the last one. */
function printNext(command: string, next: string | null): void {
  console.log(next ? `\nmore: npm run ops -- ${command} --cursor ${next}` : '\n(last page)')
}

/** The options a list command was given but its cursor, to repeat on the next page's command line. */
function repeatOptions(v: Values, names: string[]): string {
  const quoted = (text: string) => (/^[\w./:-]+$/.test(text) ? text : JSON.stringify(text))
  return names.flatMap((n) => (typeof v[n] === 'string' ? [`--${n} ${quoted(v[n] as string)}`] : [])).join(' ')
}

async function seriesList(v: Values): Promise<void> {
  const search: Record<string, string> = typeof v.search === 'string' ? { q: v.search } : {}
  const query = listQuery(v, search, SeriesListQuery)
  const to = target()
  const page = await listPage<OpsPage<OpsSeriesItem> & { timeZone: string }>(to, `/series${query}`, 'no such route')
  const what = v.search === undefined ? '' : ` whose title contains ${JSON.stringify(v.search)}`
  console.log(`${page.items.length} series${what} (${to.url}), newest first; times in ${page.timeZone}:`)
  printTable(
    page.items.map((s) => ({
      id: s.id,
      title: s.title,
      state: s.state,
      adult: s.isAdult ? 'adult' : '',
      episodes: s.episodes,
      out: s.published,
      [`next episode (${page.timeZone})`]: s.nextEpisodeAt ? zoned(s.nextEpisodeAt, page.timeZone) : '',
    })),
  )
  printNext(['series list', repeatOptions(v, ['search', 'limit'])].filter(Boolean).join(' '), page.next)
}

/** An episode's price as the reader meets it: free, or the coins to rent and to buy. */
function priceOf(e: Pick<OpsEpisodeItem, 'isFree' | 'priceRent' | 'priceBuy'>): string {
  if (e.isFree) return 'free'
  return [e.priceRent !== null && `rent ${e.priceRent}`, e.priceBuy !== null && `buy ${e.priceBuy}`].filter(Boolean).join(' · ')
}

async function episodeList(v: Values): Promise<void> {
  const seriesId = rowId(v, 'series')
  const query = listQuery(v)
  const to = target()
  const page = await listPage<OpsPage<OpsEpisodeItem> & { timeZone: string; series: { id: number; title: string } }>(
    to,
    `/series/${seriesId}/episodes${query}`,
    `no series ${seriesId}`,
  )
  console.log(
    `series ${page.series.id} ${JSON.stringify(page.series.title)}: ${page.items.length} episode${page.items.length === 1 ? '' : 's'} (${to.url}), ` +
      `latest first; times in ${page.timeZone}:`,
  )
  printTable(
    page.items.map((e) => ({
      id: e.id,
      no: e.no,
      title: e.title,
      state: e.state,
      [`published (${page.timeZone})`]: e.state === 'UNPUBLISHED' || e.state === 'UPLOADING' ? '' : zoned(e.publishedAt, page.timeZone),
      alarms: e.announcedAt ? 'sent' : '',
      price: priceOf(e),
      early:
        e.earlyAt && e.state === 'SCHEDULED' ? `since ${zoned(e.earlyAt, page.timeZone)}: rent ${e.earlyRent} · buy ${e.earlyBuy}` : '',
    })),
  )
  printNext(['episode list', `--series ${seriesId}`, repeatOptions(v, ['limit'])].filter(Boolean).join(' '), page.next)
}

async function noticeList(v: Values): Promise<void> {
  const query = listQuery(v)
  const to = target()
  const page = await listPage<OpsPage<OpsNoticeItem> & { timeZone: string }>(to, `/notices${query}`, 'no such route')
  console.log(`${page.items.length} notice${page.items.length === 1 ? '' : 's'} (${to.url}), newest first; times in ${page.timeZone}:`)
  printTable(
    page.items.map((n) => ({
      id: n.id,
      state: n.state,
      [`date (${page.timeZone})`]: n.state === 'UNPUBLISHED' ? '' : zoned(n.publishedAt, page.timeZone),
      pinned: n.isPinned ? 'pinned' : '',
      category: n.category,
      where: n.seriesId === null ? 'global' : `series ${n.seriesId}`,
      title: n.title,
    })),
  )
  printNext(['notice list', repeatOptions(v, ['limit'])].filter(Boolean).join(' '), page.next)
}

async function eventList(v: Values): Promise<void> {
  const query = listQuery(v)
  const to = target()
  const page = await listPage<OpsPage<OpsEvent> & { timeZone: string }>(to, `/events${query}`, 'no such route')
  console.log(`${page.items.length} event${page.items.length === 1 ? '' : 's'} (${to.url}), newest first; times in ${page.timeZone}:`)
  printTable(
    page.items.map((e) => ({
      id: e.id,
      state: e.state,
      kind: e.kind,
      [`starts (${page.timeZone})`]: zoned(e.startsAt, page.timeZone),
      ends: zoned(e.endsAt, page.timeZone),
      only: e.restriction === 'ADULT' ? 'adults' : e.restriction === 'NON_ADULT' ? 'minors' : '',
      title: e.title,
    })),
  )
  printNext(['event list', repeatOptions(v, ['limit'])].filter(Boolean).join(' '), page.next)
}

async function bannerList(v: Values): Promise<void> {
  const query = listQuery(v)
  const to = target()
  const page = await listPage<OpsPage<OpsBanner> & { timeZone: string }>(to, `/banners${query}`, 'no such route')
  console.log(`${page.items.length} banner${page.items.length === 1 ? '' : 's'} (${to.url}), newest first; times in ${page.timeZone}:`)
  printTable(
    page.items.map((b) => ({
      id: b.id,
      state: b.state,
      placement: b.placement,
      position: b.position,
      [`starts (${page.timeZone})`]: b.startsAt ? zoned(b.startsAt, page.timeZone) : 'always',
      ends: b.endsAt ? zoned(b.endsAt, page.timeZone) : 'never',
      adult: b.isAdult ? 'adult' : '',
      title: b.title,
      link: b.link,
    })),
  )
  printNext(['banner list', repeatOptions(v, ['limit'])].filter(Boolean).join(' '), page.next)
}

// ───────────────────────────── comment moderation ─────────────────────────────

async function commentsReported(v: Values): Promise<void> {
  const filters = given(v, { days: 'days', series: 'series', sort: 'sort' })
  const request = { ...given(v, { limit: 'limit', cursor: 'cursor' }), ...filters }
  checked(ReportedQuery, request, {
    days: `--days must be a whole number from 1 to ${MAX_REPORTED_DAYS}`,
    series: '--series must be a positive whole number (a series id)',
    sort: `--sort must be one of ${REPORTED_SORTS.join(', ')}`,
    limit: `--limit must be a whole number from 1 to ${OPS_LIST_MAX}`,
    cursor: '--cursor must be a positive whole number (the one the page before printed)',
  })
  const query = new URLSearchParams(request).toString()
  const to = target()
  const page = await listPage<OpsPage<ReportedComment> & { timeZone: string }>(
    to,
    `/comments/reported${query && `?${query}`}`,
    'no such route',
  )
  const what = [filters.series ? `series ${filters.series}` : '', filters.days ? `the last ${filters.days} days` : ''].filter(Boolean)
  const order = filters.sort === 'most' ? 'most reported first' : 'latest report first'
  console.log(
    `${page.items.length} reported comment${page.items.length === 1 ? '' : 's'} not reviewed (${to.url})${what.length ? `, ${what.join(', ')}` : ''}, ${order}; times in ${page.timeZone}:`,
  )
  printTable(
    page.items.map((c) => ({
      id: c.id,
      open: c.openReports,
      reports: c.reports,
      [`last report (${page.timeZone})`]: zoned(c.lastReportedAt, page.timeZone),
      state: c.state ?? '',
      series: `${c.seriesId} ${c.seriesTitle}`,
      episode: c.episodeNo === null ? '' : `no ${c.episodeNo}`,
      author: `${c.author.id}${c.author.nickname ? ` ${c.author.nickname}` : ''}`,
      text: excerpt(c.text),
    })),
  )
  if (page.items.length) console.log('\nreview one: npm run ops -- comments hide|restore <id> --reason TEXT')
  printNext(['comments reported', repeatOptions(v, ['days', 'series', 'sort', 'limit'])].filter(Boolean).join(' '), page.next)
}

/** A comment's text on one line, at most 60 characters. */
function excerpt(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return [...line].length > 60 ? `${[...line].slice(0, 59).join('')}…` : line
}

function commentIdOf(v: Values): number {
  const text = typeof v.id === 'string' ? v.id.trim() : ''
  if (!text) throw new UsageError('give the comment id: comments hide|restore <id> (comments reported lists them)')
  if (!/^[1-9]\d{0,14}$/.test(text)) throw new UsageError(`the comment id must be a positive whole number, not "${text}"`)
  return Number(text)
}

async function commentsModerate(v: Values, action: 'hide' | 'restore'): Promise<void> {
  const id = commentIdOf(v)
  const body = checked(OpsReasonRequest, { reason: reasonOf(v) }, {})
  const to = target()
  confirm(v, to, [
    action === 'hide'
      ? `hide comment ${id}: gone from readers' lists and counts, its open reports marked reviewed`
      : `restore comment ${id}: visible to readers again, its open reports marked reviewed`,
    `reason: ${body.reason} (in the audit trail)`,
  ])
  const c = await opsApi<ModeratedComment & { changed: boolean }>(to, `/comments/${id}/${action}`, body, `no comment ${id}`)
  const where = `series ${c.seriesId}${c.episodeId === null ? '' : `, episode ${c.episodeId}`}, by reader ${c.userId}`
  if (!c.changed) console.log(`comment ${c.id} (${where}) was ${action === 'hide' ? 'hidden' : 'visible'} already: nothing changed`)
  else console.log(`${action === 'hide' ? 'hidden' : 'restored'}: comment ${c.id} (${where}), ${c.reports} report(s) reviewed`)
}

/** The reader of --email (looked up: GET /readers) or --user, with a label for the plan. */
async function commenterOf(v: Values, to: Target): Promise<{ id: number; label: string }> {
  if ((v.email === undefined) === (v.user === undefined)) throw new UsageError('give --email E or --user N (exactly one)')
  if (v.user !== undefined) return { id: rowId(v, 'user'), label: `reader ${rowId(v, 'user')}` }
  const email = need(v, 'email').trim()
  checked(ReaderLookup, { email }, { email: `--email must be an e-mail address, not "${email}"` })
  const r = await opsApi<ReaderReport>(to, `/readers?${new URLSearchParams({ email })}`, undefined, `no account with e-mail ${email}`)
  return { id: r.account.id, label: `reader ${r.account.id} (${r.account.email})` }
}

function printBan(res: { userId: number; ban: CommentBan | null; changed: boolean }, blocking: boolean): void {
  const ban = res.ban
  if (blocking && ban)
    console.log(
      res.changed
        ? `blocked: reader ${res.userId} may not comment until ${date(ban.until)}; shown to them: ${JSON.stringify(ban.reason)}`
        : `reader ${res.userId} is blocked already until ${date(ban.until)} (${JSON.stringify(ban.reason)}, by ${ban.createdBy}): nothing changed; unblock first to change it`,
    )
  else
    console.log(res.changed ? `unblocked: reader ${res.userId} may comment again` : `reader ${res.userId} was not blocked: nothing changed`)
}

async function commentsBlock(v: Values): Promise<void> {
  if ((v.email === undefined) === (v.user === undefined)) throw new UsageError('give --email E or --user N (exactly one)')
  if (v.user !== undefined) rowId(v, 'user')
  const days = wholeOpt(v, 'days')
  if (days === undefined) throw new UsageError('--days is required')
  const body = checked(
    CommentBlockRequest,
    { days, reason: reasonOf(v) },
    { days: `--days must be a whole number from 1 to ${MAX_BLOCK_DAYS}` },
  )
  const to = target()
  const who = await commenterOf(v, to)
  const until = new Date(Date.now() + body.days * 86_400_000).toISOString()
  confirm(v, to, [
    `block ${who.label} from commenting for ${body.days} day(s), until about ${date(until)}: their posts refused`,
    `reason: ${body.reason} (shown to the reader, and in the audit trail)`,
  ])
  printBan(await opsApi(to, `/readers/${who.id}/comment-block`, body, `no reader ${who.id}`), true)
}

async function commentsUnblock(v: Values): Promise<void> {
  if ((v.email === undefined) === (v.user === undefined)) throw new UsageError('give --email E or --user N (exactly one)')
  if (v.user !== undefined) rowId(v, 'user')
  const body = checked(OpsReasonRequest, { reason: reasonOf(v) }, {})
  const to = target()
  const who = await commenterOf(v, to)
  confirm(v, to, [`end the block from commenting of ${who.label} now`, `reason: ${body.reason} (in the audit trail)`])
  printBan(await opsApi(to, `/readers/${who.id}/comment-unblock`, body, `no reader ${who.id}`), false)
}

// ───────────────────────────── audit trail, operators, payments ─────────────────────────────

async function auditList(v: Values): Promise<void> {
  const filters = given(v, { days: 'days', target: 'target', operator: 'operator' })
  const request = { ...given(v, { limit: 'limit', cursor: 'cursor' }), ...filters }
  checked(AuditQuery, request, {
    days: `--days must be a whole number from 1 to ${MAX_AUDIT_DAYS}`,
    target: '--target must be KIND:ID, e.g. notice:5, user:12, payment:pay_abc',
    operator: '--operator must be root or an operator name (a-z, 0-9, - and _)',
    limit: `--limit must be a whole number from 1 to ${OPS_LIST_MAX}`,
    cursor: '--cursor must be a positive whole number (the one the page before printed)',
  })
  const query = new URLSearchParams(request).toString()
  const to = target()
  const page = await listPage<OpsPage<AuditEntry> & { timeZone: string }>(to, `/audit${query && `?${query}`}`, 'no such route')
  const what = Object.entries(filters).map(([k, value]) => `${k} ${value}`)
  console.log(
    `${page.items.length} change${page.items.length === 1 ? '' : 's'} (${to.url})${what.length ? `, ${what.join(', ')}` : ''}, newest first; times in ${page.timeZone}:`,
  )
  if (page.items.length === 0) console.log('  (none)')
  for (const e of page.items) {
    console.log(`\n#${e.id}  ${zoned(e.at, page.timeZone)}  ${e.operator}  ${e.action}${e.target ? `  ${e.target}` : ''}`)
    console.log(`  ${e.route}${e.reason ? ` · reason: ${e.reason}` : ''}`)
    // a target made by the change is shown whole (created), one it removed too (removed); else the fields it altered
    if (e.before === null && e.after !== null) console.log(`  created: ${JSON.stringify(e.after)}`)
    else if (e.after === null && e.before !== null) console.log(`  removed: ${JSON.stringify(e.before)}`)
    else
      for (const [field, was, now] of changedFields(e.before, e.after))
        console.log(`  ${field || 'value'}: ${JSON.stringify(was) ?? 'null'} → ${JSON.stringify(now) ?? 'null'}`)
  }
  printNext(['audit', repeatOptions(v, ['days', 'target', 'operator', 'limit'])].filter(Boolean).join(' '), page.next)
}

async function alertsList(v: Values): Promise<void> {
  const request = given(v, { days: 'days' })
  const { days } = checked(AlertsQuery, request, { days: `--days must be a whole number from 1 to ${MAX_ALERT_DAYS}` })
  const to = target()
  const answer = await opsApi<{ items: OpsAlert[]; alertsTo: string | null; timeZone: string }>(
    to,
    `/alerts?days=${days}`,
    undefined,
    'no such route',
  )
  const mailed = answer.alertsTo ? `mails to ${answer.alertsTo}` : 'this edition sends no mail'
  console.log(
    `${answer.items.length} hour${answer.items.length === 1 ? '' : 's'} with trouble in the last ${days} days (${to.url}; ${mailed}); times in ${answer.timeZone}:`,
  )
  if (answer.items.length === 0) console.log('  (none)')
  for (const a of answer.items) {
    const mail = a.mailedAt
      ? `mailed ${zoned(a.mailedAt, answer.timeZone)}`
      : a.count >= ALERT_KINDS[a.kind].threshold
        ? 'not mailed'
        : 'below the mail threshold'
    console.log(`\n${zoned(`${a.hour}:00:00.000Z`, answer.timeZone)}  ${a.kind} × ${a.count}  (${mail})`)
    console.log(`  first: ${a.firstDetail}`)
    if (a.count > 1) console.log(`  latest (${zoned(a.lastAt, answer.timeZone)}): ${a.lastDetail}`)
  }
}

async function dailyReport(v: Values): Promise<void> {
  const { days } = checked(DailyReportQuery, given(v, { days: 'days' }), {
    days: `--days must be a whole number from 1 to ${MAX_REPORT_DAYS}`,
  })
  const { url, local } = opsUrl()
  const rows = local
    ? (await opsApi<{ items: ReportRow[] }>(target(), `/report?days=${days}`, undefined, 'no such route')).items
    : await analyticsSql(reportSql(days, new Date()))
  const source = local ? `the local run's sums at ${url.origin}` : `Analytics Engine, dataset ${METRICS_DATASET}`
  console.log(`Daily report of the last ${days} UTC day${days === 1 ? '' : 's'} since ${firstReportDay(days, new Date())} (${source}):`)
  printTable(
    rows.map((r) => {
      const metric = METRICS[r.name as MetricName] as (typeof METRICS)[MetricName] | undefined
      const total = Math.round(Number(r.total))
      return {
        day: r.day,
        edition: r.edition,
        figure: metric?.says ?? r.name,
        key: r.key ? `${metric?.key ?? 'key'} ${r.key}` : '',
        count: Math.round(Number(r.count)),
        total: !metric?.total ? '' : metric.total === 'money' ? money(total, r.key) : `${total} ${metric.total}`,
      }
    }),
  )
}

/** Rows of a query to Workers Analytics Engine's SQL API (CLOUDFLARE_API_BASE stands in for Cloudflare's in tests). */
async function analyticsSql(sql: string): Promise<ReportRow[]> {
  const account = process.env.CLOUDFLARE_ACCOUNT_ID
  const token = process.env.CLOUDFLARE_API_TOKEN
  if (!account || !token)
    throw new UsageError(
      "a deployed edition's report is read from Analytics Engine: set CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_API_TOKEN (Account Analytics: Read)",
    )
  const endpoint = `${process.env.CLOUDFLARE_API_BASE || 'https://api.cloudflare.com/client/v4'}/accounts/${account}/analytics_engine/sql`
  let res: Response
  try {
    res = await fetch(endpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: sql,
      signal: AbortSignal.timeout(30_000),
    })
  } catch (e) {
    throw new ApiError(`cannot reach the Analytics Engine SQL API (${(e as Error).message})`, { cause: e })
  }
  if (!res.ok) throw new ApiError(`HTTP ${res.status} from the Analytics Engine SQL API: ${(await res.text()).slice(0, 300)}`)
  const answer = (await res.json().catch(() => null)) as { data?: ReportRow[] } | null
  if (!Array.isArray(answer?.data)) throw new ApiError('the Analytics Engine SQL API answered without rows')
  return answer.data
}

function operatorName(v: Values): string {
  const name = typeof v.name === 'string' ? v.name : ''
  if (!name) throw new UsageError('give the operator name: operator add|revoke <name>')
  checked(OperatorParam, { name }, { name: `operator name "${name}" must be 2 to 32 of a-z, 0-9, - and _, a letter first, and not root` })
  return name
}

async function operatorList(): Promise<void> {
  const to = target()
  const { items } = await opsApi<{ items: OpsOperator[] }>(to, '/operators', undefined, 'no such route')
  console.log(`${items.length} operator token${items.length === 1 ? '' : 's'} (${to.url}) besides root (OPS_TOKEN):`)
  printTable(
    items.map((o) => ({
      id: o.id,
      name: o.name,
      created: date(o.createdAt),
      by: o.createdBy,
      state: o.revokedAt ? `revoked ${date(o.revokedAt)}` : 'live',
    })),
  )
}

async function operatorAdd(v: Values): Promise<void> {
  const name = operatorName(v)
  const body = checked(OperatorAddRequest, { name, reason: reasonOf(v) }, {})
  const to = target()
  confirm(v, to, [`a token for operator ${name}, printed once (only root may do this)`, `reason: ${body.reason} (in the audit trail)`])
  const res = await opsApi<{ operator: OpsOperator; token: string }>(to, '/operators', body, 'no such route')
  console.log(`added: operator ${res.operator.name} (id ${res.operator.id}). Its token, shown this once:\n\n  ${res.token}\n`)
  console.log(`Give it to ${res.operator.name}: OPS_TOKEN=<token> npm run ops -- … records their changes under this name.`)
}

async function operatorRevoke(v: Values): Promise<void> {
  const name = operatorName(v)
  const body = checked(OpsReasonRequest, { reason: reasonOf(v) }, {})
  const to = target()
  confirm(v, to, [`revoke the token of operator ${name}: refused from its next request on`, `reason: ${body.reason} (in the audit trail)`])
  const res = await opsApi<OpsOperator>(to, `/operators/${name}/revoke`, body, `no live token of operator ${name}`)
  console.log(`revoked: operator ${res.name} (id ${res.id}) at ${date(res.revokedAt ?? '')}`)
}

function paymentIdOf(v: Values): string {
  const id = typeof v.paymentId === 'string' ? v.paymentId.trim() : ''
  if (!id) throw new UsageError('give the payment id: payment show|refund <paymentId>')
  if (!isPaymentId(id)) throw new UsageError(`"${id}" is not a payment id (pay_ then 1 to 64 of a-z, 0-9 and _)`)
  return id
}

const money = (amount: number, currency: string) =>
  formatMoney(amount, { locale: 'en-GB', currency, price: { symbol: null, position: 'before', space: false, cents: 'always' } })

async function paymentShow(v: Values): Promise<void> {
  const id = paymentIdOf(v)
  const to = target()
  const r = await opsApi<OpsPaymentReport>(to, `/payments/${id}`, undefined, `no payment ${id}`)
  const p = r.payment
  console.log(
    `payment ${p.id}: ${p.state} · ${money(p.amount, p.currency)} · ${p.coins} coins + ${p.bonus} bonus · ${p.provider}${p.method ? `/${p.method}` : ''}`,
  )
  console.log(`reader ${p.userId} (${p.email ?? 'no e-mail'}) · provider ref ${p.providerRef ?? '(none)'}`)
  console.log(
    `created ${date(p.createdAt)} · paid ${p.paidAt ? date(p.paidAt) : '-'}` +
      (p.cancelledAt ? ` · cancelled ${date(p.cancelledAt)}` : '') +
      (p.state === 'REFUNDED' ? ` · refunded ${p.refundedAt ? date(p.refundedAt) : '(asked, the provider has not answered yet)'}` : ''),
  )
  console.log('\nlots it brought:')
  printTable(r.lots.map((l) => ({ lot: l.id, type: l.type, amount: l.amount, left: l.remaining })))
  console.log("\nprovider's events, oldest first:")
  printTable(r.events.map((e) => ({ received: date(e.receivedAt), type: e.type ?? '?', event: e.eventId, provider: e.provider })))
  console.log('\nreversals:')
  printTable(r.reversals.map((x) => ({ date: date(x.createdAt), reason: x.reason, debt: x.debt })))
  console.log(`\nrefund: ${r.refusal ? `not possible: ${r.refusal}` : `possible (npm run ops -- payment refund ${p.id} --reason …)`}`)
}

async function paymentRefund(v: Values): Promise<void> {
  const id = paymentIdOf(v)
  const body = checked(OpsReasonRequest, { reason: reasonOf(v) }, {})
  const to = target()
  const r = await opsApi<OpsPaymentReport>(to, `/payments/${id}`, undefined, `no payment ${id}`)
  // refused here already when the rule refuses it: one line, nothing sent (the API would refuse it the same way)
  if (r.refusal) throw new ApiError(`INVALID_PARAMETER (NOT_REFUNDABLE): payment ${id} cannot be refunded: ${r.refusal}`)
  const p = r.payment
  const leaving = r.lots.map((l) => `${l.remaining} ${l.type}`).join(', ')
  confirm(v, to, [
    `refund payment ${p.id} of reader ${p.userId} (${p.email ?? 'no e-mail'}): ${money(p.amount, p.currency)} back through ${p.provider}`,
    `coins leaving the reader's wallet first: ${leaving}; they come back if the provider refuses`,
    `reason: ${body.reason} (in the audit trail)`,
  ])
  const res = await opsApi<{ paymentId: string; refunded: { coin: number; bonus: number; freeCoin: number; mileage: number } }>(
    to,
    `/payments/${id}/refund`,
    body,
    `no payment ${id}`,
  )
  const { coin, bonus, freeCoin, mileage } = res.refunded
  console.log(`refunded: payment ${res.paymentId}; taken back ${coin} COIN, ${bonus} BONUS, ${freeCoin} FREE_COIN, ${mileage} MILEAGE`)
}

// ───────────────────────────── output ─────────────────────────────

/** The edition's time zone, as its operator API's last answer said (`X-Edition-Time-Zone`); UTC until one did. */
let editionTimeZone = 'UTC'

/** An instant as `YYYY-MM-DD HH:mm` in the edition's time zone, with the zone's short name (`CET`, `GMT+9`, `UTC`). */
function date(iso: string): string {
  const at = new Date(iso)
  if (Number.isNaN(at.getTime())) return iso
  const name = new Intl.DateTimeFormat('en-GB', { timeZone: editionTimeZone, timeZoneName: 'short' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value
  return `${zoned(iso, editionTimeZone)} ${name ?? editionTimeZone}`
}

function printTable(rows: Record<string, string | number>[]): void {
  if (rows.length === 0) {
    console.log('  (none)')
    return
  }
  const columns = Object.keys(rows[0]!)
  const width = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)))
  const line = (cells: string[]) =>
    '  ' +
    cells
      .map((cell, i) => (typeof rows[0]![columns[i]!] === 'number' ? cell.padStart(width[i]!) : cell.padEnd(width[i]!)))
      .join('  ')
      .trimEnd()
  console.log(line(columns))
  console.log(line(width.map((w) => '─'.repeat(w))))
  for (const r of rows) console.log(line(columns.map((c) => String(r[c]))))
}

function printEntries(entries: LedgerEntry[]): void {
  printTable(
    entries.map((e) => ({
      id: e.id,
      date: date(e.createdAt),
      kind: e.kind,
      type: e.type,
      source: e.source,
      amount: e.amount,
      lot: e.lotId ?? '',
      ref: e.ref ?? '',
      description: e.description ?? '',
    })),
  )
}

function printBalances(b: Balances): void {
  console.log(`balances: BONUS ${b.BONUS}, FREE_COIN ${b.FREE_COIN}, COIN ${b.COIN} (spendable ${b.total}); MILEAGE ${b.MILEAGE}`)
  for (const e of b.nextExpiries.slice(0, 5)) console.log(`  expires ${date(e.expiresAt)}: ${e.amount} ${e.type}`)
}

/** The wallet invariant (docs/ARCHITECTURE.md "Money"); a broken one makes the command exit 1. */
function printInvariant(totals: { lots: number; ledger: number; minRemaining: number | null }): void {
  const okay = totals.lots === totals.ledger && (totals.minRemaining ?? 0) >= 0
  console.log(`invariant: Σ lots remaining ${totals.lots} ${okay ? '=' : '≠'} Σ ledger ${totals.ledger}${okay ? ' ✓' : '  ✗ INCONSISTENT'}`)
  if (!okay) process.exitCode = 1
}

// ───────────────────────────── command line ─────────────────────────────

function helpText(): string {
  const width = Math.max('help <command>'.length, ...Object.keys(COMMANDS).map((n) => n.length))
  return [
    'usage: npm run ops -- <command> [options]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
    `  ${'help <command>'.padEnd(width)}  details of one command`,
    '',
    GLOBAL_HELP,
    '',
    REMOTE_HELP,
    '',
    'Examples:',
    '  npm run ops -- coins grant --email reader@example.com --type BONUS --amount 50 --reason "Sorry for the outage of 2 December" --expires 2027-01-31',
    '  npm run ops -- alarm send --series 1 --text "Chapter 12 is delayed a week" --reason "author sick" --link /notice/3',
  ].join('\n')
}

function commandHelp(name: string): string {
  const c = COMMANDS[name]!
  return `usage: npm run ops -- ${c.usage}\n\n${c.summary}\n${c.details}\n\n${c.local ? GLOBAL_HELP : REMOTE_HELP}`
}

/** The command named by the leading words of argv (`coins grant`, `import`, …). */
function commandOf(positionals: string[]): string | undefined {
  for (const n of [3, 2, 1]) {
    const name = positionals.slice(0, n).join(' ')
    if (positionals.length >= n && COMMANDS[name]) return name
  }
  return undefined
}

async function main(argv: string[]): Promise<number> {
  for (const [k, value] of Object.entries(quietEnv)) process.env[k] ??= value
  const loose = parseArgs({ args: argv, options: GLOBAL, allowPositionals: true, strict: false })
  const words = loose.positionals
  if (words.length === 0) {
    console.log(helpText())
    return loose.values.help ? 0 : 2
  }
  if (words[0] === 'help') {
    const name = commandOf(words.slice(1))
    if (words.length > 1 && !name) {
      console.error(`ops: unknown command "${words.slice(1).join(' ')}"\n\n${helpText()}`)
      return 2
    }
    console.log(name ? commandHelp(name) : helpText())
    return 0
  }
  const name = commandOf(words)
  if (!name) {
    console.error(`ops: unknown command "${words.join(' ')}"\n\n${helpText()}`)
    return 2
  }
  const command = COMMANDS[name]!
  let values: Values
  try {
    const parsed = parseArgs({ args: argv, options: { ...GLOBAL, ...command.options }, allowPositionals: true, strict: true })
    const extra = parsed.positionals.slice(name.split(' ').length)
    values = parsed.values as Values // no option is declared `multiple`
    if (command.argument && extra.length > 0) values[command.argument] = extra.shift()
    if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`)
  } catch (e) {
    console.error(`ops: ${(e as Error).message}\n\n${commandHelp(name)}`)
    return 2
  }
  if (values.help) {
    console.log(commandHelp(name))
    return 0
  }
  try {
    await command.run(values)
    return typeof process.exitCode === 'number' ? process.exitCode : 0
  } catch (e) {
    if (e instanceof Refused) {
      console.error(`ops: ${e.message}`)
      return 2
    }
    if (e instanceof UsageError) {
      console.error(`ops: ${e.message}\n\nusage: npm run ops -- ${command.usage}`)
      return 2
    }
    console.error(`ops: ${(e as Error).message ?? e}`) // ApiError, ImportError: their message is the report
    return 1
  }
}

process.exitCode = await main(process.argv.slice(2))
