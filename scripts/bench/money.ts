/**
 * The money model test (tests/worker/money.model.test.ts, issue 23) with more runs than `npm test` makes: generated
 * sets of concurrent purchases, tickets, gifts, exchanges, refunds and expiry sweeps against real workerd + D1,
 * every rule and wallet invariant checked after each set. Reports — never asserts — the runs, whether they all
 * held, and the wall time. It needs no running worker (vitest starts its own).
 */
import { run } from '../lib.ts'

export type MoneyModelBench = { runs: number; passed: boolean; seconds: number; error?: string }

export async function benchMoneyModel(runs: number): Promise<MoneyModelBench> {
  const started = Date.now()
  const seconds = () => Math.round((Date.now() - started) / 100) / 10
  console.log(`money model: ${runs} runs…`)
  try {
    await run('vitest', ['run', '--project', 'worker', 'tests/worker/money.model.test.ts'], { env: { MONEY_MODEL_RUNS: String(runs) } })
    return { runs, passed: true, seconds: seconds() }
  } catch (e) {
    return { runs, passed: false, seconds: seconds(), error: (e as Error).message }
  }
}

export function moneyModelLine(m: MoneyModelBench): string {
  return `money model: ${m.runs} generated sets of concurrent commands ${m.passed ? 'held every rule' : `FAILED (${m.error})`} in ${m.seconds} s`
}
