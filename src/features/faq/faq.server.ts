/** FAQ reads from D1 (a short curated table, read whole but bounded). */
import type { Db } from '../../lib/server/db.ts'
import type { FaqsRow } from '../../lib/server/db-types.ts'
import type { Faq } from './faq.ts'

const MAX_FAQS = 500

/** Every FAQ entry in category and position order (1 query). */
export async function listFaqs(db: Db): Promise<Faq[]> {
  return db.all<Pick<FaqsRow, 'id' | 'category' | 'question' | 'answer'>>(
    `SELECT id, category, question, answer FROM faqs ORDER BY category, position, id LIMIT ?`,
    MAX_FAQS,
  )
}
