/**
 * The operator's daily routes (docs/API.md "Operator API": `/api/ops/qna`, `/api/ops/notices`, `/api/ops/coupons`;
 * `npm run ops -- support|notice|coupon …`) on the real edge app and D1: off without OPS_TOKEN, 401 without the
 * right token, what each does as a reader sees it (the answer on /api/v1/qna with its mail and alarm, a notice in the
 * list and the count, a coupon redeemed and reported), the operator's reason in the JSON log line, and 1,000
 * generated bad bodies per changing route that answer no 5xx and change nothing.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest'
import fc from 'fast-check'
import { env, withEnv } from 'cloudflare:workers'
import { seedDemo } from './seed.ts'
import { OPS, expectBadBodiesRefused, auditLines, logSpy } from './ops.helpers.ts'
import { askWithImage, call, db, expectError, newReader, newSeries, PNG, read } from './comment.helpers.ts'
import { listNotices, noticeCount, noticeDetail } from '../../src/features/notice/notice.server.ts'
import { NOTICE_UNPUBLISHED_AT } from '../../src/features/notice/notice.ts'
import { alarmsIn } from './reader.helpers.ts'

beforeAll(async () => {
  await seedDemo(env.DB)
})

/** Everything the operator routes could write. */
const snapshot = () =>
  db.first(`SELECT (SELECT count(*) FROM notices) AS notices, (SELECT group_concat(title || is_pinned || published_at) FROM notices) AS noticeRows,
    (SELECT count(*) FROM coupons) AS coupons, (SELECT group_concat(coalesce(expires_at, '-')) FROM coupons) AS expiries,
    (SELECT group_concat(status) FROM qnas) AS qnas, (SELECT count(*) FROM alarm_deliveries) AS alarms, (SELECT count(*) FROM outbox) AS mails`)

const ROUTES: [string, string][] = [
  ['GET', '/api/ops/qna'],
  ['GET', '/api/ops/qna/1'],
  ['GET', '/api/ops/qna/1/image/1'],
  ['POST', '/api/ops/qna/1/answer'],
  ['POST', '/api/ops/notices'],
  ['POST', '/api/ops/notices/1'],
  ['POST', '/api/ops/notices/1/pin'],
  ['POST', '/api/ops/notices/1/unpublish'],
  ['POST', '/api/ops/coupons'],
  ['POST', '/api/ops/coupons/1/expire'],
  ['GET', '/api/ops/coupons'],
]

describe('operator API: support, notices, coupons', () => {
  it('every new route is 404 NOT_EXIST without OPS_TOKEN and 401 NOT_LOGIN_USER without the right token, changing nothing', async () => {
    const before = await snapshot()
    const body = { reason: 'x', pinned: true, answer: 'x', title: 't', body: 'b' }
    for (const [method, path] of ROUTES) {
      const send = (reader: typeof OPS | null) => call(reader, method, path, method === 'POST' ? body : undefined)
      for (const OPS_TOKEN of ['', undefined]) {
        await expectError((await withEnv({ ...env, OPS_TOKEN }, () => send(OPS))) as Response, 404, 'NOT_EXIST')
      }
      await expectError(await send(null), 401, 'NOT_LOGIN_USER')
      await expectError(await send({ headers: { authorization: 'Bearer wrong' } }), 401, 'NOT_LOGIN_USER')
    }
    expect(await snapshot()).toEqual(before)
  })

  it('support: lists waiting questions oldest first, shows one with its image, answers it (COMPLETED on /qna, one mail, one alarm)', async () => {
    const reader = await newReader()
    const first = await askWithImage(reader, {
      category: 'PAYMENT',
      title: 'Paiement double',
      text: 'Débité deux fois, capture jointe.',
      file: 'capture.png',
    })
    const second = (await read(await call(reader, 'POST', '/api/v1/qna', { category: 'ETC', title: 'Autre', text: 'Question' }))).data.id

    const queue = (await read(await call(OPS, 'GET', '/api/ops/qna'))).data.items as { id: number; status: string; email: string }[]
    const mine = queue.filter((q) => q.id === first || q.id === second)
    expect(mine.map((q) => q.id)).toEqual([first, second])
    expect(queue.every((q) => q.status === 'WAIT')).toBe(true)
    expect(mine[0]).toMatchObject({ title: 'Paiement double', category: 'PAYMENT', email: reader.email, images: 1 })

    const shown = await call(OPS, 'GET', `/api/ops/qna/${first}`)
    expect(shown.headers.get('cache-control')).toBe('no-store')
    expect((await read(shown)).data).toMatchObject({
      id: first,
      text: 'Débité deux fois, capture jointe.',
      userId: reader.id,
      imageUrls: [`/api/ops/qna/${first}/image/1`],
    })
    const image = await call(OPS, 'GET', `/api/ops/qna/${first}/image/1`)
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toBe('image/png')
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(PNG)
    await expectError(await call(OPS, 'GET', `/api/ops/qna/${first}/image/2`), 404, 'NOT_EXIST')
    await expectError(await call(OPS, 'GET', `/api/ops/qna/${first}/image/4`), 400, 'INVALID_PARAMETER')
    await expectError(await call(OPS, 'GET', '/api/ops/qna/999999'), 404, 'NOT_EXIST')

    logSpy()
    const answered = await call(OPS, 'POST', `/api/ops/qna/${first}/answer`, {
      answer: ' Nous vous avons remboursé. ',
      reason: 'ticket 42',
    })
    expect(answered.status).toBe(200)
    expect((await read(answered)).data).toMatchObject({ id: first, status: 'COMPLETED', answer: 'Nous vous avons remboursé.' })
    expect(auditLines()).toEqual([expect.objectContaining({ ops: 'qna.answer', qnaId: first, reason: 'ticket 42', edition: 'fr' })])

    const mineNow = (await read(await call(reader, 'GET', '/api/v1/qna'))).data.items as { id: number; status: string; answer: string }[]
    expect(mineNow.find((q) => q.id === first)).toMatchObject({ status: 'COMPLETED', answer: 'Nous vous avons remboursé.' })
    expect(mineNow.find((q) => q.id === second)).toMatchObject({ status: 'WAIT', answer: null })
    const mails = await db.all<{ template: string }>(`SELECT template FROM outbox WHERE recipient = ? ORDER BY id`, reader.email)
    expect(mails.map((m) => m.template)).toEqual(['qna-received', 'qna-received', 'qna-answered'])
    expect((await alarmsIn(reader.id)).map(({ kind, link }) => ({ kind, link }))).toEqual([{ kind: 'QNA', link: '/qna' }])
    const queueAfter = (await read(await call(OPS, 'GET', '/api/ops/qna'))).data.items as { id: number }[]
    expect(queueAfter.map((q) => q.id)).not.toContain(first)

    // answered already, unknown, empty answer: refused, nothing changes
    const before = await snapshot()
    await expectError(await call(OPS, 'POST', `/api/ops/qna/${first}/answer`, { answer: 'encore', reason: 'r' }), 404, 'NOT_EXIST')
    await expectError(await call(OPS, 'POST', '/api/ops/qna/999999/answer', { answer: 'x', reason: 'r' }), 404, 'NOT_EXIST')
    await expectError(
      await call(OPS, 'POST', `/api/ops/qna/${second}/answer`, { answer: ' \u0000 ', reason: 'r' }),
      400,
      'INVALID_PARAMETER',
    )
    await expectError(await call(OPS, 'POST', `/api/ops/qna/${second}/answer`, { answer: 'Oui' }), 400, 'INVALID_PARAMETER')
    expect(await snapshot()).toEqual(before)
  })

  it('notices: publish (the list and the cached count follow at once), edit, pin, schedule, unpublish', async () => {
    const now = () => new Date()
    const count0 = await noticeCount(db, env.CACHE, now()) // primes the 5-minute KV cache
    logSpy()
    const res = await call(OPS, 'POST', '/api/ops/notices', {
      title: ' Maintenance ',
      body: 'Ce soir\r\n22 h.',
      category: 'MAINTENANCE',
      reason: 'planned',
    })
    expect(res.status).toBe(201)
    const notice = (await read(res)).data
    expect(notice).toMatchObject({
      title: 'Maintenance',
      body: 'Ce soir\n22 h.',
      category: 'MAINTENANCE',
      seriesId: null,
      isPinned: false,
      state: 'PUBLISHED',
    })
    expect(await noticeCount(db, env.CACHE, now())).toBe(count0 + 1)
    const listed = async () => (await listNotices(db, 1, now(), 200)).items
    expect((await listed()).find((n) => n.id === notice.id)).toMatchObject({ title: 'Maintenance', isPinned: false })

    const edited = (await read(await call(OPS, 'POST', `/api/ops/notices/${notice.id}`, { title: 'Maintenance ce soir', reason: 'typo' })))
      .data
    expect(edited).toMatchObject({ title: 'Maintenance ce soir', body: 'Ce soir\n22 h.' })
    const pinned = (await read(await call(OPS, 'POST', `/api/ops/notices/${notice.id}/pin`, { pinned: true, reason: 'important' }))).data
    expect(pinned.isPinned).toBe(true)
    expect((await listed())[0]).toMatchObject({ id: notice.id, title: 'Maintenance ce soir', isPinned: true })

    const later = new Date(Date.now() + 86_400_000).toISOString()
    const scheduled = (
      await read(await call(OPS, 'POST', '/api/ops/notices', { title: 'Demain', body: 'b', publishedAt: later, reason: 'r' }))
    ).data
    expect(scheduled).toMatchObject({ state: 'SCHEDULED', publishedAt: later })
    expect((await listed()).map((n) => n.id)).not.toContain(scheduled.id)
    expect(await noticeCount(db, env.CACHE, now())).toBe(count0 + 1)

    const down = (await read(await call(OPS, 'POST', `/api/ops/notices/${notice.id}/unpublish`, { reason: 'done' }))).data
    expect(down).toMatchObject({ state: 'UNPUBLISHED', publishedAt: NOTICE_UNPUBLISHED_AT })
    expect((await listed()).map((n) => n.id)).not.toContain(notice.id)
    expect(await noticeDetail(db, notice.id, now(), true)).toBeNull()
    expect(await noticeCount(db, env.CACHE, now())).toBe(count0)
    expect(auditLines().map((l) => [l.ops, l.noticeId, l.reason])).toEqual([
      ['notice.publish', notice.id, 'planned'],
      ['notice.edit', notice.id, 'typo'],
      ['notice.pin', notice.id, 'important'],
      ['notice.publish', scheduled.id, 'r'],
      ['notice.unpublish', notice.id, 'done'],
    ])

    // a series notice shows on its series page
    const { seriesId } = await newSeries({ episodes: 1 })
    const onSeries = (
      await read(await call(OPS, 'POST', '/api/ops/notices', { title: 'Pause', body: 'Une semaine', seriesId, reason: 'r' }))
    ).data
    const detail = (await read(await call(null, 'GET', `/api/v1/contents/${seriesId}`))).data
    expect(JSON.stringify(detail)).toContain(`"id":${onSeries.id}`)

    const before = await snapshot()
    await expectError(await call(OPS, 'POST', `/api/ops/notices/${notice.id}/unpublish`, { reason: 'again' }), 404, 'NOT_EXIST')
    await expectError(
      await call(OPS, 'POST', '/api/ops/notices', { title: 't', body: 'b', seriesId: 999999, reason: 'r' }),
      404,
      'NOT_EXIST',
    )
    await expectError(await call(OPS, 'POST', '/api/ops/notices/999999', { title: 't', reason: 'r' }), 404, 'NOT_EXIST')
    await expectError(await call(OPS, 'POST', '/api/ops/notices/999999/pin', { pinned: true, reason: 'r' }), 404, 'NOT_EXIST')
    for (const bad of [
      { title: 't', body: 'b' },
      { title: '', body: 'b', reason: 'r' },
      { title: 't', body: 'b', reason: 'r', category: 'SPAM' },
      { title: 't', body: 'b', reason: 'r', publishedAt: '2026-02-30' },
      { title: 't', body: 'b', reason: 'r', publishedAt: NOTICE_UNPUBLISHED_AT },
      { title: 't', body: 'b', reason: 'r', seriesId: 0 },
    ]) {
      await expectError(await call(OPS, 'POST', '/api/ops/notices', bad), 400, 'INVALID_PARAMETER')
    }
    await expectError(await call(OPS, 'POST', `/api/ops/notices/${notice.id}`, { reason: 'nothing' }), 400, 'INVALID_PARAMETER')
    await expectError(
      await call(OPS, 'POST', `/api/ops/notices/${notice.id}/pin`, { pinned: 'yes', reason: 'r' }),
      400,
      'INVALID_PARAMETER',
    )
    expect(await snapshot()).toEqual(before)
  })

  it('coupons: create by code (a reader redeems it, the report counts it), downloadable, expire, refusals', async () => {
    logSpy()
    const code = `OPS${Date.now().toString(36).toUpperCase()}`
    const res = await call(OPS, 'POST', '/api/ops/coupons', {
      code: code.toLowerCase(),
      title: 'Bienvenue',
      type: 'EXTRA_EARN',
      rewardType: 'COIN',
      rewardLotType: 'BONUS',
      rewardAmount: 5,
      expiresAt: '2099-01-31',
      platform: 'WEB',
      quantity: 2,
      reason: 'launch',
    })
    expect(res.status).toBe(201)
    const coupon = (await read(res)).data
    expect(coupon).toMatchObject({
      code,
      downloadable: false,
      expiresAt: '2099-01-31T23:59:59.999Z',
      stock: 2,
      usedCount: 0,
      received: 0,
      used: 0,
      state: 'LIVE',
      rewardLotType: 'BONUS',
    })
    const reader = await newReader()
    expect((await call(reader, 'POST', '/api/v1/coupon/code', { code })).status).toBe(200)
    // the counts come from the reader's coupon event (its object's outbox, then the queue)
    await vi.waitFor(
      async () => {
        const res = await call(OPS, 'GET', `/api/ops/coupons?id=${coupon.id}`)
        expect(res.headers.get('x-edition-time-zone')).toBe('Europe/Paris')
        const report = (await read(res)).data
        expect(report.items).toEqual([expect.objectContaining({ id: coupon.id, usedCount: 1, received: 1, used: 1 })])
        // and who used it, with when (issue 39 point 9)
        expect(report.readers).toEqual([
          { userId: reader.id, email: expect.stringContaining('@'), receivedAt: expect.any(String), redeemedAt: expect.any(String) },
        ])
      },
      { timeout: 10_000, interval: 50 },
    )
    const all = (await read(await call(OPS, 'GET', '/api/ops/coupons'))).data.items as { id: number }[]
    expect(all[0]!.id).toBe(coupon.id) // newest first

    const downloadable = (
      await read(
        await call(OPS, 'POST', '/api/ops/coupons', {
          downloadable: true,
          title: 'Recharge',
          type: 'DISCOUNT',
          rewardType: 'MILEAGE',
          rewardAmount: 100,
          minimumAmount: 1000,
          reason: 'promo',
        }),
      )
    ).data
    expect(downloadable).toMatchObject({ code: null, downloadable: true, minimumAmount: 1000, stock: null })
    const listed = (await read(await call(reader, 'GET', '/api/v1/coupon/download'))).data
    expect(JSON.stringify(listed)).toContain(`"id":${downloadable.id}`)

    const ended = (await read(await call(OPS, 'POST', `/api/ops/coupons/${coupon.id}/expire`, { reason: 'abuse' }))).data
    expect(ended.state).toBe('EXPIRED')
    await expectError(await call(await newReader(), 'POST', '/api/v1/coupon/code', { code }), 410, 'EXPIRED_COUPON')
    expect(auditLines().map((l) => [l.ops, l.couponId, l.reason])).toEqual([
      ['coupon.create', coupon.id, 'launch'],
      ['coupon.create', downloadable.id, 'promo'],
      ['coupon.expire', coupon.id, 'abuse'],
    ])

    const before = await snapshot()
    await expectError(await call(OPS, 'POST', `/api/ops/coupons/${coupon.id}/expire`, { reason: 'again' }), 410, 'EXPIRED_COUPON')
    await expectError(await call(OPS, 'POST', '/api/ops/coupons/999999/expire', { reason: 'r' }), 404, 'NOT_FOUND_COUPON')
    await expectError(await call(OPS, 'GET', '/api/ops/coupons?id=999999'), 404, 'NOT_FOUND_COUPON')
    const ok = { code: `${code}B`, title: 't', type: 'DISCOUNT', rewardType: 'COIN', rewardAmount: 1, reason: 'r' }
    const taken = await call(OPS, 'POST', '/api/ops/coupons', { ...ok, code: code.toLowerCase() })
    expect(taken.status).toBe(400)
    expect(await read(taken)).toMatchObject({ code: 'INVALID_PARAMETER', message: `coupon code ${code} exists already` })
    for (const bad of [
      { ...ok, reason: '' },
      { ...ok, code: undefined },
      { ...ok, downloadable: true },
      { ...ok, code: 'a b' },
      { ...ok, type: 'FREE' },
      { ...ok, rewardType: 'GOLD' },
      { ...ok, rewardAmount: 0 },
      { ...ok, rewardType: 'ROULETTE_TICKET', rewardAmount: 101 },
      { ...ok, rewardType: 'MILEAGE', rewardLotType: 'BONUS' },
      { ...ok, minimumAmount: 100 },
      { ...ok, expiresAt: '2001-01-01' },
      { ...ok, expiresAt: '2099-02-30' },
      { ...ok, startsAt: '2099-02-01', expiresAt: '2099-01-01' },
      { ...ok, platform: 'PC' },
      { ...ok, quantity: 0 },
      { ...ok, quantity: 2.5 },
    ]) {
      await expectError(await call(OPS, 'POST', '/api/ops/coupons', bad), 400, 'INVALID_PARAMETER')
    }
    expect(await snapshot()).toEqual(before)
  })

  it('1,000 generated bad bodies on each changing route: no 5xx, only catalogue codes, nothing changed', { timeout: 600_000 }, async () => {
    const reader = await newReader()
    const waiting = (await read(await call(reader, 'POST', '/api/v1/qna', { category: 'ETC', title: 'Fuzz', text: 'x' }))).data.id
    const notice = (await read(await call(OPS, 'POST', '/api/ops/notices', { title: 'Fuzz', body: 'x', reason: 'r' }))).data.id
    const coupon = (
      await read(
        await call(OPS, 'POST', '/api/ops/coupons', {
          downloadable: true,
          title: 'F',
          type: 'DISCOUNT',
          rewardType: 'COIN',
          rewardAmount: 1,
          reason: 'r',
        }),
      )
    ).data.id
    const before = await snapshot()
    const str = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ minLength: 200, maxLength: 400 }), fc.anything())
    const fields = {
      answer: str,
      title: str,
      body: str,
      category: fc.oneof(fc.constantFrom('NOTICE', 'EVENT'), str),
      seriesId: fc.oneof(fc.integer(), str),
      pinned: fc.oneof(fc.boolean(), str),
      publishedAt: fc.oneof(
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        str,
      ),
      code: fc.oneof(fc.stringMatching(/^[A-Z0-9]{1,10}$/), str),
      downloadable: fc.oneof(fc.boolean(), str),
      type: fc.oneof(fc.constantFrom('DISCOUNT', 'EXTRA_EARN'), str),
      rewardType: fc.oneof(fc.constantFrom('COIN', 'MILEAGE', 'ROULETTE_TICKET'), str),
      rewardAmount: fc.oneof(fc.integer(), str),
      quantity: fc.oneof(fc.integer(), str),
      expiresAt: fc.oneof(fc.constant('2099-01-01'), str),
    }
    await expectBadBodiesRefused(
      [
        `/api/ops/qna/${waiting}/answer`,
        '/api/ops/notices',
        `/api/ops/notices/${notice}`,
        `/api/ops/notices/${notice}/pin`,
        `/api/ops/notices/${notice}/unpublish`,
        '/api/ops/coupons',
        `/api/ops/coupons/${coupon}/expire`,
      ],
      fields,
    )
    expect(await snapshot()).toEqual(before)
  })
})
