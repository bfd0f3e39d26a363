/** The part of pa11y 10's API the audit uses (pa11y ships no types; DefinitelyTyped's are for pa11y 5). */
declare module 'pa11y' {
  import type { Browser, Page } from 'puppeteer'

  export type Pa11yIssue = {
    code: string
    type: 'error' | 'warning' | 'notice'
    message: string
    context: string
    selector: string
    runner: string
  }

  export default function pa11y(
    url: string,
    options: {
      browser: Browser
      page: Page
      runners: string[]
      standard: 'WCAG2A' | 'WCAG2AA' | 'WCAG2AAA'
      timeout?: number
    },
  ): Promise<{ documentTitle: string; pageUrl: string; issues: Pa11yIssue[] }>
}
