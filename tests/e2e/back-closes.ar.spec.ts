import { backClosesSuite } from './back-closes.ts'

backClosesSuite({
  edition: 'ar',
  help: 'اختصارات لوحة المفاتيح',
  settings: 'إعدادات القراءة',
  close: 'إغلاق',
  autoOffer: 'فتح الحلقات التالية تلقائيًا…',
  autoTitle: 'القراءة المتواصلة',
  autoCancel: 'إلغاء',
  ageTitle: 'التحقق من العمر',
  ageVerify: 'تحقق من عمري',
  ageCancel: 'إلغاء',
  ageYear: 'السنة',
  ageConfirm: 'تأكيد',
})
