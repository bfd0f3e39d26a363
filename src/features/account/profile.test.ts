import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { checkNickname, nicknameKey, NICKNAME_MAX, PutUserBody, refusalOf } from './profile.ts'

describe('nickname rule (spec §7 PUT /user PROFILE)', () => {
  it('keeps a nickname of 2 to 20 characters of any script, trimmed, spaces made one', () => {
    expect(checkNickname('  Zoé   la_Lectrice ', [], [])).toEqual({
      ok: true,
      nickname: 'Zoé la_Lectrice',
      key: nicknameKey('zoé la_lectrice'),
    })
    for (const n of ['ab', 'قارئ', 'よみびと', '독자', 'นักอ่าน', '讀者', 'a.b-c_d', 'x'.repeat(NICKNAME_MAX)])
      expect(checkNickname(n, [], []).ok, n).toBe(true)
  })

  it('refuses a length outside 2–20, characters outside the set and the comments’ prohibited words', () => {
    for (const n of ['', ' ', 'a', 'x'.repeat(NICKNAME_MAX + 1)]) expect(checkNickname(n, [], [])).toEqual({ ok: false, reason: 'LENGTH' })
    for (const n of ['<b>hi</b>', 'a@b', 'zoé!', 'ab\u202e', 'emoji😀', '.. ..'.replace(/\./g, '😀')])
      expect(checkNickname(n, [], []).ok, n).toBe(false)
    expect(checkNickname('<b>hi</b>', [], [])).toEqual({ ok: false, reason: 'CHARS' })
    expect(checkNickname('Roi-des-ARNAQUES', ['arnaque'], [])).toEqual({ ok: false, reason: 'BANNED', word: 'arnaque' })
  })

  it('folds case in every script, so ZOÉ and zoé are one nickname', () => {
    expect(nicknameKey('ZOÉ')).toBe(nicknameKey('zoé'))
    expect(nicknameKey('ΣΟΦΊΑ')).toBe(nicknameKey('σοφία'))
    expect(nicknameKey('Ｚｏé')).toBe(nicknameKey('zoé')) // full-width letters (NFKC)
  })

  it('issue 34 (6): a lookalike of another nickname has its key; invisible and blank ones are refused', () => {
    const key = nicknameKey('lecteur')
    expect(nicknameKey('l\u0435cteur')).toBe(key) // Cyrillic е
    expect(nicknameKey('ＬＥＣＴＥＵＲ')).toBe(key)
    expect(nicknameKey('1ecteur')).toBe(key) // digit one for l (Unicode's confusables)
    expect(nicknameKey('Admin')).toBe(nicknameKey('Adrnin'))
    for (const n of ['lecteur\u034f', 'lec\u00adteur', 'lec\u200bteur', '\u3164\u3164', 'ab\u2060cd'])
      expect(checkNickname(n, [], []), JSON.stringify(n)).toEqual({ ok: false, reason: 'CHARS' })
    // scripts of every edition keep distinct names apart
    const keys = ['독자', '読者', 'นักอ่าน', 'قارئ', '讀者', 'lecteur', 'Leser'].map(nicknameKey)
    expect(new Set(keys).size).toBe(keys.length)
  })

  it('issue 34 (6): names of the service and its staff are reserved, whatever their case, accents or lookalike letters', () => {
    const reserved = ['admin', 'équipe', 'bomtoon', '운영자']
    for (const n of ['Admin', 'ADMIN_2', 'Аdmin', 'Ａｄｍｉｎ', 'Equipe Bomtoon', 'Équipe', 'le-bomtoon', '운영자님'])
      expect(checkNickname(n, [], reserved), n).toEqual({ ok: false, reason: 'RESERVED' })
    expect(checkNickname('Lectrice', [], reserved).ok).toBe(true)
  })

  it('a kept nickname always fits the rule again and keeps its key', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (raw) => {
        const check = checkNickname(raw, [], [])
        if (!check.ok) return
        const length = [...check.nickname].length
        expect(length).toBeGreaterThanOrEqual(2)
        expect(length).toBeLessThanOrEqual(NICKNAME_MAX)
        expect(checkNickname(check.nickname, [], [])).toEqual(check)
      }),
      { numRuns: 1000 },
    )
  })

  it('reads a page’s refusal back only from known reasons', () => {
    expect(refusalOf('TAKEN', null)).toEqual({ reason: 'TAKEN' })
    expect(refusalOf('BANNED', 'arnaque')).toEqual({ reason: 'BANNED', word: 'arnaque' })
    expect(refusalOf('BANNED', null)).toBeNull()
    expect(refusalOf('toString', null)).toBeNull()
  })

  it('PUT /user takes one of three actions with its own request', () => {
    expect(PutUserBody.safeParse({ action: 'PROFILE', profileRequest: { nickname: 'Zoé' } }).success).toBe(true)
    expect(PutUserBody.safeParse({ action: 'MAIL', agreeMailRequest: { isAgreeMail: true }, refreshToken: 'x' }).success).toBe(true)
    expect(PutUserBody.safeParse({ action: 'ADULT', verifyAdultRequest: {} }).success).toBe(true)
    expect(PutUserBody.safeParse({ action: 'PROFILE', agreeMailRequest: { isAgreeMail: true } }).success).toBe(false)
    expect(PutUserBody.safeParse({ action: 'OTHER' }).success).toBe(false)
  })
})
