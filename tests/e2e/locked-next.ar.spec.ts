import { lockedNextSuite } from './locked-next.ts'

lockedNextSuite({
  edition: 'ar',
  episode: (no) => `الحلقة ${no}`,
  choose: 'استئجار أو شراء',
  autoOffer: 'فتح الحلقات التالية تلقائيًا…',
  autoTitle: 'القراءة المتواصلة',
  autoConfirm: 'تأكيد وفتح',
  images: false,
})
