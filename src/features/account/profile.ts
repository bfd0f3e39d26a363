/**
 * The reader's profile (spec §3 User.nickname, §7 PUT /user with action PROFILE, ADULT or MAIL): the nickname
 * rule and the request shapes. Pure: the prohibited words are passed in (spec §5, the comments' list and rule).
 */
import { z } from 'zod'
import type { MessageKey } from '../../lib/i18n/keys.ts'
import { VerifyAdultBody } from '../age/age.schema.ts'
import { bannedWordIn } from '../../lib/text/banned.ts'
import { foldBare, foldText, withoutInvisible } from '../../lib/text/fold.ts'

/** Nickname length in characters (code points), after trimming. */
export const NICKNAME_MIN = 2
export const NICKNAME_MAX = 20

/** Letters and marks of any script, digits, and `.`, `_`, `-` and single spaces between them. */
const NICKNAME_CHARS = /^[\p{L}\p{M}\p{Nd}._-]+(?: [\p{L}\p{M}\p{Nd}._-]+)*$/u

/**
 * Why a nickname is refused: its length, a character outside the set (or one no reader sees), a prohibited word,
 * a name of the service or its staff, or another reader has it (or one that looks the same).
 */
export type NicknameRefusal = { reason: 'LENGTH' | 'CHARS' | 'TAKEN' | 'RESERVED' } | { reason: 'BANNED'; word: string }
export type NicknameCheck = { ok: true; nickname: string; key: string } | ({ ok: false } & NicknameRefusal)

/**
 * What makes two nicknames the same one (unique per edition): they look the same to a reader (`foldText`: case in
 * every script, fullwidth forms, invisible and confusable characters). Stored as `users.nickname_key`, version
 * `NICKNAME_KEY_VERSION` (the cron re-keys older rows).
 */
export function nicknameKey(nickname: string): string {
  return foldText(nickname)
}
export const NICKNAME_KEY_VERSION = 2

/** The nickname as stored (NFC, trimmed, runs of spaces made one) with its key, or why it is refused. */
export function checkNickname(raw: string, bannedWords: readonly string[], reservedNames: readonly string[]): NicknameCheck {
  const nickname = raw.normalize('NFC').trim().replace(/\s+/gu, ' ')
  const length = [...nickname].length
  if (length < NICKNAME_MIN || length > NICKNAME_MAX) return { ok: false, reason: 'LENGTH' }
  // characters no reader sees (U+034F, Hangul fillers, zero-width ones) would make a lookalike of another name
  if (!NICKNAME_CHARS.test(nickname) || withoutInvisible(nickname) !== nickname) return { ok: false, reason: 'CHARS' }
  const word = bannedWordIn(nickname, bannedWords)
  if (word !== null) return { ok: false, reason: 'BANNED', word }
  const bare = foldBare(nickname)
  if (reservedNames.some((name) => bare.includes(foldBare(name)))) return { ok: false, reason: 'RESERVED' }
  return { ok: true, nickname, key: nicknameKey(nickname) }
}

/** The message of a refusal (the prohibited word is the comments' spec §5 message); its parameters are `nicknameParams`. */
export function nicknameMessageKey(refusal: NicknameRefusal): MessageKey {
  if (refusal.reason === 'BANNED') return 'community.comment.banned'
  return refusal.reason === 'LENGTH'
    ? 'account.profile.length'
    : refusal.reason === 'CHARS'
      ? 'account.profile.chars'
      : refusal.reason === 'RESERVED'
        ? 'account.profile.reserved'
        : 'account.profile.taken'
}
export const nicknameParams = (refusal: NicknameRefusal) => ({
  min: NICKNAME_MIN,
  max: NICKNAME_MAX,
  ...(refusal.reason === 'BANNED' ? { word: refusal.word } : {}),
})

/** A refusal as a page reads it back from `?reason=&word=` (anything else: null). */
export function refusalOf(reason: string | null, word: string | null): NicknameRefusal | null {
  if (reason === 'BANNED') return word ? { reason, word: word.slice(0, 100) } : null
  return reason === 'LENGTH' || reason === 'CHARS' || reason === 'TAKEN' || reason === 'RESERVED' ? { reason } : null
}

/** `profileRequest` of PUT /user, and the profile page's form. */
export const ProfileRequest = z.object({ nickname: z.string().max(200) })
const refreshToken = z.string().max(256).optional()

/**
 * Spec §7 PUT /user: one action per call; an app sends its refresh token to get the renewed pair back
 * (`authResponse`). ADULT takes the age check's own `birthedAt`; MAIL the e-mail consent.
 */
export const PutUserBody = z.discriminatedUnion('action', [
  z.object({ action: z.literal('PROFILE'), profileRequest: ProfileRequest, refreshToken }),
  z.object({ action: z.literal('ADULT'), verifyAdultRequest: VerifyAdultBody.pick({ birthedAt: true }), refreshToken }),
  z.object({ action: z.literal('MAIL'), agreeMailRequest: z.object({ isAgreeMail: z.boolean() }), refreshToken }),
])
export type PutUserBody = z.infer<typeof PutUserBody>
