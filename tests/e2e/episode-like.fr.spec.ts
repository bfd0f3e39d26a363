import { episodeLikeSuite } from './episode-like.ts'

/** Issue 37 point 3 in the fr edition: liking an episode at its end. */
episodeLikeSuite('fr')
