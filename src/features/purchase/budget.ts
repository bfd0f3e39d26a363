/**
 * The cap of automatic unlocks: `cost` more coins keep what was spent within the budget. The server checks the
 * same in the purchase's own batch (`POST /api/v1/purchase` with `auto`), so two tabs cannot pass it together.
 */
export function withinBudget(state: { budget: number | null; spent: number }, cost: number): boolean {
  return state.budget !== null && state.spent + cost <= state.budget
}
