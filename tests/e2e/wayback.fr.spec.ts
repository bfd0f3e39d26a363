import { wayBackSuite } from './wayback.ts'

/** Issue 25 §4–5 in the fr edition: support links, rank numbers, continue reading, the series button, touch targets. */
wayBackSuite('fr')
