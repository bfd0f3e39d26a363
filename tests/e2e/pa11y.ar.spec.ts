import { pa11ySuite } from './pa11y.ts'

/** Issue 19 point 4 in the ar edition (right to left): pa11y (HTML_CodeSniffer + axe, WCAG 2 AA) over every page type. */
pa11ySuite('ar')
