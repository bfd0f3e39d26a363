import { supportVolumeSuite } from './support-volume.ts'

/** Issue 39 point 6 in the fr edition: npm run ops -- support search|reply|edit-answer, seen by a reader on /qna. */
supportVolumeSuite('fr')
