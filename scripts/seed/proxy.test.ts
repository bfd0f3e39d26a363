/**
 * The forced re-seed empties the readers' objects of the local state (`emptyReaderObjects`), and nothing else there.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { emptyReaderObjects } from './proxy.ts'

const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A local state (`<persist>/v3`) with the given files, each empty. */
function state(files: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'seed-state-'))
  made.push(root)
  for (const file of files) {
    mkdirSync(join(root, file, '..'), { recursive: true })
    writeFileSync(join(root, file), '')
  }
  return root
}

describe('emptyReaderObjects', () => {
  it("removes every reader's object and leaves the D1 database and the other objects", () => {
    const root = state([
      'do/webtoon-fr-Reader/a1.sqlite',
      'do/webtoon-fr-Reader/b2.sqlite',
      'do/webtoon-fr-Reader/metadata.sqlite',
      'do/webtoon-fr-Hasher/c3.sqlite',
      'd1/miniflare-D1DatabaseObject/db.sqlite',
    ])
    expect(emptyReaderObjects(root)).toBe(2)
    expect(existsSync(join(root, 'do/webtoon-fr-Reader'))).toBe(false)
    expect(existsSync(join(root, 'do/webtoon-fr-Hasher/c3.sqlite'))).toBe(true)
    expect(existsSync(join(root, 'd1/miniflare-D1DatabaseObject/db.sqlite'))).toBe(true)
    expect(emptyReaderObjects(root)).toBe(0) // again: nothing left to empty
  })

  it('answers 0 for a state no object was ever written in', () => {
    expect(emptyReaderObjects(state(['d1/x.sqlite']))).toBe(0)
  })
})
