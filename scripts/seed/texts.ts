/**
 * The demo's short texts in every edition's language (issue 25: shop badges, notices, banners, gifts, alerts and
 * the generated alt text were English outside fr). PURE, as data.ts. Longer texts (FAQ, events, comments) stay
 * French or English (data.ts `tx`).
 */
import type { Lang } from './data.ts'

export type Texts = Record<Lang, string>

/** Shop product badges. */
export const BADGES = {
  welcome: { fr: 'Offre de bienvenue', de: 'Willkommensangebot', en: 'Welcome offer', ja: 'はじめての方限定', ko: '첫 구매 혜택', zh: '新手禮包', th: 'ข้อเสนอต้อนรับ', ar: 'عرض الترحيب' },
  popular: { fr: 'Le plus populaire', de: 'Am beliebtesten', en: 'Most popular', ja: '一番人気', ko: '가장 인기', zh: '最受歡迎', th: 'ยอดนิยมที่สุด', ar: 'الأكثر رواجًا' },
  best: { fr: 'Meilleure offre', de: 'Bestes Angebot', en: 'Best value', ja: 'いちばんお得', ko: '최고 혜택', zh: '最划算', th: 'คุ้มที่สุด', ar: 'أفضل قيمة' },
  flash: { fr: 'Vente flash', de: 'Blitzangebot', en: 'Flash sale', ja: 'タイムセール', ko: '반짝 세일', zh: '限時特賣', th: 'แฟลชเซล', ar: 'تخفيض سريع' },
} satisfies Record<string, Texts>

/** Banner titles and subtitles (the image banners' alt text is their title). */
export const BANNERS = {
  season2: { fr: 'La saison 2 commence', de: 'Staffel 2 beginnt', en: 'Season 2 starts now', ja: 'シーズン2開幕', ko: '시즌 2 시작', zh: '第二季開播', th: 'ซีซัน 2 เริ่มแล้ว', ar: 'الموسم الثاني يبدأ الآن' },
  roulette: { fr: 'Roulette : tentez votre chance', de: 'Glücksrad: Versuchen Sie Ihr Glück', en: 'Roulette: try your luck', ja: 'ルーレット：運試し', ko: '룰렛: 행운을 시험해 보세요', zh: '輪盤：試試手氣', th: 'วงล้อ: ลองเสี่ยงดวง', ar: 'العجلة: جرّب حظك' },
  spin: { fr: 'Un tour gratuit chaque jour', de: 'Jeden Tag ein Gratis-Dreh', en: 'One free spin every day', ja: '毎日1回無料', ko: '매일 한 번 무료', zh: '每天免費轉一次', th: 'หมุนฟรีวันละครั้ง', ar: 'دورة مجانية كل يوم' },
  welcome100: { fr: 'Code WELCOME100 : 100 pièces offertes', de: 'Code WELCOME100: 100 Münzen geschenkt', en: 'Code WELCOME100: 100 free coins', ja: 'コードWELCOME100で100コインプレゼント', ko: '코드 WELCOME100: 코인 100개 증정', zh: '輸入 WELCOME100 送 100 代幣', th: 'โค้ด WELCOME100: รับ 100 เหรียญฟรี', ar: 'الرمز WELCOME100: 100 عملة مجانًا' },
  couponPage: { fr: 'À saisir dans la page coupon', de: 'Auf der Gutscheinseite eingeben', en: 'Enter it on the coupon page', ja: 'クーポンページで入力', ko: '쿠폰 페이지에서 입력하세요', zh: '請在優惠券頁面輸入', th: 'กรอกที่หน้าคูปอง', ar: 'أدخله في صفحة القسائم' },
  weekly: { fr: 'Les nouveautés de la semaine', de: 'Neu in dieser Woche', en: 'New this week', ja: '今週の新着', ko: '이번 주 신작', zh: '本週新作', th: 'มาใหม่สัปดาห์นี้', ar: 'جديد هذا الأسبوع' },
  adults: { fr: 'Réservé aux adultes', de: 'Nur für Erwachsene', en: 'Adults only', ja: '成人向け', ko: '성인 전용', zh: '成人限定', th: 'สำหรับผู้ใหญ่เท่านั้น', ar: 'للبالغين فقط' },
  expired: { fr: 'Offre expirée', de: 'Abgelaufenes Angebot', en: 'Expired offer', ja: '終了したキャンペーン', ko: '종료된 혜택', zh: '已結束的優惠', th: 'ข้อเสนอหมดอายุ', ar: 'عرض منتهٍ' },
  bonus15: { fr: '+15 pièces bonus avec le pack de 100', de: '+15 Bonusmünzen zum 100er-Paket', en: '+15 bonus coins with the 100 pack', ja: '100コインパックにボーナス15コイン', ko: '100코인 팩에 보너스 15코인', zh: '100 代幣方案加贈 15 紅利代幣', th: 'รับโบนัส 15 เหรียญกับแพ็ก 100', ar: '15 عملة إضافية مع باقة الـ100' },
  signup: { fr: 'Inscrivez-vous et recevez des pièces', de: 'Registrieren und Münzen erhalten', en: 'Sign up and get free coins', ja: '会員登録でコインプレゼント', ko: '가입하고 코인 받기', zh: '註冊即送代幣', th: 'สมัครสมาชิกรับเหรียญฟรี', ar: 'سجّل واحصل على عملات' },
} satisfies Record<string, Texts>

/** Notices: [title, body] per language, in data.ts's order. */
export const NOTICES: [Texts, Texts][] = [
  [
    { fr: 'Bienvenue sur la boutique de webtoons', de: 'Willkommen im Webtoon-Shop', en: 'Welcome to the webtoon store', ja: 'ウェブトゥーンストアへようこそ', ko: '웹툰 스토어에 오신 것을 환영합니다', zh: '歡迎來到條漫商店', th: 'ยินดีต้อนรับสู่ร้านเว็บตูน', ar: 'مرحبًا بك في متجر الويبتون' },
    { fr: 'Lisez des centaines d’épisodes, louez-les ou achetez-les avec vos pièces. Bonne lecture !', de: 'Lesen Sie Hunderte Episoden, leihen oder kaufen Sie sie mit Ihren Münzen. Viel Spaß!', en: 'Read hundreds of episodes, rent or buy them with your coins. Enjoy!', ja: '数百話の作品をコインでレンタル・購入して読めます。お楽しみください！', ko: '수백 개의 회차를 코인으로 대여하거나 구매해 읽어 보세요. 즐거운 감상 되세요!', zh: '數百話作品，用代幣租借或購買即可閱讀。祝您閱讀愉快！', th: 'อ่านหลายร้อยตอน เช่าหรือซื้อด้วยเหรียญของคุณ ขอให้สนุกกับการอ่าน!', ar: 'اقرأ مئات الحلقات، استأجرها أو اشترها بعملاتك. قراءة ممتعة!' },
  ],
  [
    { fr: 'Maintenance programmée', de: 'Geplante Wartung', en: 'Scheduled maintenance', ja: '定期メンテナンスのお知らせ', ko: '정기 점검 안내', zh: '系統維護公告', th: 'แจ้งปิดปรับปรุงระบบ', ar: 'صيانة مجدولة' },
    { fr: 'Le service sera indisponible pendant une heure la nuit prochaine, de 3 h à 4 h.', de: 'Der Dienst ist in der kommenden Nacht eine Stunde lang nicht verfügbar, von 3 bis 4 Uhr.', en: 'The service will be unavailable for one hour next night, from 3 to 4 am.', ja: '次の夜3時〜4時の1時間、サービスをご利用いただけません。', ko: '다음 날 새벽 3시부터 4시까지 1시간 동안 서비스를 이용할 수 없습니다.', zh: '明晚 3 點至 4 點，服務將暫停一小時。', th: 'บริการจะหยุดชั่วคราวหนึ่งชั่วโมงในคืนถัดไป ตั้งแต่ 03:00 ถึง 04:00 น.', ar: 'ستتوقف الخدمة ساعة واحدة الليلة المقبلة، من الثالثة إلى الرابعة صباحًا.' },
  ],
  [
    { fr: 'Nouveau : la lecture en continu', de: 'Neu: Weiterlesen ohne Pause', en: 'New: continuous reading', ja: '新機能：連続読み', ko: '새 기능: 이어 보기', zh: '新功能：連續閱讀', th: 'ใหม่: อ่านต่อเนื่อง', ar: 'جديد: القراءة المتواصلة' },
    { fr: 'Activez la lecture en continu dans le lecteur : l’épisode suivant s’ouvre tout seul et vos pièces sont débitées automatiquement.', de: 'Schalten Sie im Reader das Weiterlesen ein: Die nächste Episode öffnet sich von selbst, Ihre Münzen werden automatisch abgebucht.', en: 'Turn on continuous reading in the viewer: the next episode opens by itself and your coins are spent automatically.', ja: 'ビューアで連続読みをオンにすると、次の話が自動で開き、コインも自動で使われます。', ko: '뷰어에서 이어 보기를 켜면 다음 회차가 자동으로 열리고 코인이 자동으로 사용됩니다.', zh: '在閱讀器開啟連續閱讀，下一話會自動打開，代幣也會自動扣除。', th: 'เปิดการอ่านต่อเนื่องในหน้าอ่าน ตอนถัดไปจะเปิดเองและหักเหรียญให้อัตโนมัติ', ar: 'فعّل القراءة المتواصلة في القارئ: تُفتح الحلقة التالية وحدها وتُخصم عملاتك تلقائيًا.' },
  ],
  [
    { fr: 'La roulette est de retour !', de: 'Das Glücksrad ist zurück!', en: 'The roulette is back!', ja: 'ルーレットが復活！', ko: '룰렛이 돌아왔습니다!', zh: '輪盤回來了！', th: 'วงล้อกลับมาแล้ว!', ar: 'العجلة عادت!' },
    { fr: 'Un tour gratuit par jour et des pièces bonus à gagner tout au long de l’année.', de: 'Ein Gratis-Dreh pro Tag und das ganze Jahr Bonusmünzen zu gewinnen.', en: 'One free spin a day and bonus coins to win all year long.', ja: '1日1回無料で回せて、ボーナスコインが1年中当たります。', ko: '하루 한 번 무료로 돌리고 일 년 내내 보너스 코인을 받으세요.', zh: '每天免費轉一次，全年都能贏得紅利代幣。', th: 'หมุนฟรีวันละครั้ง ลุ้นรับเหรียญโบนัสได้ตลอดทั้งปี', ar: 'دورة مجانية كل يوم وعملات إضافية تربحها طوال العام.' },
  ],
  [
    { fr: 'Mise à jour des conditions d’utilisation', de: 'Aktualisierte Nutzungsbedingungen', en: 'Terms of use updated', ja: '利用規約改定のお知らせ', ko: '이용약관 개정 안내', zh: '使用條款更新', th: 'ปรับปรุงข้อกำหนดการใช้งาน', ar: 'تحديث شروط الاستخدام' },
    { fr: 'Nos conditions d’utilisation évoluent. Les principaux changements sont résumés dans la page dédiée.', de: 'Unsere Nutzungsbedingungen ändern sich. Die wichtigsten Änderungen sind auf der zugehörigen Seite zusammengefasst.', en: 'Our terms of use change. The main changes are summed up on the dedicated page.', ja: '利用規約を改定します。主な変更点は専用ページにまとめています。', ko: '이용약관이 변경됩니다. 주요 변경 사항은 전용 페이지에 정리되어 있습니다.', zh: '我們的使用條款有所調整，主要變更已整理於專屬頁面。', th: 'ข้อกำหนดการใช้งานมีการเปลี่ยนแปลง สรุปการเปลี่ยนแปลงหลักไว้ในหน้าเฉพาะ', ar: 'تتغير شروط الاستخدام لدينا. تجد ملخص أهم التغييرات في الصفحة المخصصة.' },
  ],
  [
    { fr: 'Nouveaux moyens de paiement', de: 'Neue Zahlungsarten', en: 'New payment methods', ja: '新しいお支払い方法', ko: '새로운 결제 수단', zh: '新增付款方式', th: 'ช่องทางชำระเงินใหม่', ar: 'طرق دفع جديدة' },
    { fr: 'Vous pouvez désormais recharger vos pièces avec de nouveaux moyens de paiement.', de: 'Sie können Ihre Münzen jetzt mit neuen Zahlungsarten aufladen.', en: 'You can now top up your coins with new payment methods.', ja: '新しいお支払い方法でコインをチャージできるようになりました。', ko: '이제 새로운 결제 수단으로 코인을 충전할 수 있습니다.', zh: '現在可以使用新的付款方式儲值代幣。', th: 'ตอนนี้เติมเหรียญด้วยช่องทางชำระเงินใหม่ได้แล้ว', ar: 'يمكنك الآن شحن عملاتك بطرق دفع جديدة.' },
  ],
  [
    { fr: 'Rappel : vos pièces bonus expirent', de: 'Erinnerung: Bonusmünzen verfallen', en: 'Reminder: bonus coins expire', ja: 'ボーナスコインの有効期限について', ko: '보너스 코인 만료 안내', zh: '提醒：紅利代幣會過期', th: 'เตือน: เหรียญโบนัสมีวันหมดอายุ', ar: 'تذكير: العملات الإضافية تنتهي صلاحيتها' },
    { fr: 'Les pièces bonus ont une date d’expiration, visible dans l’historique. Elles sont dépensées en premier.', de: 'Bonusmünzen haben ein Ablaufdatum, das im Verlauf steht. Sie werden zuerst ausgegeben.', en: 'Bonus coins have an expiry date shown in your history. They are spent first.', ja: 'ボーナスコインには有効期限があり、履歴で確認できます。ボーナスコインから先に使われます。', ko: '보너스 코인에는 만료일이 있으며 내역에서 확인할 수 있습니다. 보너스 코인이 먼저 사용됩니다.', zh: '紅利代幣有使用期限，可在紀錄中查看，並會優先扣除。', th: 'เหรียญโบนัสมีวันหมดอายุ ดูได้ในประวัติ และจะถูกใช้ก่อน', ar: 'للعملات الإضافية تاريخ انتهاء يظهر في السجل، وتُستخدم أولًا.' },
  ],
  [
    { fr: 'Concours de fan-art', de: 'Fan-Art-Wettbewerb', en: 'Fan-art contest', ja: 'ファンアートコンテスト', ko: '팬아트 공모전', zh: '同人繪畫大賽', th: 'ประกวดแฟนอาร์ต', ar: 'مسابقة رسوم المعجبين' },
    { fr: 'Partagez vos dessins de vos séries préférées et gagnez des pièces.', de: 'Teilen Sie Zeichnungen Ihrer Lieblingsserien und gewinnen Sie Münzen.', en: 'Share drawings of your favourite series and win coins.', ja: 'お気に入り作品のイラストを投稿してコインを当てよう。', ko: '좋아하는 작품의 그림을 공유하고 코인을 받으세요.', zh: '分享您最愛作品的繪圖，贏得代幣。', th: 'แชร์ภาพวาดจากเรื่องโปรดของคุณ ลุ้นรับเหรียญ', ar: 'شارك رسوماتك لسلاسلك المفضلة واربح عملات.' },
  ],
  [
    { fr: '{series} : pause de deux semaines', de: '{series}: zwei Wochen Pause', en: '{series}: two-week break', ja: '『{series}』2週間休載のお知らせ', ko: '《{series}》 2주 휴재 안내', zh: '《{series}》休刊兩週', th: '{series}: พักสองสัปดาห์', ar: '{series}: توقف لمدة أسبوعين' },
    { fr: 'L’autrice prend une courte pause. Retour de la série dans deux semaines.', de: 'Die Autorin macht eine kurze Pause. Die Serie geht in zwei Wochen weiter.', en: 'The author takes a short break. The series returns in two weeks.', ja: '作者が短い休暇に入ります。連載は2週間後に再開します。', ko: '작가가 잠시 휴식합니다. 2주 후 연재가 재개됩니다.', zh: '作者短暫休息，作品將於兩週後恢復連載。', th: 'ผู้เขียนขอพักสั้น ๆ เรื่องจะกลับมาในอีกสองสัปดาห์', ar: 'تأخذ المؤلفة استراحة قصيرة. تعود السلسلة بعد أسبوعين.' },
  ],
  [
    { fr: '{series} : saison 2 confirmée', de: '{series}: Staffel 2 bestätigt', en: '{series}: season 2 confirmed', ja: '『{series}』シーズン2決定', ko: '《{series}》 시즌 2 확정', zh: '《{series}》第二季確定', th: '{series}: ยืนยันซีซัน 2', ar: '{series}: الموسم الثاني مؤكد' },
    { fr: 'Merci pour votre soutien : une deuxième saison est en préparation.', de: 'Danke für Ihre Unterstützung: Eine zweite Staffel ist in Arbeit.', en: 'Thank you for your support: a second season is on its way.', ja: '応援ありがとうございます。シーズン2を準備中です。', ko: '응원해 주셔서 감사합니다. 시즌 2를 준비 중입니다.', zh: '感謝您的支持，第二季正在製作中。', th: 'ขอบคุณที่สนับสนุน ซีซัน 2 กำลังอยู่ระหว่างการเตรียม', ar: 'شكرًا لدعمكم: الموسم الثاني قيد التحضير.' },
  ],
]

/** Coupon titles, in data.ts's order. */
export const COUPONS: Texts[] = [
  { fr: 'Bienvenue : 100 pièces bonus', de: 'Willkommen: 100 Bonusmünzen', en: 'Welcome: 100 bonus coins', ja: 'ようこそ：ボーナス100コイン', ko: '환영 선물: 보너스 100코인', zh: '歡迎禮：100 紅利代幣', th: 'ต้อนรับ: โบนัส 100 เหรียญ', ar: 'مرحبًا: 100 عملة إضافية' },
  { fr: 'Été 2025 : 50 pièces', de: 'Sommer 2025: 50 Münzen', en: 'Summer 2025: 50 coins', ja: '2025年夏：50コイン', ko: '2025 여름: 50코인', zh: '2025 夏季：50 代幣', th: 'ซัมเมอร์ 2025: 50 เหรียญ', ar: 'صيف 2025: 50 عملة' },
  { fr: 'Flash : 50 premiers lecteurs', de: 'Blitz: die ersten 50 Leser', en: 'Flash: first 50 readers', ja: '先着50名限定', ko: '선착순 50명', zh: '限量：前 50 名讀者', th: 'แฟลช: 50 คนแรก', ar: 'سريع: أول 50 قارئًا' },
  { fr: '500 points de fidélité', de: '500 Treuepunkte', en: '500 mileage points', ja: '500ポイント', ko: '500마일리지', zh: '500 點數', th: '500 คะแนนสะสม', ar: '500 نقطة' },
  { fr: 'Trois tours de roulette', de: 'Drei Glücksrad-Drehungen', en: 'Three roulette spins', ja: 'ルーレット3回', ko: '룰렛 3회', zh: '輪盤三次', th: 'หมุนวงล้อ 3 ครั้ง', ar: 'ثلاث دورات في العجلة' },
  { fr: 'Réservé à l’application iOS', de: 'Nur in der iOS-App', en: 'iOS app only', ja: 'iOSアプリ限定', ko: 'iOS 앱 전용', zh: 'iOS App 限定', th: 'เฉพาะแอป iOS', ar: 'لتطبيق iOS فقط' },
  { fr: '20 pièces offertes sur une recharge', de: '20 Münzen geschenkt beim Aufladen', en: '20 extra coins on a top-up', ja: 'チャージで20コインプレゼント', ko: '충전 시 20코인 추가 증정', zh: '儲值加贈 20 代幣', th: 'รับเพิ่ม 20 เหรียญเมื่อเติมเงิน', ar: '20 عملة إضافية عند الشحن' },
]

/** The demo reader's gifts and alerts. */
export const READER = {
  rentGift: { fr: 'Ticket de location offert', de: 'Geschenktes Leihticket', en: 'Free rental ticket', ja: 'プレゼント：レンタルチケット', ko: '선물: 대여권', zh: '贈送：租借券', th: 'ตั๋วเช่าฟรี', ar: 'تذكرة استئجار مجانية' },
  episodeGift: { fr: 'Épisode offert', de: 'Geschenkte Episode', en: 'Free episode', ja: 'プレゼント：1話', ko: '선물: 1회차', zh: '贈送：一話', th: 'ตอนฟรี', ar: 'حلقة مجانية' },
  newEpisode: { fr: 'Nouvel épisode : {series}', de: 'Neue Episode: {series}', en: 'New episode: {series}', ja: '新しい話：{series}', ko: '새 회차: {series}', zh: '新的一話：{series}', th: 'ตอนใหม่: {series}', ar: 'حلقة جديدة: {series}' },
  bonusExpire: { fr: 'Vos pièces bonus expirent bientôt', de: 'Ihre Bonusmünzen verfallen bald', en: 'Your bonus coins expire soon', ja: 'ボーナスコインの期限が近づいています', ko: '보너스 코인이 곧 만료됩니다', zh: '您的紅利代幣即將到期', th: 'เหรียญโบนัสของคุณใกล้หมดอายุ', ar: 'عملاتك الإضافية تنتهي قريبًا' },
  bonusExpireBody: { fr: '20 pièces bonus expirent dans 7 jours.', de: '20 Bonusmünzen verfallen in 7 Tagen.', en: '20 bonus coins expire in 7 days.', ja: 'ボーナスコイン20枚が7日後に失効します。', ko: '보너스 코인 20개가 7일 후 만료됩니다.', zh: '20 紅利代幣將於 7 天後到期。', th: 'เหรียญโบนัส 20 เหรียญจะหมดอายุใน 7 วัน', ar: 'تنتهي 20 عملة إضافية خلال 7 أيام.' },
  giftWaiting: { fr: 'Un cadeau vous attend', de: 'Ein Geschenk wartet auf Sie', en: 'A gift is waiting for you', ja: 'プレゼントが届いています', ko: '선물이 도착했습니다', zh: '您有一份禮物', th: 'มีของขวัญรอคุณอยู่', ar: 'هدية بانتظارك' },
} satisfies Record<string, Texts>

/** Generated alt text of a demo slice without its own description: series, episode, position. */
export function sliceAlt(lang: Lang, series: string, episode: string, n: number, of: number): string {
  switch (lang) {
    case 'fr': return `${series}, ${episode.toLowerCase()}, image ${n} sur ${of}`
    case 'de': return `${series}, ${episode}, Bild ${n} von ${of}`
    case 'en': return `${series}, ${episode}, image ${n} of ${of}`
    case 'ja': return `${series} ${episode}、${of}枚中${n}枚目の画像`
    case 'ko': return `${series} ${episode}, ${of}장 중 ${n}번째 이미지`
    case 'zh': return `${series} ${episode}，第 ${n} 張圖（共 ${of} 張）`
    case 'th': return `${series} ${episode} ภาพที่ ${n} จาก ${of}`
    case 'ar': return `${series}، ${episode}، الصورة ${n} من ${of}`
  }
}
