import { hiddenLibrarySuite } from './library-hidden.ts'

/** Issue 12 point 5 in the fr edition: hide a series from a shelf, bring it back. */
hiddenLibrarySuite('fr')
