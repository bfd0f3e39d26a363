/**
 * Smoke test of `npm run ops` on a real local D1/R2 (wrangler's getPlatformProxy on a temporary
 * --persist-to directory, migrated and seeded with the demo): grant, show and a series import through the
 * command line, plus the import's clean-up when an upload fails half-way. Each command starts workerd, so
 * the test keeps to a few of them (the wallet rules themselves are covered by tests/worker/wallet.test.ts).
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { quietEnv, root } from '../lib.ts'
import { openLocal } from '../seed/proxy.ts'
import { importSeries } from './import.ts'
import { writeSampleSeries } from './sample.ts'
import { seedDemo } from '../../tests/worker/seed.ts'

const state = mkdtempSync(join(tmpdir(), 'ops-cli-state-'))
let sample: string

function exec(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      { cwd: root, env: { ...process.env, ...quietEnv, EDITION: 'fr' }, maxBuffer: 16 << 20 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    )
  })
}
const ops = (...args: string[]) => exec(['scripts/ops.ts', ...args, '--persist-to', state])

beforeAll(async () => {
  const migrate = await exec([
    'node_modules/wrangler/bin/wrangler.js',
    'd1',
    'migrations',
    'apply',
    'DB',
    '--local',
    '--persist-to',
    state,
    '-c',
    'wrangler.jsonc',
  ])
  expect(migrate.code, migrate.stderr).toBe(0)
  const local = await openLocal({ edition: 'fr', persistTo: state })
  try {
    await seedDemo(local.env.DB)
  } finally {
    await local.dispose()
  }
  sample = await writeSampleSeries(mkdtempSync(join(tmpdir(), 'ops-cli-sample-')))
}, 120_000)
afterAll(() => {
  rmSync(state, { recursive: true, force: true })
  if (sample) rmSync(sample, { recursive: true, force: true })
})

describe('npm run ops', () => {
  it('grants, shows the wallet, explains a bad command line', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10) // sooner than any demo lot's expiry
    const grant = await ops(
      'coins',
      'grant',
      '--email',
      'reader@example.com',
      '--type',
      'BONUS',
      '--amount',
      '50',
      '--reason',
      'support #123',
      '--expires',
      tomorrow,
    )
    expect(grant.code, grant.stderr).toBe(0)
    expect(grant.stdout).toMatch(/granted 50 BONUS/)
    expect(grant.stdout).toMatch(/CHARGE\s+BONUS\s+ADMIN\s+50/)
    expect(grant.stdout).toContain(`expires ${tomorrow} 23:59: 50 BONUS`)

    const show = await ops('coins', 'show', '--email', 'reader@example.com')
    expect(show.code, show.stderr).toBe(0)
    expect(show.stdout).toMatch(/lots \(\d+\), in spend order/)
    expect(show.stdout).toMatch(/support #123/)
    expect(show.stdout).toMatch(/invariant: .* ✓/)

    const usage = await ops('coins', 'grant', '--email', 'reader@example.com')
    expect(usage.code).toBe(2)
    expect(usage.stderr).toMatch(/--type is required/)
  }, 120_000)

  it('imports a series folder and prints its id; the rows and R2 objects follow the seed scheme', async () => {
    const res = await ops('import', '--dir', sample)
    expect(res.code, res.stderr).toBe(0)
    const id = Number(/series id (\d+)/.exec(res.stdout)?.[1])
    expect(id).toBeGreaterThan(0)

    const local = await openLocal({ edition: 'fr', persistTo: state })
    try {
      const db = local.env.DB
      const series = await db
        .prepare(`SELECT title, cover_key, episode_count, free_episode_count, is_published FROM series WHERE id = ?`)
        .bind(id)
        .first()
      expect(series).toEqual({
        title: 'Le Phare des Brumes',
        cover_key: `covers/${id}`,
        episode_count: 2,
        free_episode_count: 1,
        is_published: 1,
      })
      const slices = await db
        .prepare(
          `SELECT ei.key FROM episode_images ei JOIN episodes e ON e.id = ei.episode_id WHERE e.series_id = ? ORDER BY e.no, ei.position`,
        )
        .bind(id)
        .all()
      expect(slices.results.map((r) => r.key)).toEqual([
        `series/${id}/ep/1/1`,
        `series/${id}/ep/1/2`,
        `series/${id}/ep/2/1`,
        `series/${id}/ep/2/2`,
      ])
      const texts = await db
        .prepare(
          `SELECT ei.alt, ei.transcript FROM episode_images ei JOIN episodes e ON e.id = ei.episode_id WHERE e.series_id = ? AND e.no = 1 ORDER BY ei.position`,
        )
        .bind(id)
        .all<{ alt: string; transcript: string | null }>()
      expect(texts.results.map((r) => [r.alt, JSON.parse(r.transcript!)[1].text])).toEqual([
        ["La gardienne monte l'escalier du phare.", 'Encore trois cents marches…'],
        ['La lumière balaie une mer de brume.', 'Qui allume des feux sur la mer ?'],
      ])
      const found = await db.prepare(`SELECT rowid FROM series_fts WHERE series_fts MATCH 'quere'`).all()
      expect(found.results.map((r) => r.rowid)).toContain(id)
      const objects = [
        ...(await local.env.MEDIA.list({ prefix: `series/${id}/` })).objects,
        ...(await local.env.MEDIA.list({ prefix: `covers/${id}/` })).objects,
      ]
      expect(objects.map((o) => o.key).sort()).toEqual(
        [`covers/${id}`, ...slices.results.map((r) => r.key as string)]
          .flatMap((k) => (k.startsWith('covers/') ? [256, 384, 640, 1200] : [640, 828, 1080]).map((w) => `${k}/${w}.webp`))
          .sort(),
      )

      // an upload failing half-way leaves no series row and no object behind
      let puts = 0
      const failing = {
        DB: db,
        MEDIA: new Proxy(local.env.MEDIA, {
          get(target, prop) {
            if (prop === 'put')
              return async (...args: Parameters<R2Bucket['put']>) => {
                if (++puts > 4) throw new Error('disk full')
                return target.put(...args)
              }
            const value = Reflect.get(target, prop)
            return typeof value === 'function' ? value.bind(target) : value
          },
        }),
      }
      const before = await db.prepare(`SELECT count(*) AS n FROM series`).first<{ n: number }>()
      await expect(importSeries(failing, sample)).rejects.toThrow('disk full')
      expect(await db.prepare(`SELECT count(*) AS n FROM series`).first<{ n: number }>()).toEqual(before)
      const next = await db.prepare(`SELECT seq FROM sqlite_sequence WHERE name = 'series'`).first<{ seq: number }>()
      expect((await local.env.MEDIA.list({ prefix: `covers/${next!.seq}/` })).objects).toEqual([])
      expect((await local.env.MEDIA.list({ prefix: `series/${next!.seq}/` })).objects).toEqual([])
    } finally {
      await local.dispose()
    }
  }, 120_000)
})
