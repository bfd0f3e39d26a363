import { creatorSuite } from './creator.ts'

/** Issue 37 point 2 in the ar edition: creator pages. */
creatorSuite('ar')
