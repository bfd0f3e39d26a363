/**
 * `npm run ops -- comments reported|hide|restore|block|unblock` (issue 39 point 7: moderation) through the command
 * line, against the tiny HTTP server standing in for the operator API (fake-api.ts): the requests sent, what each
 * prints, the refusals of a bad command line with nothing sent, `--yes` for an address that is not local, help. The API
 * itself runs on real D1 in tests/worker/ops-comments.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { expectRefusedUnsent, REFUSAL_TEST_TIMEOUT_MS, fakeApi, json, LOCAL_OPS_TOKEN, outward, success, type FakeApi } from './fake-api.ts'

let api: FakeApi
beforeAll(async () => {
  api = await fakeApi()
})
afterAll(() => api.close())
beforeEach(() => api.reset())

const reportedPage = {
  items: [
    {
      id: 31,
      seriesId: 3,
      seriesTitle: 'Lune rouge',
      episodeId: 30,
      episodeNo: 4,
      parentId: null,
      author: { id: 42, nickname: 'Lune' },
      text: 'Un commentaire\nvraiment très long qui continue encore et encore pour dépasser soixante caractères',
      state: 'BLIND',
      openReports: 3,
      reports: 4,
      lastReportedAt: '2026-11-30T21:15:00.000Z',
      createdAt: '2026-11-29T10:00:00.000Z',
    },
  ],
  next: '17',
  timeZone: 'Europe/Paris',
}
const moderated = (state: string | null, changed = true) => ({
  id: 31,
  seriesId: 3,
  episodeId: 30,
  parentId: null,
  userId: 42,
  state,
  reports: 4,
  updatedAt: '2026-12-01T09:00:00.000Z',
  changed,
})
const readerReport = { account: { id: 42, email: 'reader@example.com' } }
const ban = (until: string, changed = true) => ({
  userId: 42,
  ban: { userId: 42, until, reason: 'Propos injurieux', createdBy: 'root', createdAt: '2026-12-01T09:00:00.000Z' },
  changed,
})

describe('npm run ops -- comments', () => {
  it(
    'refuses a bad command line with one clear line, before sending anything',
    async () => {
      const cases: [string[], RegExp][] = [
        [['comments', 'reported', '--days', '0'], /--days must be a whole number from 1 to 366/],
        [['comments', 'reported', '--series', 'x'], /--series must be a positive whole number/],
        [['comments', 'reported', '--sort', 'best'], /--sort must be one of newest, most/],
        [['comments', 'reported', '--limit', '500'], /--limit must be a whole number from 1 to 200/],
        [['comments', 'hide', '--reason', 'r'], /give the comment id: comments hide\|restore <id>/],
        [['comments', 'hide', 'x', '--reason', 'r'], /the comment id must be a positive whole number, not "x"/],
        [['comments', 'hide', '31'], /--reason is required/],
        [['comments', 'restore', '31', '--reason', 'r'.repeat(201)], /--reason must be 1 to 200 characters/],
        [['comments', 'hide', '31', '32', '--reason', 'r'], /unexpected argument "32"/],
        [['comments', 'block', '--days', '7', '--reason', 'r'], /give --email E or --user N \(exactly one\)/],
        [['comments', 'block', '--user', '42', '--email', 'a@b.c', '--days', '7', '--reason', 'r'], /exactly one/],
        [['comments', 'block', '--user', '42', '--reason', 'r'], /--days is required/],
        [['comments', 'block', '--user', '42', '--days', '0', '--reason', 'r'], /--days must be a whole number from 1 to 366/],
        [['comments', 'block', '--user', '42', '--days', '2.5', '--reason', 'r'], /--days must be a whole number/],
        [['comments', 'block', '--user', '0', '--days', '2', '--reason', 'r'], /--user must be a positive whole number/],
        [['comments', 'block', '--email', 'nope', '--days', '2', '--reason', 'r'], /--email must be an e-mail address/],
        [['comments', 'block', '--user', '42', '--days', '2'], /--reason is required/],
        [['comments', 'unblock', '--reason', 'r'], /give --email E or --user N/],
        [['comments', 'unblock', '--user', '42'], /--reason is required/],
      ]
      await expectRefusedUnsent(api, cases)
    },
    REFUSAL_TEST_TIMEOUT_MS,
  )

  it('comments reported: the query sent, one line per comment with its id, the next page', async () => {
    api.reply = () => success(reportedPage)
    const res = await api.ops(['comments', 'reported', '--days', '7', '--series', '3', '--limit', '1'])
    expect(res.code, res.stderr).toBe(0)
    expect(api.seen.map((s) => [s.method, s.path, s.authorization])).toEqual([
      ['GET', '/api/ops/comments/reported?limit=1&days=7&series=3', `Bearer ${LOCAL_OPS_TOKEN}`],
    ])
    expect(res.stdout).toContain(
      '1 reported comment not reviewed (http://127.0.0.1:' +
        api.port +
        '), series 3, the last 7 days, latest report first; times in Europe/Paris:',
    )
    const row = res.stdout.split('\n').find((l) => /^\s+31\s/.test(l))!
    expect(row).toMatch(/^\s+31\s+3\s+4\s+2026-11-30 22:15\s+BLIND\s+3 Lune rouge\s+no 4\s+42 Lune\s+Un commentaire vraiment/)
    expect(row).toContain('…')
    expect(res.stdout).toContain('review one: npm run ops -- comments hide|restore <id> --reason TEXT')
    expect(res.stdout).toContain('more: npm run ops -- comments reported --days 7 --series 3 --limit 1 --cursor 17')
    api.reset()
    api.reply = () => success({ items: [], next: null, timeZone: 'Europe/Paris' })
    const most = await api.ops(['comments', 'reported', '--sort', 'most'])
    expect(most.stdout).toContain('0 reported comments not reviewed')
    expect(most.stdout).toContain('most reported first')
    expect(most.stdout).toContain('(none)')
    expect(api.seen[0]!.path).toBe('/api/ops/comments/reported?sort=most')
  })

  it('comments hide and restore: the plan, the request, the outcome (and nothing changed when so already)', async () => {
    api.reply = (path) => success(path.endsWith('/hide') ? moderated('BLOCK') : moderated(null, false))
    const hide = await api.ops(['comments', 'hide', '31', '--reason', 'insultes'])
    expect(hide.code, hide.stderr).toBe(0)
    expect(hide.stdout).toContain("hide comment 31: gone from readers' lists and counts, its open reports marked reviewed")
    expect(hide.stdout).toContain('reason: insultes (in the audit trail)')
    expect(hide.stdout).toContain('hidden: comment 31 (series 3, episode 30, by reader 42), 4 report(s) reviewed')
    const restore = await api.ops(['comments', 'restore', '31', '--reason', 'appel'])
    expect(restore.code, restore.stderr).toBe(0)
    expect(restore.stdout).toContain('restore comment 31: visible to readers again')
    expect(restore.stdout).toContain('comment 31 (series 3, episode 30, by reader 42) was visible already: nothing changed')
    expect(api.seen.map((s) => [s.method, s.path, s.body])).toEqual([
      ['POST', '/api/ops/comments/31/hide', { reason: 'insultes' }],
      ['POST', '/api/ops/comments/31/restore', { reason: 'appel' }],
    ])
    api.reset()
    api.reply = () => json(404, { result: 'ERROR', code: 'NOT_EXIST', message: 'Introuvable.', requestId: 'r' })
    const missing = await api.ops(['comments', 'hide', '99', '--reason', 'r'])
    expect(missing.code).toBe(1)
    expect(missing.stderr.trim()).toBe(
      'ops: NOT_EXIST (HTTP 404) from POST /api/ops/comments/99/hide: Introuvable. (no comment 99, or the operator API is off: no OPS_TOKEN on the server)',
    )
  })

  it('comments block and unblock: an e-mail looked up first, the plan with the reason shown to the reader, the outcome', async () => {
    api.reply = (path) =>
      path.startsWith('/api/ops/readers?')
        ? success(readerReport)
        : path.endsWith('/comment-block')
          ? success(ban('2026-12-08T09:00:00.000Z'))
          : success(ban('2026-12-01T09:05:00.000Z'))
    const block = await api.ops(['comments', 'block', '--email', 'reader@example.com', '--days', '7', '--reason', 'Propos injurieux'])
    expect(block.code, block.stderr).toBe(0)
    expect(block.stdout).toMatch(
      /block reader 42 \(reader@example\.com\) from commenting for 7 day\(s\), until about \d{4}-\d\d-\d\d \d\d:\d\d UTC/,
    )
    expect(block.stdout).toContain('reason: Propos injurieux (shown to the reader, and in the audit trail)')
    expect(block.stdout).toContain('blocked: reader 42 may not comment until 2026-12-08 09:00 UTC; shown to them: "Propos injurieux"')
    const unblock = await api.ops(['comments', 'unblock', '--user', '42', '--reason', 'appel'])
    expect(unblock.code, unblock.stderr).toBe(0)
    expect(unblock.stdout).toContain('end the block from commenting of reader 42 now')
    expect(unblock.stdout).toContain('unblocked: reader 42 may comment again')
    expect(api.seen.map((s) => [s.method, s.path, s.body])).toEqual([
      ['GET', '/api/ops/readers?email=reader%40example.com', null],
      ['POST', '/api/ops/readers/42/comment-block', { days: 7, reason: 'Propos injurieux' }],
      ['POST', '/api/ops/readers/42/comment-unblock', { reason: 'appel' }],
    ])
    api.reset()
    api.reply = (path) =>
      success(path.endsWith('/comment-block') ? ban('2026-12-08T09:00:00.000Z', false) : ban('2026-11-01T00:00:00.000Z', false))
    const again = await api.ops(['comments', 'block', '--user', '42', '--days', '30', '--reason', 'autre'])
    expect(again.stdout).toContain(
      'reader 42 is blocked already until 2026-12-08 09:00 UTC ("Propos injurieux", by root): nothing changed; unblock first to change it',
    )
    const notBlocked = await api.ops(['comments', 'unblock', '--user', '42', '--reason', 'r'])
    expect(notBlocked.stdout).toContain('reader 42 was not blocked: nothing changed')
  })

  it('sends no change to an address that is not local without --yes (the plan only); with --yes it does', async () => {
    const remote = { OPS_URL: `http://ops.invalid`, OPS_TOKEN: 't' }
    const refused = await Promise.all([
      api.ops(['comments', 'hide', '31', '--reason', 'r'], remote),
      api.ops(['comments', 'restore', '31', '--reason', 'r'], remote),
      api.ops(['comments', 'block', '--user', '42', '--days', '2', '--reason', 'r'], remote),
      api.ops(['comments', 'unblock', '--user', '42', '--reason', 'r'], remote),
    ])
    for (const r of refused) {
      expect(r.code).toBe(2)
      expect(r.stdout).toContain('plan (http://ops.invalid):')
      expect(r.stderr.split('\n')[0]).toBe('ops: http://ops.invalid is not a local run: nothing sent; add --yes to do it')
    }
    expect(api.seen).toEqual([])
    if (!outward) return // no address but loopback on this machine: the refusals above are the test
    const deployed = { OPS_URL: `http://${outward}:${api.port}`, OPS_TOKEN: 'deployed-token' }
    api.reply = () => success(moderated('BLOCK'))
    const sent = await api.ops(['comments', 'hide', '31', '--reason', 'r', '--yes'], deployed)
    expect(sent.code, sent.stderr).toBe(0)
    expect(sent.stdout).toContain(`plan (http://${outward}:${api.port}):`)
    expect(api.seen.map((s) => [s.method, s.path, s.authorization])).toEqual([
      ['POST', '/api/ops/comments/31/hide', 'Bearer deployed-token'],
    ])
  })

  it('lists the commands in --help and explains each in help <command>', async () => {
    const names = ['comments reported', 'comments hide', 'comments restore', 'comments block', 'comments unblock']
    const [all, ...each] = await Promise.all([api.ops(['--help']), ...names.map((n) => api.ops(['help', ...n.split(' ')]))])
    for (const [i, name] of names.entries()) {
      expect(all.stdout).toMatch(new RegExp(`\\n  ${name}\\s+\\S`))
      expect(each[i]!.code).toBe(0)
      expect(each[i]!.stdout).toContain(`usage: npm run ops -- ${name}`)
      expect(each[i]!.stdout).toContain('OPS_URL')
    }
  })
})
