import { operatorGrantSuite } from './operator-grant.ts'

/** Issue 39 point 5 in the fr edition: an operator's reason in the reader's coin history. */
operatorGrantSuite('fr')
