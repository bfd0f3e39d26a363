/**
 * Password hashes at today's work factor (issue 26 point 8), on real workerd + D1 through the app's router:
 * new hashes are argon2id (m 19 MiB, t 2); an older PBKDF2 hash becomes argon2id at the reader's next successful
 * sign-in; unknown e-mail and wrong password keep the same answer time (ASVS 6.3.8, spec §8).
 */
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { env } from 'cloudflare:workers'
import { seedDemo, READER_PASSWORD_HASH } from './seed.ts'
import { PASSWORD, expectError, json, makeUser, passwordHashOf, signIn, uniq } from './account.helpers.ts'
import { hashPassword } from '../../src/lib/server/password.ts'

beforeAll(async () => {
  await seedDemo(env.DB)
})

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
async function timed(call: () => Response | Promise<Response>): Promise<number> {
  const t = performance.now()
  await (await call()).body?.cancel()
  return performance.now() - t
}

describe('argon2id password hashes', () => {
  it('an older PBKDF2 hash is replaced by argon2id at the next successful sign-in, not at a failed one', async () => {
    const user = await makeUser()
    expect(await passwordHashOf(user.id)).toBe(READER_PASSWORD_HASH)
    await expectError(await signIn(user.email, 'Wrong-2026!'), 401, 'INVALID_PASSWORD')
    expect(await passwordHashOf(user.id)).toBe(READER_PASSWORD_HASH)
    expect((await signIn(user.email)).status).toBe(200)
    const upgraded = await passwordHashOf(user.id)
    expect(upgraded).toMatch(/^argon2id\$v=19\$m=19456,t=2,p=1\$/)
    expect((await signIn(user.email)).status).toBe(200)
    expect(await passwordHashOf(user.id)).toBe(upgraded) // argon2id at today's parameters stays
    await expectError(await signIn(user.email, 'Wrong-2026!'), 401, 'INVALID_PASSWORD')
  })

  it('a sign-up stores argon2id', async () => {
    const email = `hash-${uniq()}@example.com`
    expect(
      (await json('POST', '/api/v1/auth/sign-up', { email, password: 'Newbie-2026', passwordConfirm: 'Newbie-2026', agreeTerms: true }))
        .status,
    ).toBe(200)
    expect(await env.DB.prepare('SELECT password_hash FROM users WHERE email = ?').bind(email).first<string>('password_hash')).toMatch(
      /^argon2id\$/,
    )
  })

  it('unknown e-mail, wrong password (argon2id or PBKDF2 account): same answer time; CPU per hash reported', async () => {
    const argonUser = await makeUser()
    await env.DB.prepare('UPDATE users SET password_hash = ? WHERE id = ?')
      .bind(await hashPassword(PASSWORD, 'test-pepper'), argonUser.id)
      .run()
    const legacyUser = await makeUser()
    const unknown: number[] = []
    const argon: number[] = []
    const legacy: number[] = []
    for (let i = 0; i < 4; i++) {
      unknown.push(await timed(() => signIn(`nobody-${uniq()}@example.com`, 'Wrong-2026!')))
      argon.push(await timed(() => signIn(argonUser.email, 'Wrong-2026!')))
      legacy.push(await timed(() => signIn(legacyUser.email, 'Wrong-2026!')))
    }
    const hashMs: number[] = []
    for (let i = 0; i < 3; i++) {
      const t = performance.now()
      await hashPassword('Reader-2026!', 'test-pepper')
      hashMs.push(performance.now() - t)
    }
    console.log(
      `argon2id hash ${median(hashMs).toFixed(0)} ms; sign-in answer: unknown ${median(unknown).toFixed(0)} ms, wrong password ${median(argon).toFixed(0)} ms, wrong password on a PBKDF2 hash ${median(legacy).toFixed(0)} ms`,
    )
    for (const other of [argon, legacy]) {
      const ratio = median(other) / median(unknown)
      expect(ratio).toBeGreaterThan(0.6)
      expect(ratio).toBeLessThan(1.6)
    }
  })
})

describe('issue 34 (5): hashing shares the isolate', () => {
  it('a sign-up and a sign-in hash in Hasher objects, not in the isolate answering them', async () => {
    const asked = vi.spyOn(env.HASHER, 'getByName')
    try {
      const email = `hasher-${uniq()}@example.com`
      const body = { email, password: 'Newbie-2026', passwordConfirm: 'Newbie-2026', agreeTerms: true }
      expect((await json('POST', '/api/v1/auth/sign-up', body)).status).toBe(200)
      await expectError(await signIn(email, 'Wrong-2026!'), 401, 'INVALID_PASSWORD')
      expect(asked).toHaveBeenCalledTimes(2)
      for (const [name] of asked.mock.calls) expect(name).toMatch(/^hasher-(\d|1[0-5])$/)
    } finally {
      asked.mockRestore()
    }
  })

  it('a request made while 20 sign-ins hash is answered within a slice, not after the hashes queued before it', async () => {
    let done = 0
    const signIns = Array.from({ length: 20 }, (_, i) =>
      Promise.resolve(
        json(
          'POST',
          '/api/v1/auth/sign-in',
          { email: `storm-${uniq()}@example.com`, password: 'Storm-2026!' },
          { 'cf-connecting-ip': `198.18.7.${i + 1}` },
        ),
      ).then((res) => {
        done++
        return res
      }),
    )
    await new Promise((r) => setTimeout(r, 50)) // the hashing has begun
    const health = await json('GET', '/_/health', undefined)
    const finishedBefore = done
    expect(health.status).toBe(200)
    // a hash takes ~0.2 s of CPU: 20 of them hold a whole-hash-at-a-time isolate for seconds
    expect(finishedBefore).toBeLessThanOrEqual(2)
    for (const res of await Promise.all(signIns)) expect(res.status).toBe(401)
  }, 60_000)
})
