import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { ALARM_RULES, alarmView, sqlOf } from './alarm.ts'
import { createTranslator } from '../../lib/i18n/i18n.ts'
import fr from '../../../editions/fr/messages/community.json'

const t = createTranslator({ locale: 'fr', timeZone: 'Europe/Paris', dateForm: 'dotted' }, fr)

describe('alarm rules', () => {
  it('writes a template as an SQL concatenation of its literal parts and the named columns', () => {
    expect(sqlOf('RENT:{ownership}:{expires}', { ownership: 'o.id', expires: 'o.expires_at' })).toBe(
      "'RENT:' || (o.id) || ':' || (o.expires_at)",
    )
    expect(sqlOf('/qna', {})).toBe("'/qna'")
    expect(() => sqlOf('/viewer/{episode}', {})).toThrow(/episode/)
  })

  it('quotes any literal text so that it stays one SQL string', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !/[{}]/.test(s) && s !== ''),
        (text) => {
          expect(sqlOf(text, {})).toBe(`'${text.replaceAll("'", "''")}'`)
        },
      ),
    )
  })

  it('every rule has its own dedup prefix and a text in the catalogue', () => {
    const prefixes = Object.values(ALARM_RULES).map((r) => r.dedup.split(':')[0])
    expect(new Set(prefixes).size).toBe(prefixes.length)
    for (const r of Object.values(ALARM_RULES)) expect(fr).toHaveProperty([r.text])
  })

  it('shows a stored alarm in the edition: its text with the parameters, a date in the edition’s time zone, read or not', () => {
    const row = {
      id: 3,
      kind: 'COIN' as const,
      title: 'alarm.text.coinsExpiring',
      body: '{"amount":7,"date":"2030-05-08T23:30:00.000Z"}',
      link: '/history/charge',
      readAt: null,
      createdAt: '2030-05-01T00:00:00.000Z',
    }
    expect(alarmView(row, t, { timeZone: 'Europe/Paris', locale: 'fr-FR', dateForm: 'dotted' })).toEqual({
      id: 3,
      kind: 'COIN',
      text: 'Pièces qui expirent le 09.05.2030 : 7.',
      link: '/history/charge',
      read: false,
      createdAt: '2030-05-01T00:00:00.000Z',
    })
    expect(
      alarmView({ ...row, title: 'not.a.rule', readAt: row.createdAt }, t, { timeZone: 'UTC', locale: 'fr-FR', dateForm: 'dotted' }),
    ).toMatchObject({
      text: '',
      read: true,
    })
  })
})
