import { spendingLimitSuite } from './spending-limit.ts'

/** Issue 37 point 5 in the fr edition: the monthly spending limit on /setting, a rental past it, the month on /my. */
spendingLimitSuite('fr')
