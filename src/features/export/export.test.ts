import { describe, expect, it } from 'vitest'
import { strFromU8, unzipSync } from 'fflate'
import { exportFileName, exportFiles, type ExportData } from './export.ts'

const EXPORT_SECTIONS = [
  'account',
  'purchases',
  'rights',
  'coinLedger',
  'favorites',
  'hidden',
  'progress',
  'likes',
  'follows',
  'comments',
  'questions',
]
/** One section's CSV, as the ZIP holds it (without its byte order mark). */
const toCsv = (rows: ExportData['comments']) => {
  const data = Object.fromEntries(EXPORT_SECTIONS.map((s) => [s, []])) as unknown as ExportData
  return strFromU8(unzipSync(exportFiles({ ...data, comments: rows }, '2026-12-05T00:00:00.000Z').zip)['comments.csv']!)
}

describe('the export files', () => {
  it('writes CSV as spreadsheets read it: quoted where needed, formulas kept as text, every column once', () => {
    expect(
      toCsv([
        { a: 1, b: 'x' },
        { b: 'y, "z"', c: null },
      ]),
    ).toBe('a,b,c\r\n1,x,\r\n,"y, ""z""",\r\n')
    expect(toCsv([{ t: '=1+1' }, { t: '-2' }, { t: '@x' }, { t: 'line\nbreak' }])).toBe(`t\r\n'=1+1\r\n'-2\r\n'@x\r\n"line\nbreak"\r\n`)
    expect(toCsv([{ n: -4 }])).toBe('n\r\n-4\r\n')
    expect(toCsv([])).toBe('\r\n')
  })

  it('the JSON holds every section; the ZIP one CSV per section, with a byte order mark', () => {
    const data = Object.fromEntries(EXPORT_SECTIONS.map((s) => [s, []])) as unknown as ExportData
    data.comments = [{ id: 1, body: 'Génial !' }]
    const files = exportFiles(data, '2026-12-05T00:00:00.000Z')
    expect(Object.keys(JSON.parse(files.json) as object)).toEqual(['exportedAt', ...EXPORT_SECTIONS])
    const zip = unzipSync(files.zip)
    expect(Object.keys(zip)).toEqual(EXPORT_SECTIONS.map((s) => `${s}.csv`))
    expect([...zip['comments.csv']!.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    expect(strFromU8(zip['comments.csv']!)).toBe('id,body\r\n1,Génial !\r\n') // the decoder drops the mark
    expect(exportFileName('Bomtoon', '2026-12-05', 'csv')).toBe('Bomtoon-2026-12-05.zip')
  })
})
