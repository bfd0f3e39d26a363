import { commentModerationSuite } from './comment-moderation.ts'

/** Issue 39 point 7 in the fr edition: npm run ops -- comments reported|hide|block|unblock, seen by a reader. */
commentModerationSuite('fr')
