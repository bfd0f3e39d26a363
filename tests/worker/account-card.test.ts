/**
 * The account card in a reader's object (issue 38 point 6; src/features/age/account-card.server.ts) on real workerd:
 * the session check of a signed-in request reads the reader's flags from their object, D1 once for a run of checks;
 * a change made through a route shows on the next request; one written in D1 without the drop (a drop that failed)
 * shows once the card is older than an access token's life; 40 checks at once keep one card. `GET /user/me` answers
 * from the card with no D1 query, and shows at once what the reader changed through a route.
 */
import { describe, expect, it } from 'vitest'
import { db, expectError, get, newReader, send } from './purchase.helpers.ts'
import { execInReader } from './reader.helpers.ts'

const mature = '/api/v1/contents?tab=MATURE'
const loadedAt = async (userId: number) =>
  ((await execInReader(userId, `SELECT loaded_at AS at FROM account`))[0] as { at: string } | undefined)?.at

/** An adult reader (checked today, adult series shown) whose object has not been called. */
async function adult() {
  const reader = await newReader()
  await db.run(
    `UPDATE users SET birthed_at = '1990-05-01', is_adult = 1, adult_verified_at = ?, show_adult = 1 WHERE id = ?`,
    new Date().toISOString(),
    reader.id,
  )
  return reader
}

describe('the account card', () => {
  it('is read from D1 by the first check and kept; a switch through its route shows at once; a D1 write without the drop, once the card is older than an access token', async () => {
    const reader = await adult()
    expect(await loadedAt(reader.id)).toBeUndefined()
    const first = await get(reader, mature)
    expect(first.status).toBe(200)
    const at = await loadedAt(reader.id)
    expect(at).toEqual(expect.stringMatching(/^\d{4}-/))
    // the next checks keep the card: no D1 read for the session
    expect((await get(reader, mature)).status).toBe(200)
    expect(await loadedAt(reader.id)).toBe(at)

    // PUT /user/adult/toggle/false: D1 written, the card dropped, the next check reads the switch
    const off = await send(reader, 'PUT', '/api/v1/user/adult/toggle/false')
    expect(off!.status).toBe(200)
    await expectError(await get(reader, mature), 403, 'ADULT_ONLY_CONTENTS')

    // written in D1 only (as if the drop after it failed): the kept card still says off…
    await db.run(`UPDATE users SET show_adult = 1 WHERE id = ?`, reader.id)
    await expectError(await get(reader, mature), 403, 'ADULT_ONLY_CONTENTS')
    // …until it is older than an access token's life (15 minutes)
    await execInReader(reader.id, `UPDATE account SET loaded_at = ?`, new Date(Date.now() - 15 * 60_000 - 1_000).toISOString())
    expect((await get(reader, mature)).status).toBe(200)
  })

  it('40 checks at once with no card all pass and keep one; a withdrawal written in D1 only is refused once the card is old', async () => {
    const reader = await adult()
    const answers = await Promise.all(Array.from({ length: 40 }, () => get(reader, mature)))
    expect(answers.map((r) => r.status)).toEqual(Array(40).fill(200))
    expect(await execInReader(reader.id, `SELECT count(*) AS n FROM account`)).toEqual([{ n: 1 }])

    await db.run(`UPDATE users SET deleted_at = ? WHERE id = ?`, new Date().toISOString(), reader.id)
    await execInReader(reader.id, `UPDATE account SET loaded_at = ?`, new Date(Date.now() - 16 * 60_000).toISOString())
    await expectError(await get(reader, '/api/v1/library/favorite'), 401, 'NEED_TO_REFRESH')
  })

  it('answers GET /user/me from the card, no D1 query; a nickname, the e-mail consent and push settings changed through their routes show at once', async () => {
    const reader = await adult()
    const me = async () => {
      const res = await get(reader, '/api/v1/user/me')
      expect(res.status).toBe(200)
      return { d1: res.headers.get('x-d1-queries'), user: ((await res.json()) as { data: { user: Record<string, unknown> } }).data.user }
    }
    expect((await me()).d1).toBeNull() // no D1 query: the header is left out
    const nickname = `Carte${reader.id}`
    expect((await send(reader, 'PUT', '/api/v1/user', JSON.stringify({ action: 'PROFILE', profileRequest: { nickname } })))!.status).toBe(
      200,
    )
    expect((await me()).user.nickname).toBe(nickname)
    expect(
      (await send(reader, 'PUT', '/api/v1/user', JSON.stringify({ action: 'MAIL', agreeMailRequest: { isAgreeMail: true } })))!.status,
    ).toBe(200)
    expect((await me()).user.isAgreeMail).toBe(true)
    const push = { isAgreePush: true, isAgreePushNight: true, isAgreePushFreetime: false, isAgreePushContents: true }
    expect((await send(reader, 'PUT', '/api/v1/app/push', JSON.stringify(push)))!.status).toBe(200)
    const after = await me()
    expect(after.user.agreePush).toEqual(push)
    expect(after.d1).toBeNull()
    // written in D1 only: the kept card answers, so the D1 row is not what the reader sees
    await db.run(`UPDATE users SET nickname = 'ailleurs' WHERE id = ?`, reader.id)
    expect((await me()).user.nickname).toBe(nickname)
  })

  it('answers GET /user/push from the card, no D1 query; a change through PUT /app/push shows at once, the app switch too', async () => {
    const reader = await adult()
    const settings = async () => {
      const res = await get(reader, '/api/v1/user/push')
      expect(res.status).toBe(200)
      return { d1: res.headers.get('x-d1-queries'), data: ((await res.json()) as { data: Record<string, boolean> }).data }
    }
    const before = await settings()
    expect(before.data).toMatchObject({ isAppPush: false, isAgreePush: false, isAgreeMail: false })
    expect(before.d1).toBeNull()
    const push = { isAppPush: true, isAgreePush: true, isAgreePushNight: false, isAgreePushFreetime: true, isAgreePushContents: true }
    expect((await send(reader, 'PUT', '/api/v1/app/push', JSON.stringify(push)))!.status).toBe(200)
    const after = await settings()
    expect(after.data).toEqual({ ...push, isAgreeMail: false })
    expect(after.d1).toBeNull()
    // a card kept by an earlier version, without the app switch, is read again rather than answered as "off"
    await execInReader(reader.id, `UPDATE account SET card = json_remove(card, '$.appPush')`)
    expect((await settings()).data.isAppPush).toBe(true)
  })
})
