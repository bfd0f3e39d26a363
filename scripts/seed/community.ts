/**
 * Demo community rows on top of buildDemo (which already seeds episode comments of series 24 and one
 * answered question): comments on the series page itself, sorted differently by newest and best, one reply,
 * and a second, still waiting question for reader@example.com, so /comment, /comment/my and /qna show every
 * state. Plain SQL statements run by scripts/seed.ts after the main rows.
 */
import { DEMO_ACCOUNTS, langOf } from './data.ts'
import { COMMENTS, QNAS, type Texts } from './texts.ts'
import { HOUR_MS, isoAfter } from '../../src/lib/time.ts'

const q = (s: string) => `'${s.replaceAll("'", "''")}'`

export function communityStatements(locale: string | undefined, now: Date = new Date()): string[] {
  const lang = langOf(locale)
  const tl = (texts: Texts) => texts[lang] // in the edition's language (texts.ts)
  const at = (hoursAgo: number) => q(isoAfter(now, -hoursAgo * HOUR_MS))
  const reader = DEMO_ACCOUNTS.reader.id
  const minor = DEMO_ACCOUNTS.minor.id
  const comment = (id: number, user: number, parent: number | null, body: string, likes: number, replies: number, hoursAgo: number) =>
    `INSERT INTO comments (id, series_id, episode_id, user_id, parent_id, body, state, like_count, reply_count, created_at, updated_at)
     VALUES (${id}, 24, NULL, ${user}, ${parent ?? 'NULL'}, ${q(body)}, NULL, ${likes}, ${replies}, ${at(hoursAgo)}, ${at(hoursAgo)})`
  return [
    comment(101, minor, null, tl(COMMENTS.favourite), 1, 1, 30),
    comment(102, reader, null, tl(COMMENTS.art), 0, 0, 20),
    comment(103, reader, 101, tl(COMMENTS.agree), 0, 0, 19),
    `INSERT INTO comment_reactions (comment_id, user_id, kind, created_at) VALUES (101, ${reader}, 'LIKE', ${at(19)})`,
    `INSERT INTO qnas (id, user_id, category, title, body, email, images, status, answer, answered_at, created_at)
     VALUES (2, ${reader}, 'VIEWER', ${q(tl(QNAS.pageTitle))}, ${q(tl(QNAS.pageBody))},
     ${q(DEMO_ACCOUNTS.reader.email)}, '[]', 'WAIT', NULL, NULL, ${at(2)})`,
  ]
}
