/**
 * `npm test`: type check (astro check covers .astro and .ts), the linter (ESLint), the formatter's check
 * (Prettier) and the dead-code finder (knip), unit and worker tests (vitest, real workerd + D1), then browser tests (Playwright + Chromium) against freshly built workers of the seven
 * editions, each first checked by `npm run deploy -- <id> --dry-run` (bundle size against the budget). Prints one closing line "tests: N passed, N failed".
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { EDITION_IDS } from '../src/lib/edition/schema.ts'
import { run } from './lib.ts'
import { findChromium } from './chromium.ts'
import { fullChromium } from './chromium-full.ts'

mkdirSync('.cache', { recursive: true })
for (const f of ['.cache/vitest.json', '.cache/playwright.json']) rmSync(f, { force: true })
/**
 * The steps in order, each with the step it needs (its output): a failed step fails the run, but every step that
 * does not need it still runs and reports (issue 40 point 6: a slow unit test no longer hides the browser tests).
 */
const steps: [string, () => Promise<void>, needs?: string][] = [
  ['type check', () => run('astro', ['check', '--minimumSeverity', 'warning'])],
  [
    'lint, format and dead code',
    async () => {
      await run('eslint', ['.', '--max-warnings', '0'])
      await run('prettier', ['--check', '.'])
      await run('knip', [])
      await run('knip', ['--production']) // what only tests use is dead code too
      await run('depcruise', ['src', 'functions', 'scripts', 'tests', '--config', '.dependency-cruiser.mjs'])
      await run('depcruise', ['src', '--config', '.dependency-cruiser.features.mjs']) // no cycle between feature folders
    },
  ],
  ['unit + worker tests', () => run('vitest', ['run', '--reporter=default', '--reporter=json', '--outputFile=.cache/vitest.json'])],
  [
    'build the seven editions',
    async () => {
      // one at a time: two astro builds in one tree share its prerender state and break each other
      for (const id of ['fr', 'ar', 'de', 'jp', 'kr', 'th', 'tw'])
        await run(process.execPath, ['scripts/build.ts'], { env: { EDITION: id } })
    },
  ],
  [
    'deploy dry runs',
    async () => {
      // the builds above, each checked by `wrangler deploy --dry-run` against the bundle budget (scripts/deploy/plan.ts);
      // one at a time (each is a few seconds), every edition reported before the step fails
      const over: string[] = []
      for (const id of EDITION_IDS)
        await run(process.execPath, ['scripts/deploy.ts', id, '--dry-run', '--no-build']).catch(() => over.push(id))
      if (over.length) throw new Error(`deploy --dry-run failed for ${over.join(', ')}`)
    },
    'build the seven editions',
  ],
  [
    'browser tests',
    async () => {
      const chromium = await findChromium()
      if (chromium.path === null) throw new Error(`no Chromium to run the browser tests: ${chromium.reason}`)
      console.log(`Chromium: ${chromium.path} (${chromium.from})`)
      // the install checks need a full Chromium (the headless shell has none): fetched once, before the suite
      const full = await fullChromium(console.log)
      console.log(`Chromium for the install checks: ${full.path ?? `none (${full.reason}); the install tests will fail`}`)
      // fresh local state for the browser suite (the developer's .wrangler/state is left alone)
      for (const d of existsSync('.wrangler') ? readdirSync('.wrangler') : [])
        if (d.startsWith('e2e-')) rmSync(`.wrangler/${d}`, { recursive: true, force: true })
      await run('playwright', ['test'], { env: { CI: process.env.CI ?? '1', CHROME_PATH: chromium.path } })
    },
    'build the seven editions',
  ],
]

const failures: string[] = []
for (const [name, step, needs] of steps) {
  console.log(`\n▶ ${name}`)
  if (needs && failures.includes(needs)) {
    console.error(`✗ ${name}: not run, "${needs}" failed`)
    failures.push(name)
    continue
  }
  const started = Date.now()
  try {
    await step()
    console.log(`✓ ${name} (${Math.round((Date.now() - started) / 1000)} s)`)
  } catch (e) {
    console.error(`✗ ${name}: ${(e as Error).message}`)
    failures.push(name)
  }
}
const failed = failures.length > 0
if (failed) console.error(`\nfailed steps: ${failures.join(', ')}`)

function count(file: string, pick: (j: any) => [number, number]): [number, number] {
  try {
    return pick(JSON.parse(readFileSync(file, 'utf8')))
  } catch {
    return [0, 0]
  }
}
/** The failed tests by name, last, so that a run whose output is cut to its tail still says which (issue 40 point 7). */
function failedNames(file: string, pick: (j: any) => string[]): string[] {
  try {
    return pick(JSON.parse(readFileSync(file, 'utf8')))
  } catch {
    return []
  }
}
const vitestFailed = failedNames('.cache/vitest.json', (j) =>
  j.testResults.flatMap((f: any) => {
    const file = f.name.replace(`${process.cwd()}/`, '')
    const tests = f.assertionResults.filter((t: any) => t.status === 'failed')
    if (tests.length === 0 && f.status === 'failed') return [`${file}: ${String(f.message).split('\n')[0]}`]
    return tests.map((t: any) => `${file} › ${t.fullName}: ${String(t.failureMessages?.[0] ?? '').split('\n')[0]}`)
  }),
)
for (const name of vitestFailed) console.error(`✗ vitest ${name}`)
const [vp, vf] = count('.cache/vitest.json', (j) => [j.numPassedTests, j.numFailedTests])
const [pp, pf] = count('.cache/playwright.json', (j) => [j.stats.expected + (j.stats.flaky ?? 0), j.stats.unexpected])
console.log(`\nvitest ${vp} passed, ${vf} failed; playwright ${pp} passed, ${pf} failed`)
console.log(`tests: ${vp + pp} passed, ${vf + pf + (failed && vf + pf === 0 ? 1 : 0)} failed`)
process.exit(failed ? 1 : 0)
