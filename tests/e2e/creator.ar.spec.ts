import { creatorFollowSuite, creatorSuite } from './creator.ts'

/** Issue 37 point 2 in the ar edition: creator pages, and following a creator. */
creatorSuite('ar')
creatorFollowSuite('ar')
