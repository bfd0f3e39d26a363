/**
 * Comment rules without I/O (spec §3 comment states, §5 comment validation, §6 login required; spec §7
 * comment/reaction/reply/block-user). The API, the pages and the island share them.
 */
import { z } from 'zod'
import { RowIdText } from '../../lib/ids.ts'
import { MINUTE_MS } from '../../lib/time.ts'
import { bannedWordIn } from '../../lib/text/banned.ts'

/** Spec §5: at most 500 characters. */
export const MAX_COMMENT_LENGTH = 500
/** Comments per page (cursor pagination). */
export const PAGE_SIZE = 20
/** Replies shown under one comment per page. */
export const REPLY_PAGE_SIZE = 50
/** Posting rate limit: at most this many comments and replies per reader in the window (FREQUENT_REQUEST). */
export const POST_LIMIT = 10
/** Spec §8 FREQUENT_REQUEST says "retry in 5 minutes": the window is 5 minutes. */
export const POST_WINDOW_MS = 5 * MINUTE_MS
/** Distinct reports after which a comment is hidden (state BLIND) until reviewed. */
export const BLIND_AFTER_REPORTS = 3

/** Spec §3 comment states; null is a visible comment. */
export type CommentState = 'REPORT' | 'BLIND' | 'DELETED' | 'BLOCK'
const SORTS = ['newest', 'best'] as const
export type Sort = (typeof SORTS)[number]
const REACTIONS = ['LIKE', 'DISLIKE', 'REPORT'] as const
export type Reaction = (typeof REACTIONS)[number]

/** Why a text is refused (spec §5): the pages and the API show the matching message. */
export type TextCheck =
  { ok: true; text: string } | { ok: false; reason: 'EMPTY' | 'TOO_LONG' } | { ok: false; reason: 'BANNED'; word: string }

/**
 * Normalises a comment (NFC, no control characters but line breaks, at most two blank lines in a row,
 * trimmed) and applies spec §5: empty → EMPTY, over 500 characters → TOO_LONG, a prohibited word → BANNED
 * with the word (case-insensitive, also inside longer words). The text is stored as plain text and always
 * escaped on output, so no markup ever reaches a page.
 */
export function checkText(raw: string, bannedWords: readonly string[]): TextCheck {
  const text = raw
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
  if (text.length === 0) return { ok: false, reason: 'EMPTY' }
  if ([...text].length > MAX_COMMENT_LENGTH) return { ok: false, reason: 'TOO_LONG' }
  const word = bannedWordIn(text, bannedWords)
  return word === null ? { ok: true, text } : { ok: false, reason: 'BANNED', word }
}

/** A page position: newest is ordered by id, best by likes then id. */
export type Cursor = { sort: 'newest'; id: number } | { sort: 'best'; likes: number; id: number }

export function encodeCursor(c: Cursor): string {
  return c.sort === 'newest' ? `n${c.id}` : `b${c.likes}_${c.id}`
}

/** The cursor of `sort`, or null when malformed or of the other sort. */
export function decodeCursor(raw: string, sort: Sort): Cursor | null {
  const m = /^(?:n([1-9]\d{0,9})|b(0|[1-9]\d{0,9})_([1-9]\d{0,9}))$/.exec(raw)
  if (!m) return null
  if (m[1] !== undefined) return sort === 'newest' ? { sort: 'newest', id: Number(m[1]) } : null
  return sort === 'best' ? { sort: 'best', likes: Number(m[2]), id: Number(m[3]) } : null
}

/**
 * What a reader sees of a comment's text: visible and REPORT (pending review) show it; BLIND, BLOCK and
 * DELETED replace it with a notice (key under `community.comment.state.*`).
 */
export function shownText(state: CommentState | null, body: string): { text: string | null; notice: CommentState | null } {
  if (state === null || state === 'REPORT') return { text: body, notice: null }
  return { text: null, notice: state }
}

/** The name shown for an author: the nickname, else the e-mail's first two characters and stars. */
export function authorName(nickname: string | null, email: string | null, userId: number): string {
  const nick = nickname?.trim()
  if (nick) return nick
  const local = email?.split('@')[0] ?? ''
  return local ? `${[...local].slice(0, 2).join('')}***` : `#${userId}`
}

const optionalId = z.preprocess((v) => (v === '' || v === null ? undefined : v), RowIdText.optional())

/** Body of POST /comment (JSON) and of the web form. */
export const PostBody = z.object({
  contentsId: RowIdText,
  episodeId: optionalId,
  parentId: optionalId,
  text: z.string().max(4000),
})
export type PostInput = z.infer<typeof PostBody>

export const ListQuery = z.object({
  contentsId: RowIdText,
  episodeId: optionalId,
  sort: z.enum(SORTS).default('newest'),
  cursor: z.string().max(40).optional(),
})

export const ReactionBody = z.object({ kind: z.enum(REACTIONS) })
export const BlockBody = z.object({ userId: RowIdText })
