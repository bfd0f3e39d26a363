import { creatorFollowSuite, creatorSuite } from './creator.ts'

/** Issue 37 point 2 in the fr edition: creator pages, and following a creator. */
creatorSuite('fr')
creatorFollowSuite('fr')
