import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { DB_TYPES_FILE, generateDbTypes } from './db-types.ts'

describe('db-types', () => {
  it('src/lib/server/db-types.ts is up to date with migrations/*.sql (else: npm run db:types)', () => {
    expect(readFileSync(DB_TYPES_FILE, 'utf8')).toBe(generateDbTypes())
  })

  it('types a column from its declaration: NOT NULL, 0/1 flags, CHECK lists', () => {
    const text = generateDbTypes()
    const users = text.slice(text.indexOf('export interface UsersRow {'))
    expect(users).toMatch(/\n {2}id: number\n/)
    expect(users).toMatch(/\n {2}email: string \| null\n/)
    expect(users).toMatch(/\n {2}is_adult: Flag\n/)
    expect(users).toMatch(/\n {2}platform: 'WEB' \| 'AND_PLAY' \| 'AND_PLUS' \| 'IOS_APP'\n/)
    expect(text).toMatch(
      /export interface IdentitiesRow \{[^}]*provider: 'google' \| 'facebook' \| 'twitter' \| 'apple' \| 'apple_guest' \| 'apple_app'\n/,
    )
    expect(text).not.toContain('SeriesFts')
  })
})
