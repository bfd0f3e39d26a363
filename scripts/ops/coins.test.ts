/**
 * `npm run ops -- coins grant|deduct|show`, `import` and `reseed` through the command line against the stand-in
 * operator API (fake-api.ts): the requests each sends (a read of the wallet before a change, the import's start,
 * uploads and finish), the output an operator reads, refusals with nothing sent, `--yes` for an address that is not
 * local, and the abort of an import whose upload is refused half-way. The routes themselves: tests/worker/ops.test.ts
 * (coins) and tests/worker/ops-import.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { expectRefusedUnsent, REFUSAL_TEST_TIMEOUT_MS, fakeApi, json, LOCAL_OPS_TOKEN, outward, success, type FakeApi } from './fake-api.ts'
import { writeSampleSeries } from './sample.ts'
import { importKeys, SeriesManifest } from '../../src/features/catalogue/series-import.ts'

let api: FakeApi
let sample: string
beforeAll(async () => {
  api = await fakeApi()
  sample = await writeSampleSeries(mkdtempSync(join(tmpdir(), 'ops-coins-sample-')))
}, 60_000)
afterAll(async () => {
  await api.close()
  rmSync(sample, { recursive: true, force: true })
})
beforeEach(() => api.reset())

const EMAIL = 'reader@example.com'
const balances = (b: Partial<Record<'COIN' | 'FREE_COIN' | 'BONUS' | 'MILEAGE', number>>, nextExpiries: unknown[] = []) => {
  const all = { COIN: 0, FREE_COIN: 0, BONUS: 0, MILEAGE: 0, ...b }
  return { ...all, total: all.COIN + all.FREE_COIN + all.BONUS, nextExpiries }
}
const wallet = (b: Parameters<typeof balances>[0], extra: Record<string, unknown> = {}) => ({
  userId: 2,
  email: EMAIL,
  balances: balances(b),
  lots: [],
  entries: [],
  wallet: { lots: 0, ledger: 0, minRemaining: null },
  ...extra,
})
const entry = (kind: string, type: string, amount: number, description: string) => ({
  id: 901,
  kind,
  lotId: 77,
  type,
  source: 'ADMIN',
  amount,
  ref: null,
  description,
  createdAt: '2026-11-27T10:00:00.000Z',
})
const error = (status: number, code: string, message: string) => json(status, { result: 'ERROR', code, message, requestId: 'r1' })

describe('npm run ops -- coins', () => {
  it(
    'refuses a bad command line with one clear line, before sending anything',
    async () => {
      const grant = ['coins', 'grant', '--email', EMAIL, '--type', 'BONUS', '--amount', '5']
      await expectRefusedUnsent(api, [
        [['coins', 'grant', '--email', EMAIL], /--type is required/],
        [['coins', 'grant', '--email', 'nobody', '--type', 'BONUS', '--amount', '5', '--reason', 'r'], /--email must be an e-mail address/],
        [['coins', 'grant', '--email', EMAIL, '--type', 'GOLD', '--amount', '5', '--reason', 'r'], /--type must be one of COIN, FREE_COIN/],
        [[...grant.slice(0, -1), '0', '--reason', 'r'], /--amount must be a whole number from 1 to 1,000,000/],
        [[...grant.slice(0, -2), '--amount=-5', '--reason', 'r'], /--amount must be a whole number/],
        [grant, /--reason is required/],
        [[...grant, '--reason', 'r'.repeat(201)], /--reason must be 1 to 200 characters/],
        [[...grant, '--reason', 'r', '--expires', '2020-01-01'], /--expires 2020-01-01 is not in the future/],
        [[...grant, '--reason', 'r', '--expires', 'tomorrow'], /--expires must be a date/],
        [
          ['coins', 'deduct', '--email', EMAIL, '--type', 'BONUS', '--amount', '5', '--reason', 'r', '--expires', '2030-01-01'],
          /Unknown option/,
        ],
        [['coins', 'show', '--email', EMAIL, '--limit', '0'], /--limit must be a whole number from 1 to 200/],
        [['coins', 'show', '--email', EMAIL, '--limit', '201'], /--limit must be a whole number from 1 to 200/],
        [['coins', 'show'], /--email is required/],
        [['coins', 'forgive', '--email', EMAIL], /--reason is required/],
      ])
    },
    REFUSAL_TEST_TIMEOUT_MS,
  )

  it('grants: reads the wallet for the plan, posts the grant with its reason and expiry, prints the ledger row and the balances', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
    const until = `${tomorrow}T23:59:59.999Z`
    api.reply = (path) =>
      path.startsWith('/api/ops/coins?')
        ? success(wallet({ BONUS: 10 }))
        : success({
            entries: [entry('CHARGE', 'BONUS', 50, 'support #123')],
            balances: balances({ BONUS: 60 }, [{ type: 'BONUS', amount: 50, expiresAt: until }]),
          })
    const res = await api.ops([
      'coins',
      'grant',
      '--email',
      EMAIL,
      '--type',
      'bonus',
      '--amount',
      '50',
      '--reason',
      ' support #123 ',
      '--expires',
      tomorrow,
    ])
    expect(res.code, res.stderr).toBe(0)
    expect(api.seen).toEqual([
      {
        method: 'GET',
        path: `/api/ops/coins?email=${encodeURIComponent(EMAIL)}&limit=1`,
        authorization: `Bearer ${LOCAL_OPS_TOKEN}`,
        contentType: '',
        body: null,
      },
      {
        method: 'POST',
        path: '/api/ops/coins',
        authorization: `Bearer ${LOCAL_OPS_TOKEN}`,
        contentType: 'application/json',
        body: { email: EMAIL, type: 'BONUS', amount: 50, reason: 'support #123', expiresAt: tomorrow },
      },
    ])
    expect(res.stdout).toContain(`grant 50 BONUS to ${EMAIL} (user 2, has 10): a new lot expiring ${until}`)
    expect(res.stdout).toContain('reason: support #123 (shown to the reader in their coin history')
    expect(res.stdout).toContain(`granted 50 BONUS to ${EMAIL}`)
    expect(res.stdout).toMatch(/CHARGE\s+BONUS\s+ADMIN\s+50\s+77\s+support #123/)
    expect(res.stdout).toContain('balances: BONUS 60, FREE_COIN 0, COIN 0 (spendable 60); MILEAGE 0')
    expect(res.stdout).toContain(`expires ${tomorrow} 23:59 UTC: 50 BONUS`)
  })

  it('deducts (CANCEL rows); a short balance is refused with the line naming what can be deducted, the change never sent', async () => {
    api.reply = (path) =>
      path.startsWith('/api/ops/coins?')
        ? success(wallet({ COIN: 30 }))
        : success({ entries: [entry('CANCEL', 'COIN', -20, 'double charge')], balances: balances({ COIN: 10 }) })
    const ok = await api.ops(['coins', 'deduct', '--email', EMAIL, '--type', 'COIN', '--amount', '20', '--reason', 'double charge'])
    expect(ok.code, ok.stderr).toBe(0)
    expect(api.seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      `GET /api/ops/coins?email=reader%40example.com&limit=1`,
      'POST /api/ops/coins',
    ])
    expect(api.seen[1]!.body).toEqual({ email: EMAIL, type: 'COIN', amount: -20, reason: 'double charge' })
    expect(ok.stdout).toContain(`deducted 20 COIN from ${EMAIL}`)
    expect(ok.stdout).toMatch(/CANCEL\s+COIN\s+ADMIN\s+-20/)

    api.seen = []
    const short = await api.ops(['coins', 'deduct', '--email', EMAIL, '--type', 'COIN', '--amount', '31', '--reason', 'r'])
    expect(short.code).toBe(1)
    expect(short.stderr.trim()).toBe(`ops: COIN_INSUFFICIENT: ${EMAIL} has 30 COIN that can be deducted, less than 31; nothing changed`)
    expect(api.seen.map((s) => s.method)).toEqual(['GET'])

    // spent between the read and the deduction: the API's refusal, told with the balance read again
    let reads = 0
    api.seen = []
    api.reply = (path) =>
      path.startsWith('/api/ops/coins?')
        ? success(wallet({ MILEAGE: ++reads === 1 ? 40 : 12 }))
        : error(402, 'MILEAGE_INSUFFICIENT', 'Pas assez de points.')
    const raced = await api.ops(['coins', 'deduct', '--email', EMAIL, '--type', 'MILEAGE', '--amount', '40', '--reason', 'r'])
    expect(raced.code).toBe(1)
    expect(raced.stderr.trim()).toBe(
      `ops: MILEAGE_INSUFFICIENT: ${EMAIL} has 12 MILEAGE that can be deducted, less than 40; nothing changed`,
    )
    expect(api.seen.map((s) => s.method)).toEqual(['GET', 'POST', 'GET'])
  })

  it('an unknown e-mail is one line from the API, nothing changed', async () => {
    api.reply = () => error(404, 'NOT_FOUND_USER', 'Compte introuvable.')
    const res = await api.ops(['coins', 'grant', '--email', 'ghost@example.com', '--type', 'COIN', '--amount', '1', '--reason', 'r'])
    expect(res.code).toBe(1)
    expect(res.stderr.trim()).toMatch(
      /^ops: NOT_FOUND_USER \(HTTP 404\) from GET \/api\/ops\/coins\?email=ghost%40example.com&limit=1: Compte introuvable\.$/,
    )
    expect(api.seen.map((s) => s.method)).toEqual(['GET'])
  })

  it('shows balances, lots in spend order, the last ledger rows and the invariant; a broken invariant exits 1', async () => {
    const lots = [
      {
        id: 5,
        type: 'BONUS',
        amount: 50,
        remaining: 50,
        expiresAt: '2020-01-01T00:00:00.000Z',
        source: 'ADMIN',
        ref: null,
        createdAt: '2019-12-01T00:00:00.000Z',
      },
      {
        id: 3,
        type: 'COIN',
        amount: 100,
        remaining: 70,
        expiresAt: null,
        source: 'PAYMENT',
        ref: 'pay_1',
        createdAt: '2026-11-01T09:30:00.000Z',
      },
    ]
    const entries = [entry('CHARGE', 'BONUS', 50, 'support #123'), { ...entry('USE', 'COIN', -30, 'episode'), id: 900, source: 'PAYMENT' }]
    api.reply = () => success(wallet({ COIN: 70 }, { lots, entries, wallet: { lots: 120, ledger: 120, minRemaining: 50 } }))
    const res = await api.ops(['coins', 'show', '--email', EMAIL, '--limit', '2'])
    expect(res.code, res.stderr).toBe(0)
    expect(api.seen.map((s) => `${s.method} ${s.path}`)).toEqual(['GET /api/ops/coins?email=reader%40example.com&limit=2'])
    const out = res.stdout
    expect(out).toContain(`${EMAIL} (user 2)`)
    expect(out).toContain('lots (2), in spend order:')
    expect(out).toMatch(/5\s+BONUS\s+50\s+50\s+2020-01-01 00:00 UTC \(expired\)\s+ADMIN/)
    expect(out).toMatch(/3\s+COIN\s+100\s+70\s+never\s+PAYMENT\s+pay_1\s+2026-11-01 09:30/)
    expect(out).toContain('last 2 ledger rows, newest first:')
    expect(out).toContain('invariant: Σ lots remaining 120 = Σ ledger 120 ✓')

    api.reply = () => success(wallet({}, { wallet: { lots: 120, ledger: 119, minRemaining: 0 } }))
    const broken = await api.ops(['coins', 'show', '--email', EMAIL])
    expect(broken.code).toBe(1)
    expect(broken.stdout).toContain('invariant: Σ lots remaining 120 ≠ Σ ledger 119  ✗ INCONSISTENT')
  })

  it('issue 34 (3): shows open debts; forgive lists them in its plan and posts the reason; with none, nothing is sent', async () => {
    const debts = [{ paymentId: 'pay_old', reason: 'DISPUTE', debt: 8, createdAt: '2026-11-20T10:00:00.000Z' }]
    api.reply = (path) => (path.startsWith('/api/ops/coins/debt') ? success({ forgiven: 8 }) : success({ ...wallet({ COIN: 0 }), debts }))
    const show = await api.ops(['coins', 'show', '--email', EMAIL])
    expect(show.code, show.stderr).toBe(0)
    expect(show.stdout).toContain('open debts (8 coins), settled first by the next top-up:')
    expect(show.stdout).toMatch(/pay_old\s+DISPUTE\s+8\s+2026-11-20 10:00/)
    api.reset()
    api.reply = (path) => (path.startsWith('/api/ops/coins/debt') ? success({ forgiven: 8 }) : success({ ...wallet({ COIN: 0 }), debts }))
    const res = await api.ops(['coins', 'forgive', '--email', EMAIL, '--reason', 'goodwill, ticket 42'])
    expect(res.code, res.stderr).toBe(0)
    expect(res.stdout).toContain(`forgive 8 coins owed by ${EMAIL} (user 2) on 1 reversed payment(s)`)
    expect(res.stdout).toContain(`forgave 8 coins owed by ${EMAIL}`)
    expect(api.seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      'GET /api/ops/coins?email=reader%40example.com&limit=1',
      'POST /api/ops/coins/debt/forgive',
    ])
    expect(api.seen[1]!.body).toEqual({ email: EMAIL, reason: 'goodwill, ticket 42' })
    api.reset()
    api.reply = () => success({ ...wallet({ COIN: 0 }), debts: [] })
    const none = await api.ops(['coins', 'forgive', '--email', EMAIL, '--reason', 'goodwill'])
    expect(none.code, none.stderr).toBe(0)
    expect(none.stdout).toContain('owes nothing: nothing sent')
    expect(api.seen.map((s) => s.method)).toEqual(['GET'])
  })

  it('against an address that is not local: the plan, then the grant only with --yes', async () => {
    const refused = await api.ops(['coins', 'grant', '--email', EMAIL, '--type', 'COIN', '--amount', '5', '--reason', 'r'], {
      OPS_URL: 'http://ops.invalid',
      OPS_TOKEN: 't',
    })
    expect(refused.code).toBe(1) // the wallet read cannot reach ops.invalid: nothing was sent anywhere
    expect(refused.stderr).toMatch(/cannot reach http:\/\/ops.invalid/)
    if (!outward) return // no address but loopback on this machine
    api.reply = (path) =>
      path.startsWith('/api/ops/coins?')
        ? success(wallet({ COIN: 1 }))
        : success({ entries: [entry('CHARGE', 'COIN', 5, 'r')], balances: balances({ COIN: 6 }) })
    const url = `http://${outward}:${api.port}`
    const plan = await api.ops(['coins', 'grant', '--email', EMAIL, '--type', 'COIN', '--amount', '5', '--reason', 'r'], {
      OPS_URL: url,
      OPS_TOKEN: 'deployed',
    })
    expect(plan.code).toBe(2)
    expect(plan.stdout).toContain(`plan (${url}):`)
    expect(plan.stdout).toContain(`grant 5 COIN to ${EMAIL} (user 2, has 1)`)
    expect(plan.stderr.split('\n')[0]).toBe(`ops: ${url} is not a local run: nothing sent; add --yes to do it`)
    expect(api.seen.map((s) => s.method)).toEqual(['GET']) // the read only
    api.seen = []
    const sent = await api.ops(['coins', 'grant', '--email', EMAIL, '--type', 'COIN', '--amount', '5', '--reason', 'r', '--yes'], {
      OPS_URL: url,
      OPS_TOKEN: 'deployed',
    })
    expect(sent.code, sent.stderr).toBe(0)
    expect(api.seen).toMatchObject([{ method: 'GET' }, { method: 'POST', path: '/api/ops/coins', authorization: 'Bearer deployed' }])
  })
})

describe('npm run ops -- import', () => {
  const ID = 9
  const keys = () => importKeys(ID, SeriesManifest.parse(JSON.parse(readFileSync(join(sample, 'series.json'), 'utf8'))))
  const replies = (refuseUpload?: number) => {
    let puts = 0
    return (path: string) => {
      if (path === '/api/ops/series/import') return json(201, { result: 'SUCCESS', data: { seriesId: ID, keys: keys() } })
      if (path.startsWith('/api/ops/media/')) {
        if (++puts === refuseUpload) return error(400, 'INVALID_PARAMETER', 'Paramètre invalide.')
        return success({ key: path.slice('/api/ops/media/'.length), bytes: 1 })
      }
      if (path === `/api/ops/series/${ID}/import/finish`) return success({ seriesId: ID, episodes: 2, slices: 4, objects: 16 })
      if (path === `/api/ops/series/${ID}/import/abort`) return success({ seriesId: ID, objects: 4 })
      return error(404, 'NOT_EXIST', 'Introuvable.')
    }
  }

  it('prints the plan, starts the import, uploads every rendition as WebP, finishes it and prints the series id', async () => {
    api.reply = replies()
    const res = await api.ops(['import', '--dir', sample, '--reason', 'new series'])
    expect(res.code, res.stderr).toBe(0)
    expect(res.stdout).toContain('import "Le Phare des Brumes" (IMAGE, FANTASY, SCHEDULED)')
    expect(res.stdout).toContain('2 episodes, 4 slices')
    expect(res.stdout).toMatch(/upload 16 WebP objects rendered here from 5 images \(\d+ KiB of source files\)/)
    expect(res.stdout).toContain(`series id ${ID}`)
    const [start, ...rest] = api.seen
    expect(start).toMatchObject({ method: 'POST', path: '/api/ops/series/import', authorization: `Bearer ${LOCAL_OPS_TOKEN}` })
    const body = start!.body as { manifest: { title: string; episodes: unknown[] }; sizes: unknown; reason: string }
    expect(body.manifest.title).toBe('Le Phare des Brumes')
    expect(body.reason).toBe('new series')
    expect(body.sizes).toEqual({
      cover: { width: 480, height: 640 },
      slices: [
        [
          { width: 800, height: 1000 },
          { width: 800, height: 1300 },
        ],
        [
          { width: 800, height: 1000 },
          { width: 800, height: 1300 },
        ],
      ],
    })
    const puts = rest.slice(0, -1)
    expect(puts.map((p) => p.path.slice('/api/ops/media/'.length)).sort()).toEqual([...keys()].sort())
    for (const p of puts) {
      expect(p).toMatchObject({ method: 'PUT', contentType: 'image/webp', body: { webp: true } })
      expect((p.body as { bytes: number }).bytes).toBeGreaterThan(100)
    }
    expect(rest.at(-1)).toMatchObject({ method: 'POST', path: `/api/ops/series/${ID}/import/finish`, body: { reason: 'new series' } })
  }, 60_000)

  it('aborts when an upload is refused half-way: no finish, the abort sent, exit 1 with the refusal', async () => {
    api.reply = replies(5)
    const res = await api.ops(['import', '--dir', sample, '--reason', 'new series'])
    expect(res.code).toBe(1)
    expect(res.stderr).toMatch(/ops: INVALID_PARAMETER \(HTTP 400\) from PUT \/api\/ops\/media\//)
    expect(res.stderr).toContain(`removing series ${ID} and its objects`)
    const paths = api.seen.map((s) => s.path)
    expect(paths).not.toContain(`/api/ops/series/${ID}/import/finish`)
    expect(paths.at(-1)).toBe(`/api/ops/series/${ID}/import/abort`)
    expect(api.seen.at(-1)!.body).toEqual({ reason: 'new series (import failed)' })
    expect(res.stdout).not.toMatch(/series id/)
  }, 60_000)

  it('refuses a bad folder or a broken image before sending anything; a non-local address gets the plan only', async () => {
    await expectRefusedUnsent(api, [
      [['import', '--reason', 'r'], /--dir is required/],
      [['import', '--dir', sample], /--reason is required/],
    ])
    const broken = mkdtempSync(join(tmpdir(), 'ops-import-broken-'))
    await writeSampleSeries(broken)
    writeFileSync(join(broken, 'ep2-1.png'), 'not an image')
    const res = await api.ops(['import', '--dir', broken, '--reason', 'r'])
    expect(res.code).toBe(1)
    expect(res.stderr).toMatch(/episodes\.1\.images\.0: .*ep2-1\.png is not an image sharp can read/)
    rmSync(broken, { recursive: true, force: true })

    const remote = await api.ops(['import', '--dir', sample, '--reason', 'r'], { OPS_URL: 'https://fr.example.com', OPS_TOKEN: 't' })
    expect(remote.code).toBe(2)
    expect(remote.stdout).toContain('plan (https://fr.example.com):')
    expect(remote.stdout).toContain('2 episodes, 4 slices')
    expect(remote.stderr.split('\n')[0]).toBe('ops: https://fr.example.com is not a local run: nothing sent; add --yes to do it')
    expect(api.seen).toEqual([])
  }, 60_000)
})

describe('npm run ops -- reseed', () => {
  it('is refused in one line (exit 2) when OPS_URL is not a local address, and says so in its help', async () => {
    const res = await api.ops(['reseed'], { OPS_URL: 'https://fr.example.com' })
    expect(res.code).toBe(2)
    expect(res.stderr.trim()).toBe(
      'ops: reseed only wipes the local demo state; OPS_URL is https://fr.example.com, not a local run: nothing done',
    )
    const help = await api.ops(['reseed', '--help'])
    expect(help.stdout).toMatch(/Local only: with OPS_URL set to an address that is not local it is refused \(exit 2\)/)
  })
})
