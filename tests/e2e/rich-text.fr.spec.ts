import { richTextSuite } from './rich-text.ts'

/** Spec §2's rich-text labels in the fr edition: a notice title's markup. */
richTextSuite('fr')
