import { richTextSuite } from './rich-text.ts'

/** Spec §2's rich-text labels in the ar edition (right to left): a notice title's markup. */
richTextSuite('ar')
