/**
 * The shape of every cron sweep (docs/SCALE.md "Retention"): bounded batches, one after another, until nothing is
 * left or the run's time budget is spent; the next run (10 minutes later) goes on where this one stopped.
 *
 * Budget: a Worker's cron invocation may use 30 s of CPU (the Workers default, `limits.cpu_ms`) and, for a
 * schedule under an hour, 15 minutes of wall time. A sweep is almost all waiting for D1 (which is not CPU), so it
 * is bounded by wall time: no batch starts after CRON_BUDGET_MS, which keeps the CPU far below its limit
 * whatever the backlog, and lets readers' queries in between batches.
 */

/** No sweep batch starts later than this after the sweep began. */
const CRON_BUDGET_MS = 20_000

/** When a sweep must stop starting batches (epoch ms) and the clock it reads (Date.now; tests pass their own). */
export type SweepBudget = { deadline: number; clock: () => number }

/** The budget of a sweep starting now. */
export function cronBudget(): SweepBudget {
  return { deadline: Date.now() + CRON_BUDGET_MS, clock: Date.now }
}

export type SweepResult = { rows: number; batches: number; done: boolean }

/**
 * Runs each job (one bounded batch per call; it answers how many rows it took up, at most `size`) in turn, one
 * batch each per round, so that a long backlog in one cannot starve the others. A job is done when a batch takes
 * fewer than `size` rows; once the budget is spent no batch starts and the rest waits for the next run.
 */
export async function sweep(jobs: readonly (() => Promise<number>)[], size: number, budget: SweepBudget): Promise<SweepResult[]> {
  const results = jobs.map(() => ({ rows: 0, batches: 0, done: false }))
  let pending = jobs.length
  while (pending > 0) {
    for (const [i, job] of jobs.entries()) {
      const r = results[i]!
      if (r.done) continue
      if (budget.clock() >= budget.deadline) return results
      const n = await job()
      r.rows += n
      r.batches++
      if (n < size) {
        r.done = true
        pending--
      }
    }
  }
  return results
}
