import { creatorSuite } from './creator.ts'

/** Issue 37 point 2 in the fr edition: creator pages. */
creatorSuite('fr')
