import { immersiveSuite } from './immersive.ts'

immersiveSuite({
  edition: 'ar',
  help: 'اختصارات لوحة المفاتيح',
  settings: 'إعدادات القراءة',
  shortcuts: 'اختصارات المفتاح الواحد (n، p، a، f، ?)',
  choose: 'استئجار أو شراء',
  company: 'معلومات الشركة',
  autoOffer: 'فتح الحلقات التالية تلقائيًا…',
  autoTitle: 'القراءة المتواصلة',
  comments: 'التعليقات',
  end: 'نهاية الحلقة',
  back: 'العودة إلى السلسلة',
  next: 'الحلقة التالية',
  autoScroll: 'التمرير التلقائي',
  fullscreen: 'ملء الشاشة',
  share: 'مشاركة',
})
