/** Rich-text labels (rich-text.ts) as the pages render them: with the build's edition's messages and site address. */
import { edition, messages } from 'virtual:edition'
import { richPlain, richText } from './rich-text.ts'

const origin = new URL(edition.siteUrl).origin

/** The label as safe HTML for `set:html`; `links: false` where it sits inside a link of its own. */
export const rich = (label: string | null | undefined, links = true) => richText(label, { messages, origin, links })

/** The label's text alone, for an attribute or a page title. */
export const plain = (label: string | null | undefined) => richPlain(label, { messages, origin })
