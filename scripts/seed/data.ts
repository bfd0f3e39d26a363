/**
 * The demo catalogue (docs/API.md "Demo data"), as plain rows and as SQL.
 *
 * PURE and deterministic: no I/O, no Node imports, so the seed script (Node) and the worker tests (workerd)
 * import the same thing. The same options give the same rows; dates are relative to `opts.now`.
 * Passwords are hashed by the caller (`src/lib/server/password.ts`).
 */
import { ftsDocument } from '../../src/lib/text/fts.ts'
import { CARD_IMAGE_WIDTH, type CreatorRole } from '../../src/features/catalogue/catalogue.ts'
import { transcriptJson } from '../../src/features/catalogue/transcript.ts'
import { coverKey, sliceKey } from '../../src/features/catalogue/series-import.ts'
import { NICKNAME_KEY_VERSION, nicknameKey } from '../../src/features/account/profile.ts'
import { demoSliceText } from './transcripts.ts'
import { DAY_MS, HOUR_MS, MINUTE_MS, isoAfter, wallClock } from '../../src/lib/time.ts'
import {
  ACCOUNTS,
  BADGES,
  BANNERS,
  chapterHeading,
  COMMENTS,
  COUPONS,
  EVENTS,
  FAQS,
  NOTICES,
  NOVEL,
  QNAS,
  READER,
  sliceAlt,
  THEMES,
  type Texts,
} from './texts.ts'

/** Bump when the demo data changes: `npm run seed` re-seeds only with `--force` or on a new version. */
export const SEED_VERSION = '8'

/** Widths (px) of every stored rendition, per image kind. R2 object key: `<key>/<width>.webp`. */
export const IMAGE_WIDTHS = {
  slice: [640, 828, 1080],
  cover: [256, 384, 640, CARD_IMAGE_WIDTH],
  banner: [640, 828, 1080],
  icon: [64, 128, 256],
} as const
type DemoImageKind = keyof typeof IMAGE_WIDTHS

/**
 * Logical (CSS px) size of episode slices and covers. The first slice of an episode is its own title card;
 * the next two are the series' recurring panels (same pixels under every episode's keys).
 */
const SLICE_WIDTH = 720
const SLICE_HEIGHTS = [800, 1600, 1200] as const
const COVER_SIZE = { width: 480, height: 640 } as const

/** Demo accounts listed in the README. Their passwords are hashed by the caller. */
export const DEMO_ACCOUNTS = {
  reader: { id: 1, email: 'reader@example.com', password: 'Reader-2026!' },
  minor: { id: 2, email: 'minor@example.com', password: 'Minor-2026!' },
} as const

export type Lang = 'fr' | 'de' | 'en' | 'ja' | 'ko' | 'zh' | 'th' | 'ar'

/** Language of the demo texts for an edition locale ('fr-FR' → fr, 'zh-TW' → zh, unknown → en). */
export function langOf(locale: string | undefined): Lang {
  const l = (locale ?? 'fr').toLowerCase().slice(0, 2)
  return (['fr', 'de', 'en', 'ja', 'ko', 'zh', 'th', 'ar'] as const).find((x) => x === l) ?? 'en'
}

export type BuildDemoOptions = {
  /** ISO 4217 currency of the edition's coin shop (prices are in its minor units). */
  currency: string
  /** Reference time: every date of the demo is relative to it. */
  now: Date
  /** Stored hash of `DEMO_ACCOUNTS.reader.password`. */
  passwordHash: string
  /** Stored hash of `DEMO_ACCOUNTS.minor.password`. */
  minorPasswordHash: string
  /** Edition locale (e.g. 'fr-FR', 'ja-JP'): language of titles and texts. Default fr. */
  locale?: string
  /**
   * Edition time zone (IANA): episodes of a series on a weekly schedule come out at midnight there, on the
   * weekdays its schedule lists. Default Europe/Paris, the fr edition's.
   */
  timeZone?: string
}

/** One image to render and upload; `key` is the R2 prefix, renditions are `<key>/<width>.webp`. */
export type DemoImage = {
  key: string
  kind: DemoImageKind
  /** Logical size (CSS px); renditions keep this aspect ratio. */
  width: number
  height: number
  /** Big text, in the edition's language. */
  label: string
  /** Smaller second line, in the edition's language. */
  sublabel: string
  /** Language of the text: picks the font of its script (scripts/seed/fonts.ts) and, for ar, right to left. */
  lang: Lang
  /** Base hue 0..359 of the drawing. */
  hue: number
  /** Picks one of a few layouts. */
  variant: number
}

type Row = Record<string, string | number | null>

export type DemoCatalogue = {
  /** Rows per table, in insertion order (column names as in migrations/0001_init.sql). */
  tables: Record<string, Row[]>
  /** Multi-row INSERT statements, parents first, ending with the `seed_version` marker. */
  statements: string[]
  /** Every image referenced by the rows (several keys may share identical content). */
  images: DemoImage[]
  counts: Record<string, number>
}

// ───────────────────────────── SQL helpers ─────────────────────────────

/** A SQL literal. Strings are quoted with doubled quotes; only finite numbers pass. */
function sqlValue(v: unknown): string {
  if (v === null || v === undefined) return 'NULL'
  if (typeof v === 'boolean') return v ? '1' : '0'
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`not a finite number: ${v}`)
    return String(v)
  }
  if (typeof v === 'string') {
    if (v.includes('\0')) throw new Error('NUL character in SQL string')
    return `'${v.replace(/'/g, "''")}'`
  }
  throw new Error(`unsupported SQL value: ${typeof v}`)
}

const MAX_STATEMENT_CHARS = 48_000 // D1 accepts 100 KB per statement
const MAX_ROWS_PER_STATEMENT = 250

/** Multi-row INSERTs for `rows` (all with the same keys), split to stay well under D1's statement limit. */
function insertStatements(table: string, rows: Row[]): string[] {
  if (rows.length === 0) return []
  const columns = Object.keys(rows[0]!)
  const head = `INSERT INTO ${table} (${columns.join(', ')}) VALUES\n`
  const out: string[] = []
  let chunk: string[] = []
  let size = head.length
  for (const row of rows) {
    const keys = Object.keys(row)
    if (keys.length !== columns.length || keys.some((k, i) => k !== columns[i])) {
      throw new Error(`${table}: rows do not share the same columns (${keys.join(',')})`)
    }
    const tuple = `(${columns.map((c) => sqlValue(row[c])).join(', ')})`
    if (chunk.length > 0 && (size + tuple.length + 2 > MAX_STATEMENT_CHARS || chunk.length >= MAX_ROWS_PER_STATEMENT)) {
      out.push(head + chunk.join(',\n'))
      chunk = []
      size = head.length
    }
    chunk.push(tuple)
    size += tuple.length + 2
  }
  out.push(head + chunk.join(',\n'))
  return out
}

/**
 * Tables the seed owns, children first: deleting in this order respects the foreign keys.
 * `--force` empties all of them (a dev reset: accounts made by hand go too, as they may own demo episodes).
 */
const SEEDED_TABLES = [
  'coin_ledger',
  'idempotency_keys',
  'ownerships',
  'purchases',
  'wuf_tickets',
  'gifts',
  'coupon_redemptions',
  'coupons',
  'coin_lots',
  // a payment's conversion record and reversals: not seeded, but made by any payment of a local run (their payment's
  // index row goes with its user, so they go first)
  'conversion_events',
  'payment_reversals',
  'payment_events',
  'payments',
  'coin_products',
  'event_entries',
  'event_tickets',
  'events',
  'comment_reactions',
  'comments',
  'user_blocks',
  'banned_words',
  'qnas',
  'alarms',
  'alarm_broadcasts',
  'favorites',
  'reading_progress',
  'push_settings',
  'withdrawals',
  'account_transfers',
  'addresses',
  'rate_limits',
  'one_time_codes',
  'refresh_tokens',
  'identities',
  'outbox',
  'users',
  'theme_series',
  'themes',
  'banners',
  'notices',
  'faqs',
  'episode_images',
  'episodes',
  'schedules',
  'series_tags',
  'tags',
  'series_creators',
  'creators',
  'series_fts',
  'series_daily',
  'series',
] as const

/** Statements that empty every seeded table (the ledger's delete guard is lifted only inside them). */
export function wipeStatements(): string[] {
  return [
    `INSERT OR REPLACE INTO meta (key, value) VALUES ('ledger_maintenance', '1')`,
    ...SEEDED_TABLES.map((t) => `DELETE FROM ${t}`),
    `DELETE FROM meta WHERE key IN ('ledger_maintenance', 'seed_version', 'seed_edition', 'seeded_at')`,
  ]
}

// ───────────────────────────── source data ─────────────────────────────

type Genre = 'ROMANCE' | 'ACTION' | 'DRAMA' | 'FANTASY' | 'COMEDY' | 'BL' | 'THRILLER'
const LANGS: Lang[] = ['fr', 'de', 'en', 'ja', 'ko', 'zh', 'th', 'ar']

/**
 * One line per series: genre, flags, then the title in fr, de, en, ja, ko, zh, th, ar.
 * Flags: C completed, P paused (else scheduled), A adult, T text (novel), W wait-until-free,
 * F FREE-tab promotion, X every ten days (TEN), N new this month, R right-to-left,
 * B buy-only, r rent-only.
 */
const SERIES_SOURCE: [Genre, string, ...string[]][] = [
  [
    'ROMANCE',
    'F W',
    'Un café pour deux',
    'Ein Kaffee für zwei',
    'Coffee for Two',
    '二人のためのコーヒー',
    '둘을 위한 커피',
    '兩人份的咖啡',
    'กาแฟสำหรับสองคน',
    'قهوة لشخصين',
  ],
  [
    'ROMANCE',
    'W X',
    'Le Contrat de mariage',
    'Der Ehevertrag',
    'The Marriage Contract',
    '結婚契約',
    '결혼 계약',
    '婚姻契約',
    'สัญญาแต่งงาน',
    'عقد الزواج',
  ],
  [
    'ROMANCE',
    'C F',
    'Lettres d’un été',
    'Briefe eines Sommers',
    'Letters from a Summer',
    'ある夏の手紙',
    '어느 여름의 편지',
    '某個夏天的信',
    'จดหมายจากฤดูร้อน',
    'رسائل من صيف',
  ],
  [
    'ROMANCE',
    'N',
    'Mon voisin le prince',
    'Mein Nachbar, der Prinz',
    'My Neighbour the Prince',
    '隣の王子様',
    '이웃집 왕자님',
    '我的鄰居是王子',
    'เจ้าชายข้างบ้าน',
    'جاري الأمير',
  ],
  [
    'ROMANCE',
    'X',
    'Sous la pluie de Séoul',
    'Im Regen von Seoul',
    'Under the Seoul Rain',
    'ソウルの雨の下で',
    '서울의 비 아래',
    '首爾的雨下',
    'ใต้สายฝนโซล',
    'تحت مطر سيول',
  ],
  [
    'ROMANCE',
    'A W',
    'La Secrétaire du PDG',
    'Die Sekretärin des CEO',
    'The CEO’s Secretary',
    '社長の秘書',
    '사장님의 비서',
    '總裁的秘書',
    'เลขาของท่านประธาน',
    'سكرتيرة المدير',
  ],
  [
    'ROMANCE',
    'A C',
    'Nuits de velours',
    'Samtnächte',
    'Velvet Nights',
    'ベルベットの夜',
    '벨벳의 밤',
    '天鵝絨之夜',
    'ค่ำคืนกำมะหยี่',
    'ليالي المخمل',
  ],
  [
    'ROMANCE',
    'T C',
    'Le Roman de la libraire',
    'Der Roman der Buchhändlerin',
    'The Bookseller’s Novel',
    '書店員の物語',
    '서점 주인의 소설',
    '書店女孩的故事',
    'นิยายของคนขายหนังสือ',
    'رواية بائعة الكتب',
  ],
  ['ACTION', 'F', 'Lame d’acier', 'Stahlklinge', 'Steel Blade', '鋼の刃', '강철의 검', '鋼之刃', 'ดาบเหล็กกล้า', 'نصل الفولاذ'],
  [
    'ACTION',
    'C W',
    'Le Dernier Chasseur',
    'Der letzte Jäger',
    'The Last Hunter',
    '最後のハンター',
    '마지막 사냥꾼',
    '最後的獵人',
    'นักล่าคนสุดท้าย',
    'الصياد الأخير',
  ],
  ['ACTION', 'P', 'Niveau 99', 'Level 99', 'Level 99', 'レベル99', '레벨 99', '等級99', 'เลเวล 99', 'المستوى 99'],
  [
    'ACTION',
    'B',
    'Poings de la rue',
    'Fäuste der Straße',
    'Street Fists',
    'ストリートの拳',
    '거리의 주먹',
    '街頭之拳',
    'หมัดข้างถนน',
    'قبضات الشارع',
  ],
  [
    'ACTION',
    'C',
    'Opération Minuit',
    'Operation Mitternacht',
    'Operation Midnight',
    '真夜中作戦',
    '자정 작전',
    '午夜行動',
    'ปฏิบัติการเที่ยงคืน',
    'عملية منتصف الليل',
  ],
  [
    'ACTION',
    'W F',
    'Le Donjon infini',
    'Der endlose Dungeon',
    'The Endless Dungeon',
    '無限ダンジョン',
    '무한 던전',
    '無盡地下城',
    'ดันเจี้ยนไร้สิ้นสุด',
    'الزنزانة اللانهائية',
  ],
  [
    'ACTION',
    'A',
    'Sang et Honneur',
    'Blut und Ehre',
    'Blood and Honour',
    '血と名誉',
    '피와 명예',
    '血與榮譽',
    'เลือดและเกียรติยศ',
    'الدم والشرف',
  ],
  [
    'ACTION',
    'r',
    'Le Héros à la retraite',
    'Der Held im Ruhestand',
    'The Retired Hero',
    '引退した英雄',
    '은퇴한 영웅',
    '退休的英雄',
    'ฮีโร่เกษียณ',
    'البطل المتقاعد',
  ],
  [
    'DRAMA',
    '',
    'Les Enfants du port',
    'Die Kinder des Hafens',
    'Children of the Harbour',
    '港の子どもたち',
    '항구의 아이들',
    '港口的孩子們',
    'เด็ก ๆ แห่งท่าเรือ',
    'أطفال الميناء',
  ],
  [
    'DRAMA',
    'C',
    'L’Hôpital du bout du monde',
    'Das Krankenhaus am Ende der Welt',
    'The Hospital at World’s End',
    '世界の果ての病院',
    '세상 끝의 병원',
    '世界盡頭的醫院',
    'โรงพยาบาลสุดขอบโลก',
    'مستشفى آخر العالم',
  ],
  [
    'DRAMA',
    'X',
    'Dernière Année',
    'Das letzte Schuljahr',
    'Senior Year',
    '最後の一年',
    '마지막 학년',
    '最後一年',
    'ปีสุดท้าย',
    'السنة الأخيرة',
  ],
  [
    'DRAMA',
    'C F',
    'La Maison des Moreau',
    'Das Haus der Moreaus',
    'The Moreau House',
    'モロー家の屋敷',
    '모로 가의 저택',
    '莫羅家的房子',
    'บ้านตระกูลโมโร',
    'بيت عائلة مورو',
  ],
  ['DRAMA', 'A B', 'Le Procès', 'Der Prozess', 'The Trial', '裁判', '재판', '審判', 'การพิจารณาคดี', 'المحاكمة'],
  [
    'DRAMA',
    'T',
    'Cendres de la ville',
    'Asche der Stadt',
    'Ashes of the City',
    '街の灰',
    '도시의 재',
    '城市的灰燼',
    'เถ้าถ่านแห่งนคร',
    'رماد المدينة',
  ],
  [
    'DRAMA',
    'P',
    'Le Chef étoilé',
    'Der Sternekoch',
    'The Star Chef',
    '星付きシェフ',
    '스타 셰프',
    '星級主廚',
    'เชฟดาวมิชลิน',
    'الطاهي النجم',
  ],
  [
    'FANTASY',
    'W F',
    'La Reine des ombres',
    'Die Schattenkönigin',
    'The Shadow Queen',
    '影の女王',
    '그림자 여왕',
    '影之女王',
    'ราชินีแห่งเงา',
    'ملكة الظلال',
  ],
  [
    'FANTASY',
    'N',
    'L’Académie des mages',
    'Die Akademie der Magier',
    'The Mage Academy',
    '魔術師アカデミー',
    '마법사 아카데미',
    '魔法師學院',
    'สถาบันจอมเวท',
    'أكاديمية السحرة',
  ],
  [
    'FANTASY',
    'C R',
    'Le Dragon de papier',
    'Der Papierdrache',
    'The Paper Dragon',
    '紙のドラゴン',
    '종이 드래곤',
    '紙龍',
    'มังกรกระดาษ',
    'تنين الورق',
  ],
  [
    'FANTASY',
    'W',
    'Renaître en duchesse',
    'Als Herzogin wiedergeboren',
    'Reborn as a Duchess',
    '公爵令嬢に転生',
    '공작 영애로 환생',
    '重生為公爵千金',
    'เกิดใหม่เป็นดัชเชส',
    'ولادة جديدة كدوقة',
  ],
  [
    'FANTASY',
    'X',
    'Le Gardien de la forêt',
    'Der Hüter des Waldes',
    'The Forest Keeper',
    '森の守り人',
    '숲의 수호자',
    '森林守護者',
    'ผู้พิทักษ์ป่า',
    'حارس الغابة',
  ],
  [
    'FANTASY',
    'B',
    'Sorcière à louer',
    'Hexe zu vermieten',
    'Witch for Hire',
    '貸し出し魔女',
    '임대 마녀',
    '出租魔女',
    'แม่มดให้เช่า',
    'ساحرة للإيجار',
  ],
  [
    'FANTASY',
    'A W',
    'Le Pacte du démon',
    'Der Pakt des Dämons',
    'The Demon’s Pact',
    '悪魔の契約',
    '악마의 계약',
    '惡魔的契約',
    'พันธสัญญาปีศาจ',
    'عهد الشيطان',
  ],
  [
    'COMEDY',
    'F',
    'Mon chat est un dieu',
    'Meine Katze ist ein Gott',
    'My Cat Is a God',
    'うちの猫は神様',
    '우리 고양이는 신',
    '我家的貓是神',
    'แมวของฉันคือพระเจ้า',
    'قطي إله',
  ],
  [
    'COMEDY',
    'R',
    'Colocs en panique',
    'Panik-WG',
    'Roommates in Panic',
    'パニックなルームメイト',
    '패닉 룸메이트',
    '慌張室友',
    'รูมเมทป่วน',
    'رفاق سكن في ذعر',
  ],
  [
    'COMEDY',
    'C',
    'Le Bureau des catastrophes',
    'Das Büro der Katastrophen',
    'The Office of Disasters',
    '災難オフィス',
    '재난 사무실',
    '災難辦公室',
    'ออฟฟิศป่วนโลก',
    'مكتب الكوارث',
  ],
  [
    'COMEDY',
    'W',
    'Papa est un super-vilain',
    'Papa ist ein Superschurke',
    'Dad Is a Supervillain',
    'パパはスーパーヴィラン',
    '아빠는 슈퍼 악당',
    '爸爸是超級反派',
    'พ่อเป็นซูเปอร์วายร้าย',
    'أبي شرير خارق',
  ],
  [
    'COMEDY',
    'X F',
    'La Boulangerie des fantômes',
    'Die Geisterbäckerei',
    'The Ghost Bakery',
    'お化けパン屋',
    '유령 빵집',
    '幽靈麵包店',
    'ร้านขนมปังผี',
    'مخبز الأشباح',
  ],
  [
    'COMEDY',
    'P',
    'Stagiaire pour toujours',
    'Praktikant für immer',
    'Intern Forever',
    '永遠のインターン',
    '영원한 인턴',
    '永遠的實習生',
    'เด็กฝึกงานตลอดกาล',
    'متدرب إلى الأبد',
  ],
  ['BL', 'W', 'Deux rives', 'Zwei Ufer', 'Two Shores', '二つの岸', '두 개의 강변', '兩岸', 'สองฝั่ง', 'ضفتان'],
  [
    'BL',
    'C',
    'Le Pianiste et le boxeur',
    'Der Pianist und der Boxer',
    'The Pianist and the Boxer',
    'ピアニストとボクサー',
    '피아니스트와 복서',
    '鋼琴家與拳擊手',
    'นักเปียโนกับนักมวย',
    'عازف البيانو والملاكم',
  ],
  [
    'BL',
    'F N',
    'Mon rival, mon colocataire',
    'Mein Rivale, mein Mitbewohner',
    'My Rival, My Roommate',
    'ライバルでルームメイト',
    '라이벌이자 룸메이트',
    '我的對手我的室友',
    'คู่แข่งรูมเมท',
    'منافسي وشريكي في السكن',
  ],
  ['BL', 'A', 'Chaleur d’hiver', 'Winterglut', 'Winter Heat', '冬の熱', '겨울의 열기', '冬日熱度', 'ความร้อนแห่งฤดูหนาว', 'حرارة الشتاء'],
  [
    'BL',
    'X',
    'Le Prince et le chevalier',
    'Der Prinz und der Ritter',
    'The Prince and the Knight',
    '王子と騎士',
    '왕자와 기사',
    '王子與騎士',
    'เจ้าชายกับอัศวิน',
    'الأمير والفارس',
  ],
  [
    'BL',
    'A B',
    'Sérénade en coulisses',
    'Serenade hinter der Bühne',
    'Backstage Serenade',
    '舞台裏のセレナーデ',
    '무대 뒤의 세레나데',
    '後台小夜曲',
    'เซเรเนดหลังเวที',
    'سيرينادة خلف الكواليس',
  ],
  [
    'THRILLER',
    'r N',
    'Le Détective de minuit',
    'Der Mitternachtsdetektiv',
    'The Midnight Detective',
    '真夜中の探偵',
    '자정의 탐정',
    '午夜偵探',
    'นักสืบเที่ยงคืน',
    'محقق منتصف الليل',
  ],
  [
    'FANTASY',
    'T',
    'Chroniques du royaume d’Ys',
    'Chroniken des Königreichs Ys',
    'Chronicles of the Kingdom of Ys',
    'イス王国年代記',
    '이스 왕국 연대기',
    '伊斯王國編年史',
    'พงศาวดารอาณาจักรอีส',
    'سجلات مملكة إيس',
  ],
]

const GENRE_NAMES: Record<Genre, Record<Lang, string>> = {
  ROMANCE: { fr: 'romance', de: 'Romance', en: 'romance', ja: '恋愛', ko: '로맨스', zh: '愛情', th: 'โรแมนซ์', ar: 'رومانسي' },
  ACTION: { fr: 'action', de: 'Action', en: 'action', ja: 'アクション', ko: '액션', zh: '動作', th: 'แอ็กชัน', ar: 'أكشن' },
  DRAMA: { fr: 'drame', de: 'Drama', en: 'drama', ja: 'ドラマ', ko: '드라마', zh: '劇情', th: 'ดราม่า', ar: 'دراما' },
  FANTASY: { fr: 'fantasy', de: 'Fantasy', en: 'fantasy', ja: 'ファンタジー', ko: '판타지', zh: '奇幻', th: 'แฟนตาซี', ar: 'فانتازيا' },
  COMEDY: { fr: 'comédie', de: 'Komödie', en: 'comedy', ja: 'コメディ', ko: '코미디', zh: '喜劇', th: 'คอมเมดี้', ar: 'كوميديا' },
  BL: { fr: 'BL', de: 'BL', en: 'BL', ja: 'BL', ko: 'BL', zh: 'BL', th: 'BL', ar: 'BL' },
  THRILLER: { fr: 'thriller', de: 'Thriller', en: 'thriller', ja: 'サスペンス', ko: '스릴러', zh: '驚悚', th: 'ระทึกขวัญ', ar: 'إثارة' },
}

const BLURBS: Record<'fr' | 'en', Record<Genre, string>> = {
  fr: {
    ROMANCE: 'Deux cœurs que tout oppose apprennent à se faire confiance, un chapitre après l’autre.',
    ACTION: 'Combats, trahisons et alliances improbables : chaque épisode se termine sur un coup d’éclat.',
    DRAMA: 'Une chronique sensible de vies ordinaires qui basculent, portée par des personnages inoubliables.',
    FANTASY: 'Magie ancienne, royaumes en guerre et un destin qui se dessine à chaque page.',
    COMEDY: 'Des situations absurdes, des répliques qui font mouche et beaucoup de cœur.',
    BL: 'Une histoire d’amour entre deux hommes, tendre, drôle et parfois bouleversante.',
    THRILLER: 'Une enquête haletante dans une ville où chacun cache quelque chose.',
  },
  en: {
    ROMANCE: 'Two hearts that disagree on everything learn to trust each other, one chapter at a time.',
    ACTION: 'Fights, betrayals and unlikely alliances: every episode ends with a bang.',
    DRAMA: 'A tender chronicle of ordinary lives turned upside down, carried by unforgettable characters.',
    FANTASY: 'Ancient magic, kingdoms at war and a destiny drawn page after page.',
    COMEDY: 'Absurd situations, sharp one-liners and a lot of heart.',
    BL: 'A love story between two men, tender, funny and sometimes heartbreaking.',
    THRILLER: 'A breathless investigation in a city where everyone hides something.',
  },
}

/** How often an ongoing series comes out (its schedule). */
type Cadence = 'daily' | 'weekly' | 'twice' | 'ten'
const CADENCE: Record<'fr' | 'en', Record<Cadence, string>> = {
  fr: {
    daily: 'Un nouvel épisode chaque jour.',
    weekly: 'Un nouvel épisode chaque semaine.',
    twice: 'Deux nouveaux épisodes chaque semaine.',
    ten: 'Un nouvel épisode tous les dix jours.',
  },
  en: {
    daily: 'A new episode every day.',
    weekly: 'A new episode every week.',
    twice: 'Two new episodes every week.',
    ten: 'A new episode every ten days.',
  },
}

function describe(lang: Lang, genre: Genre, status: string, cadence: Cadence): string {
  const g = GENRE_NAMES[genre][lang]
  switch (lang) {
    case 'fr':
      return `${BLURBS.fr[genre]} ${status === 'COMPLETED' ? 'Série terminée : à lire d’une traite.' : status === 'PAUSED' ? 'La série fait une pause.' : CADENCE.fr[cadence]}`
    case 'en':
      return `${BLURBS.en[genre]} ${status === 'COMPLETED' ? 'Completed: read it in one go.' : status === 'PAUSED' ? 'On a break.' : CADENCE.en[cadence]}`
    case 'de':
      return `Eine ${g}-Serie voller Überraschungen.`
    case 'ja':
      return `人気の${g}作品。`
    case 'ko':
      return `인기 ${g} 작품.`
    case 'zh':
      return `人氣${g}作品。`
    case 'th':
      return `ผลงานแนว${g}ยอดนิยม`
    case 'ar':
      return `عمل ${g} محبوب.`
  }
}

function episodeTitle(lang: Lang, no: number): string {
  switch (lang) {
    case 'fr':
      return `Épisode ${no}`
    case 'de':
    case 'en':
      return `Episode ${no}`
    case 'ja':
    case 'zh':
      return `第${no}話`
    case 'ko':
      return `${no}화`
    case 'th':
      return `ตอนที่ ${no}`
    case 'ar':
      return `الحلقة ${no}`
  }
}

/** Tag names per language (one language per database, so names are unique). */
const TAGS: Record<string, Record<Lang, string>> = {
  revenge: { fr: 'Vengeance', de: 'Rache', en: 'Revenge', ja: '復讐', ko: '복수', zh: '復仇', th: 'แก้แค้น', ar: 'انتقام' },
  office: { fr: 'Bureau', de: 'Büro', en: 'Office', ja: 'オフィス', ko: '오피스', zh: '職場', th: 'ออฟฟิศ', ar: 'مكتب' },
  school: { fr: 'Lycée', de: 'Schule', en: 'School', ja: '学園', ko: '학원', zh: '校園', th: 'โรงเรียน', ar: 'مدرسة' },
  reincarnation: {
    fr: 'Réincarnation',
    de: 'Wiedergeburt',
    en: 'Reincarnation',
    ja: '転生',
    ko: '환생',
    zh: '轉生',
    th: 'เกิดใหม่',
    ar: 'تناسخ',
  },
  magic: { fr: 'Magie', de: 'Magie', en: 'Magic', ja: '魔法', ko: '마법', zh: '魔法', th: 'เวทมนตร์', ar: 'سحر' },
  royalty: { fr: 'Royauté', de: 'Königshaus', en: 'Royalty', ja: '王族', ko: '왕족', zh: '王室', th: 'ราชวงศ์', ar: 'ملوك' },
  martial: {
    fr: 'Arts martiaux',
    de: 'Kampfkunst',
    en: 'Martial arts',
    ja: '武術',
    ko: '무협',
    zh: '武術',
    th: 'ศิลปะการต่อสู้',
    ar: 'فنون قتالية',
  },
  game: { fr: 'Jeu vidéo', de: 'Videospiel', en: 'Game world', ja: 'ゲーム', ko: '게임', zh: '遊戲', th: 'เกม', ar: 'ألعاب' },
  slowburn: {
    fr: 'Slow burn',
    de: 'Langsame Liebe',
    en: 'Slow burn',
    ja: 'じれじれ',
    ko: '슬로우번',
    zh: '慢熱',
    th: 'ค่อยเป็นค่อยไป',
    ar: 'حب بطيء',
  },
  family: { fr: 'Famille', de: 'Familie', en: 'Family', ja: '家族', ko: '가족', zh: '家庭', th: 'ครอบครัว', ar: 'عائلة' },
  cooking: { fr: 'Cuisine', de: 'Kochen', en: 'Cooking', ja: '料理', ko: '요리', zh: '美食', th: 'ทำอาหาร', ar: 'طبخ' },
  animals: { fr: 'Animaux', de: 'Tiere', en: 'Animals', ja: '動物', ko: '동물', zh: '動物', th: 'สัตว์', ar: 'حيوانات' },
  monsters: { fr: 'Monstres', de: 'Monster', en: 'Monsters', ja: 'モンスター', ko: '몬스터', zh: '怪物', th: 'มอนสเตอร์', ar: 'وحوش' },
  mystery: { fr: 'Mystère', de: 'Rätsel', en: 'Mystery', ja: 'ミステリー', ko: '미스터리', zh: '懸疑', th: 'ปริศนา', ar: 'غموض' },
  historical: { fr: 'Historique', de: 'Historisch', en: 'Historical', ja: '時代劇', ko: '사극', zh: '古裝', th: 'ย้อนยุค', ar: 'تاريخي' },
  music: { fr: 'Musique', de: 'Musik', en: 'Music', ja: '音楽', ko: '음악', zh: '音樂', th: 'ดนตรี', ar: 'موسيقى' },
  sport: { fr: 'Sport', de: 'Sport', en: 'Sports', ja: 'スポーツ', ko: '스포츠', zh: '運動', th: 'กีฬา', ar: 'رياضة' },
  contract: {
    fr: 'Mariage arrangé',
    de: 'Vernunftehe',
    en: 'Contract marriage',
    ja: '契約結婚',
    ko: '계약 결혼',
    zh: '契約婚姻',
    th: 'แต่งงานตามสัญญา',
    ar: 'زواج مدبر',
  },
  healing: { fr: 'Feel good', de: 'Wohlfühlen', en: 'Healing', ja: '癒し', ko: '힐링', zh: '療癒', th: 'ฮีลใจ', ar: 'دافئ' },
  hero: {
    fr: 'Super-héros',
    de: 'Superheld',
    en: 'Superheroes',
    ja: 'ヒーロー',
    ko: '히어로',
    zh: '超級英雄',
    th: 'ซูเปอร์ฮีโร่',
    ar: 'أبطال خارقون',
  },
}
const TAG_KEYS = Object.keys(TAGS)
const TAG_POOLS: Record<Genre, string[]> = {
  ROMANCE: ['contract', 'office', 'slowburn', 'royalty', 'healing', 'school'],
  ACTION: ['martial', 'game', 'monsters', 'hero', 'revenge'],
  DRAMA: ['family', 'mystery', 'school', 'cooking', 'music'],
  FANTASY: ['magic', 'reincarnation', 'royalty', 'monsters', 'historical'],
  COMEDY: ['animals', 'office', 'family', 'hero', 'cooking', 'healing'],
  BL: ['slowburn', 'music', 'sport', 'school', 'royalty'],
  THRILLER: ['mystery', 'revenge', 'family'],
}

/**
 * Creators of the demo, as each edition's readers would find them credited: names of its language, written in its
 * script (28 per language, the same index in every language; the last two are studios).
 */
const CREATOR_NAMES: Record<Lang, string[]> = {
  fr: [
    'Camille Durand',
    'Jin Seo-yeon',
    'Hugo Lefèvre',
    'Mina Park',
    'Léa Martin',
    'Kenji Mori',
    'Sarah Benali',
    'Lucas Moreau',
    'Yuna Choi',
    'Inès Garnier',
    'Théo Rousseau',
    'Aiko Tanaka',
    'Nora Haddad',
    'Maël Fournier',
    'Hana Kim',
    'Julien Blanc',
    'Chloé Mercier',
    'Rei Watanabe',
    'Amira Khalil',
    'Paul Girard',
    'Soo-ah Lee',
    'Zoé Lambert',
    'Tomás Ribeiro',
    'Élise Fontaine',
    'Ryo Sato',
    'Anaïs Petit',
    'Studio Lune',
    'Atelier Nova',
  ],
  de: [
    'Lena Schneider',
    'Jonas Becker',
    'Mia Hoffmann',
    'Lukas Wagner',
    'Emma Schäfer',
    'Felix Neumann',
    'Hannah Krüger',
    'Paul Schröder',
    'Sophie Wolf',
    'Leon Braun',
    'Marie Zimmermann',
    'Ben Hartmann',
    'Clara Lange',
    'Elias Krause',
    'Lina Meier',
    'Noah Köhler',
    'Ida Vogel',
    'Finn Jäger',
    'Greta Sommer',
    'Moritz Fuchs',
    'Jana Weiß',
    'Tim Böhm',
    'Anna Lorenz',
    'Max Engel',
    'Frieda Roth',
    'Oskar Brandt',
    'Studio Mond',
    'Atelier Nova',
  ],
  en: [
    'Emily Carter',
    'James Walker',
    'Olivia Bennett',
    'Daniel Hughes',
    'Grace Turner',
    'Samuel Brooks',
    'Chloe Morgan',
    'Henry Collins',
    'Lucy Parker',
    'Jack Foster',
    'Ella Richardson',
    'Oliver Reed',
    'Amelia Cooper',
    'Thomas Gray',
    'Isla Ward',
    'Noah Mitchell',
    'Ruby Evans',
    'Leo Harris',
    'Sophie Price',
    'Harry Wood',
    'Mia Russell',
    'George Kelly',
    'Lily Howard',
    'Adam Fisher',
    'Zoe Palmer',
    'Ethan Lloyd',
    'Moon Studio',
    'Nova Workshop',
  ],
  ja: [
    '佐藤美咲',
    '高橋蓮',
    '田中陽菜',
    '渡辺湊',
    '伊藤結衣',
    '山本大翔',
    '中村さくら',
    '小林悠真',
    '加藤葵',
    '吉田樹',
    '山田莉子',
    '松本颯太',
    '井上美月',
    '木村陸',
    '林芽依',
    '清水海斗',
    '山口彩花',
    '森健二',
    '池田愛子',
    '橋本翔',
    '石川菜々',
    '前田涼',
    '藤田琴音',
    '岡田蒼',
    '後藤玲奈',
    '長谷川亮',
    'スタジオ・ルナ',
    'アトリエ・ノヴァ',
  ],
  ko: [
    '김하나',
    '이서연',
    '박지훈',
    '최유나',
    '정민준',
    '강수아',
    '조현우',
    '윤지아',
    '장도윤',
    '임서진',
    '한예린',
    '오준서',
    '서하은',
    '신우진',
    '권나연',
    '황시우',
    '안채원',
    '송태민',
    '류지민',
    '전하린',
    '홍승현',
    '고은비',
    '문재원',
    '양소윤',
    '배준혁',
    '백다인',
    '스튜디오 루나',
    '아틀리에 노바',
  ],
  zh: [
    '陳怡君',
    '林志明',
    '黃雅婷',
    '張家豪',
    '李佳穎',
    '王俊傑',
    '吳欣怡',
    '劉冠宇',
    '蔡宜蓁',
    '楊承翰',
    '許書婷',
    '鄭宇軒',
    '謝佩珊',
    '郭柏宏',
    '洪詩涵',
    '曾建宏',
    '邱心怡',
    '廖子揚',
    '賴思妤',
    '周品睿',
    '徐雨涵',
    '蘇哲維',
    '葉芷晴',
    '莊明哲',
    '呂晴',
    '江翊',
    '月光工作室',
    '新星畫室',
  ],
  th: [
    'สมชาย ใจดี',
    'นภัส วงศ์ทอง',
    'กิตติพัฒน์ ศรีสุข',
    'ปิยะนุช แก้วมณี',
    'ธนากร บุญมา',
    'อรอุมา รัตนพงศ์',
    'วีรภัทร ทองดี',
    'ชนิดา พรหมมา',
    'ณัฐวุฒิ สุขสวัสดิ์',
    'พิมพ์ชนก จันทร์เพ็ญ',
    'ภูมิ มั่นคง',
    'กมลชนก สายทอง',
    'อนุชา เพชรรัตน์',
    'ศิริพร ใจงาม',
    'ปกรณ์ ทรัพย์มาก',
    'วรรณา ศักดิ์ดี',
    'เจษฎา ประเสริฐ',
    'สุภาวดี มีสุข',
    'ธีรเดช แสงทอง',
    'มาลัย ดวงแก้ว',
    'ชยพล รุ่งเรือง',
    'ลลิตา อินทร์แก้ว',
    'ศุภชัย วงศ์ใหญ่',
    'พรทิพย์ บุญเรือง',
    'ก้อง ทองคำ',
    'ดารา นาคสุข',
    'สตูดิโอลูน่า',
    'อาเทลิเย่โนวา',
  ],
  ar: [
    'نورة الحداد',
    'سارة بن علي',
    'أمير خليل',
    'ليلى منصور',
    'يوسف العمري',
    'مريم الشامي',
    'كريم ناصر',
    'هدى السيد',
    'عمر الفاسي',
    'ريم القاسم',
    'طارق حمدان',
    'سلمى عيسى',
    'خالد الزين',
    'فاطمة الراشد',
    'حسن المصري',
    'دينا عبد الله',
    'زياد الحسيني',
    'رنا يوسف',
    'سامي جابر',
    'لينا حداد',
    'ماجد الخطيب',
    'ياسمين عادل',
    'بلال صالح',
    'نادية فؤاد',
    'رامي قاسم',
    'جود الأحمد',
    'استوديو القمر',
    'مرسم نوفا',
  ],
}
/** Creators per language (every list has this many). */
const CREATOR_COUNT = 28
const ROLE_PATTERNS: CreatorRole[][] = [
  ['WRITER', 'ARTIST'],
  ['AUTHOR', 'ADAPTER'],
  ['ORIGINAL', 'ADAPTER', 'ARTIST'],
  ['WRITER', 'ARTIST', 'ORIGINAL'],
]

const WEEKDAYS = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'] as const

/** The series whose newest episode comes out 5 minutes before seeding (a favourite of the demo reader, issue 13). */
const JUST_OUT_SERIES = 24

// ───────────────────────────── local days (the edition's time zone) ─────────────────────────────

/** How far the wall clock of `timeZone` is ahead of UTC at instant `t` (ms; negative west of Greenwich). */
function zoneOffset(timeZone: string, t: number): number {
  const c = wallClock(t, timeZone)
  return Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second) - Math.floor(t / 1000) * 1000
}

/** The local calendar day of instant `t`, as a day number (days since 1970-01-01). */
function localDayOf(timeZone: string, t: number): number {
  return Math.floor((t + zoneOffset(timeZone, t)) / DAY_MS)
}

/** The instant of local midnight starting day number `day` (twice corrected, so a DST change in between is taken into account). */
function localMidnight(timeZone: string, day: number): number {
  const wall = day * DAY_MS
  const guess = wall - zoneOffset(timeZone, wall)
  return wall - zoneOffset(timeZone, guess)
}

/** Index in WEEKDAYS of day number `day` (1970-01-01 was a Thursday). */
const weekdayOfDay = (day: number) => (((day + 4) % 7) + 7) % 7

/**
 * The publication instants of the `count` latest episodes of a series that comes out at local midnight on
 * `weekdays` (indices in WEEKDAYS), the newest at most `latest`, oldest first; and the next such instant after `now`.
 */
function weeklyReleases(
  timeZone: string,
  weekdays: ReadonlySet<number>,
  count: number,
  latest: number,
  now: number,
): { times: number[]; next: number } {
  const times: number[] = []
  for (let day = localDayOf(timeZone, latest); times.length < count; day--) {
    if (!weekdays.has(weekdayOfDay(day))) continue
    const t = localMidnight(timeZone, day)
    if (t <= latest) times.push(t)
  }
  let day = localDayOf(timeZone, now)
  while (!weekdays.has(weekdayOfDay(day)) || localMidnight(timeZone, day) <= now) day++
  return { times: times.reverse(), next: localMidnight(timeZone, day) }
}

/** Coin shop prices in minor units per currency: welcome, 10, 30, 50, 100, 300, flash (sold out). */
const PRICES: Record<string, number[]> = {
  EUR: [99, 199, 499, 799, 1499, 3999, 2499],
  USD: [99, 199, 499, 799, 1499, 3999, 2499],
  JPY: [160, 320, 800, 1300, 2400, 6400, 4000],
  KRW: [1400, 2800, 7000, 11000, 21000, 56000, 35000],
  THB: [3500, 6900, 17500, 27900, 52500, 139900, 87500],
  TWD: [3000, 6000, 15000, 24000, 45000, 120000, 75000],
}

/** Small seeded PRNG (mulberry32): the same seed gives the same catalogue. */
function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

// ───────────────────────────── the builder ─────────────────────────────

/** Builds the whole demo: catalogue, shop, events, content pages and the two demo accounts. */
export function buildDemo(opts: BuildDemoOptions): DemoCatalogue {
  const { now, passwordHash, minorPasswordHash } = opts
  const currency = opts.currency.toUpperCase()
  if (!/^[A-Z]{3}$/.test(currency)) throw new Error(`currency must be an ISO 4217 code, got "${opts.currency}"`)
  if (Number.isNaN(now.getTime())) throw new Error('now must be a valid date')
  const lang = langOf(opts.locale)
  const tl = (texts: Texts, series = '') => texts[lang].replace('{series}', series) // short texts in every language (texts.ts)
  const timeZone = opts.timeZone ?? 'Europe/Paris'
  const digits = new Intl.NumberFormat(opts.locale ?? 'fr-FR', { useGrouping: false })
  const t0 = now.getTime()
  const at = (ms: number) => isoAfter(now, ms)
  const rand = prng(20261122)

  const tables: Record<string, Row[]> = {}
  const push = (table: string, row: Row) => (tables[table] ??= []).push(row)
  const images: DemoImage[] = []

  // Creators and tags
  const creatorNames = CREATOR_NAMES[lang]
  creatorNames.forEach((name, i) => push('creators', { id: i + 1, name, created_at: at(-800 * DAY_MS) }))
  TAG_KEYS.forEach((key, i) =>
    push('tags', { id: i + 1, name: TAGS[key]![lang], is_recommended: i % 3 === 0 ? 1 : 0, search_count: 1000 - i * 37 }),
  )

  // Series, episodes, slices
  let episodeId = 0
  const scheduledOnDay: Record<string, number> = {}
  let scheduledIndex = 0
  const titleOf = new Map<number, string>()
  SERIES_SOURCE.forEach(([genre, flagText, ...titles], index) => {
    const id = index + 1
    const flags = new Set(flagText.split(' ').filter(Boolean))
    const title = titles[LANGS.indexOf(lang)]!
    titleOf.set(id, title)
    const status = flags.has('C') ? 'COMPLETED' : flags.has('P') ? 'PAUSED' : 'SCHEDULED'
    const isText = flags.has('T')
    const isAdult = flags.has('A')
    const isBl = genre === 'BL'
    const ten = flags.has('X')
    const isNew = flags.has('N')
    const hue = (id * 47) % 360
    const count = 10 + (id % 5)
    // Schedule: a new series comes out daily, a ten-day one every ten days, the other ongoing ones on one weekday
    // (every sixth on two); the series of the demo's new episode on the weekday it comes out.
    const weekdays = new Set<number>()
    if (status === 'SCHEDULED' && !ten) {
      if (isNew) for (let d = 0; d < 7; d++) weekdays.add(d)
      else if (id === JUST_OUT_SERIES) weekdays.add(weekdayOfDay(localDayOf(timeZone, t0 - 5 * MINUTE_MS)))
      else {
        weekdays.add(scheduledIndex % 7)
        if (scheduledIndex % 6 === 0) weekdays.add((scheduledIndex + 3) % 7)
      }
      scheduledIndex++
    }
    const interval = ten ? 10 * DAY_MS : status === 'COMPLETED' ? 3 * DAY_MS : 7 * DAY_MS
    let lastAt =
      status === 'SCHEDULED'
        ? t0 - (id % 7) * DAY_MS - 2 * HOUR_MS
        : status === 'PAUSED'
          ? t0 - (60 + id) * DAY_MS
          : t0 - (120 + id * 5) * DAY_MS
    // Publication instants, oldest first, and the next planned one: the weekdays of the schedule at local midnight
    // (so the schedule lists the days its episodes came out on), else every `interval`.
    let releases = Array.from({ length: count }, (_, k) => lastAt - (count - 1 - k) * interval)
    let nextAt: number | null = status === 'SCHEDULED' ? lastAt + interval : null
    if (weekdays.size > 0) {
      const latest = id === JUST_OUT_SERIES ? t0 - 5 * MINUTE_MS : t0
      const weekly = weeklyReleases(timeZone, weekdays, count, latest, t0)
      releases = weekly.times
      if (id === JUST_OUT_SERIES) releases[count - 1] = latest // its day's episode, 5 minutes ago rather than at midnight
      nextAt = weekly.next
      lastAt = releases[count - 1]!
    }
    const firstAt = releases[0]!
    const freeCount = flags.has('F') ? 5 : isAdult ? 1 : isText ? 3 : 2 + (id % 2)
    const rank = Math.round(20_000 + rand() * 70_000 + (id === 24 ? 30_000 : 0))
    const sale = flags.has('B') ? 'BUY' : flags.has('r') ? 'RENT' : 'BOTH'
    const rent = isText ? 1 : isAdult ? 3 : 2
    const buy = isText ? 2 : isAdult ? 5 : 4

    push('series', {
      id,
      title,
      description: describe(lang, genre, status, ten ? 'ten' : weekdays.size === 7 ? 'daily' : weekdays.size > 1 ? 'twice' : 'weekly'),
      type: isText ? 'TEXT' : 'IMAGE',
      status,
      is_adult: isAdult ? 1 : 0,
      is_bl: isBl ? 1 : 0,
      genre,
      cover_key: coverKey(id),
      cover_width: COVER_SIZE.width,
      cover_height: COVER_SIZE.height,
      reading_direction: flags.has('R') ? 'rtl' : 'ltr',
      wuf_hours: flags.has('W') ? (id % 2 === 0 ? 72 : 24) : null,
      free_promo: flags.has('F') ? 1 : 0,
      rank_score: rank,
      view_count: rank * 7,
      episode_count: count,
      free_episode_count: freeCount,
      launched_at: at(firstAt - t0),
      last_episode_at: at(lastAt - t0),
      next_update_at: nextAt === null ? null : at(nextAt - t0),
      is_published: 1,
      created_at: at(firstAt - t0 - DAY_MS),
      updated_at: at(lastAt - t0),
    })
    images.push({
      key: coverKey(id),
      kind: 'cover',
      width: COVER_SIZE.width,
      height: COVER_SIZE.height,
      label: title,
      sublabel: GENRE_NAMES[genre][lang].toLocaleUpperCase(opts.locale ?? 'fr-FR'),
      lang,
      hue,
      variant: id % 4,
    })

    // Creators: two or three roles, creators shared between series.
    const pattern = isText ? (['AUTHOR', 'ARTIST'] as CreatorRole[]) : ROLE_PATTERNS[id % ROLE_PATTERNS.length]!
    const credited: string[] = []
    const used = new Set<number>()
    pattern.forEach((role, position) => {
      let creator = 1 + Math.floor(rand() * CREATOR_COUNT)
      while (used.has(creator)) creator = (creator % CREATOR_COUNT) + 1
      used.add(creator)
      credited.push(creatorNames[creator - 1]!)
      push('series_creators', { series_id: id, creator_id: creator, role, position })
    })

    // Tags: three from the genre's pool.
    const pool = [...TAG_POOLS[genre]]
    const tagNames: string[] = []
    for (let k = 0; k < 3 && pool.length; k++) {
      const key = pool.splice(Math.floor(rand() * pool.length), 1)[0]!
      push('series_tags', { series_id: id, tag_id: TAG_KEYS.indexOf(key) + 1 })
      tagNames.push(TAGS[key]![lang])
    }
    push('series_fts', {
      rowid: id,
      title: ftsDocument(title),
      creators: ftsDocument(credited.join(' ')),
      tags: ftsDocument(tagNames.join(' ')),
    })

    // Schedule rows: the weekdays above, TEN for ten-day series.
    if (status === 'SCHEDULED') {
      const days: string[] = ten ? ['TEN'] : [...weekdays].sort((a, b) => a - b).map((d) => WEEKDAYS[d]!)
      for (const day of days) {
        scheduledOnDay[day] = (scheduledOnDay[day] ?? 0) + 1
        push('schedules', { series_id: id, weekday: day, position: scheduledOnDay[day]! })
      }
    }

    for (let no = 1; no <= count; no++) {
      episodeId++
      const free = no <= freeCount
      // Ongoing series sold both ways keep their newest episode buy-only (early access).
      const earlyAccess = sale === 'BOTH' && status === 'SCHEDULED' && no === count && !free
      push('episodes', {
        id: episodeId,
        series_id: id,
        no,
        title: episodeTitle(lang, no),
        content_type: isText ? 'TEXT' : 'IMAGE',
        is_free: free ? 1 : 0,
        price_rent: sale === 'BUY' || earlyAccess ? null : rent,
        price_buy: sale === 'RENT' ? null : buy,
        thumbnail_key: null,
        text_body: isText ? novelText(lang, title, no) : null,
        published_at: at(releases[no - 1]! - t0),
        view_count: Math.max(0, Math.round(rank / (no + 1))),
        created_at: at(releases[no - 1]! - t0 - HOUR_MS),
      })
      if (!isText) {
        for (let n = 1; n <= 3; n++) {
          const key = sliceKey(id, no, n)
          const height = SLICE_HEIGHTS[n - 1]!
          const described = demoSliceText(id, n, lang, { series: title, episode: episodeTitle(lang, no) })
          push('episode_images', {
            episode_id: episodeId,
            position: n,
            key,
            width: SLICE_WIDTH,
            height,
            alt: described?.alt ?? sliceAlt(lang, title, episodeTitle(lang, no), n, 3),
            transcript: transcriptJson(described?.transcript),
          })
          // The first slice names the episode; the two others are the series' recurring panels
          // (identical content under each key, so they are rendered once).
          images.push({
            key,
            kind: 'slice',
            width: SLICE_WIDTH,
            height,
            label: title,
            sublabel: n === 1 ? episodeTitle(lang, no) : `${digits.format(n)} / ${digits.format(3)}`,
            lang,
            hue,
            variant: n,
          })
        }
      }
    }
  })

  const seriesCount = SERIES_SOURCE.length

  // Themes (/home/pick)
  const themeSeries: number[][] = [
    // series of each theme; titles and descriptions: THEMES (texts.ts), same order
    [24, 1, 9, 31, 17, 37, 27],
    [43, 10, 13, 14, 12, 19],
    [2, 3, 5, 27, 39, 41, 4],
    [3, 10, 13, 18, 20, 26, 33, 38],
  ]
  const themes = THEMES.map(([title, description], i) => [tl(title), tl(description), themeSeries[i]!] as const)
  themes.forEach(([title, description, ids], i) => {
    push('themes', {
      id: i + 1,
      title,
      description,
      image_key: null,
      position: i + 1,
      starts_at: at(-30 * DAY_MS),
      ends_at: null,
      is_active: 1,
      created_at: at(-30 * DAY_MS),
    })
    ids.forEach((sid, position) => push('theme_series', { theme_id: i + 1, series_id: sid, position: position + 1 }))
  })

  // Banners: every display kind, plus shop, sign-up, adult-only and expired ones.
  const banners: [string, string, string, string | null, string, 'banner' | 'icon' | null, number, number, number, number][] = [
    // placement, display, title, subtitle, link, image kind, w, h, adult, ends in days
    ['HOME', 'ONLY_ICON', titleOf.get(24)!, tl(BANNERS.season2), '/detail/24', 'banner', 720, 300, 0, 90],
    ['HOME', 'ICON_TEXT', tl(BANNERS.roulette), tl(BANNERS.spin), '/roulette', 'icon', 160, 160, 0, 90],
    ['HOME', 'TEXT_ICON', tl(BANNERS.welcome100), tl(BANNERS.couponPage), '/coupon', 'icon', 160, 160, 0, 90],
    ['HOME', 'ONLY_TEXT', tl(BANNERS.weekly), null, '/home/weekly', null, 0, 0, 0, 90],
    ['HOME', 'ONLY_ICON', titleOf.get(7)!, tl(BANNERS.adults), '/detail/7', 'banner', 720, 300, 1, 90],
    ['HOME', 'ICON_TEXT', tl(BANNERS.expired), null, '/shop', 'icon', 160, 160, 0, -1],
    ['SHOP', 'ONLY_TEXT', tl(BANNERS.bonus15), null, '/shop', null, 0, 0, 0, 60],
    ['SIGNUP', 'ONLY_ICON', tl(BANNERS.signup), null, '/user/signup', 'banner', 1080, 500, 0, 365],
  ]
  banners.forEach(([placement, display, title, subtitle, link, kind, w, h, adult, endsIn], i) => {
    const id = i + 1
    const key = kind ? `banners/${id}` : null
    push('banners', {
      id,
      placement,
      display,
      title,
      subtitle,
      link,
      image_key: key,
      image_width: kind ? w : null,
      image_height: kind ? h : null,
      background: `#${((id * 2654435761) >>> 8).toString(16).padStart(6, '0').slice(0, 6)}`,
      starts_at: at(-10 * DAY_MS),
      ends_at: at(endsIn * DAY_MS),
      position: id,
      is_adult: adult,
      created_at: at(-10 * DAY_MS),
    })
    if (key && kind)
      images.push({
        key,
        kind,
        width: w,
        height: h,
        label: kind === 'icon' ? digits.format(id) : title,
        sublabel: '',
        lang,
        hue: (id * 71) % 360,
        variant: id % 4,
      })
  })

  // Notices (two attached to series 24 for the detail page).
  const notices: [string, number | null, number][] = [
    // category, series, pinned; title and body: NOTICES (texts.ts), same order
    ['NOTICE', null, 1],
    ['MAINTENANCE', null, 0],
    ['UPDATE', null, 0],
    ['EVENT', null, 0],
    ['NOTICE', null, 0],
    ['NOTICE', null, 0],
    ['NOTICE', null, 0],
    ['EVENT', null, 0],
    ['NOTICE', 24, 0],
    ['NOTICE', 24, 0],
  ]
  notices.forEach(([category, seriesId, pinned], i) =>
    push('notices', {
      id: i + 1,
      category,
      series_id: seriesId,
      title: tl(NOTICES[i]![0], titleOf.get(seriesId ?? 0)),
      body: tl(NOTICES[i]![1]),
      is_pinned: pinned,
      published_at: at(-(i * 5 + 1) * DAY_MS),
      created_at: at(-(i * 5 + 1) * DAY_MS),
    }),
  )

  // FAQ
  const faqCategories = [
    'ACCOUNT',
    'ACCOUNT',
    'ACCOUNT',
    'COIN',
    'COIN',
    'COIN',
    'PAYMENT',
    'PAYMENT',
    'VIEWER',
    'VIEWER',
    'VIEWER',
    'EVENT',
    'ETC',
  ]
  // questions and answers: FAQS (texts.ts), same order
  faqCategories.forEach((category, i) =>
    push('faqs', { id: i + 1, category, question: tl(FAQS[i]![0]), answer: tl(FAQS[i]![1]), position: i + 1 }),
  )

  // Coin products
  const prices = PRICES[currency] ?? PRICES.EUR!
  const products: [number, number, number | null, number | null, number, string | null][] = [
    // coins, bonus, per-user limit, stock limit, sold, label
    [50, 50, 1, null, 0, tl(BADGES.welcome)],
    [10, 0, null, null, 0, null],
    [30, 3, null, null, 0, null],
    [50, 7, null, null, 0, null],
    [100, 15, null, null, 0, tl(BADGES.popular)],
    [300, 60, null, null, 0, tl(BADGES.best)],
    [200, 100, null, 100, 100, tl(BADGES.flash)],
  ]
  products.forEach(([coins, bonus, perUser, stock, sold, label], i) =>
    push('coin_products', {
      id: i + 1,
      coins,
      bonus,
      price: prices[i]!,
      currency,
      per_user_limit: perUser,
      stock_limit: stock,
      sold_count: sold,
      platform: null,
      label,
      is_active: 1,
      position: i + 1,
      created_at: at(-100 * DAY_MS),
    }),
  )

  // Coupons: valid, expired, sold out, mileage, roulette, app-only, download-only.
  const coupons: [
    string | null,
    string,
    number,
    string,
    number,
    string | null,
    number | null,
    number,
    number,
    number,
    number | null,
    string | null,
  ][] = [
    // code (titles: COUPONS in texts.ts, same order), type, minimum, reward type, amount, lot type, stock, used, expires (days), downloadable, reward days, platform
    ['WELCOME100', 'EXTRA_EARN', 0, 'COIN', 100, 'BONUS', null, 0, 365, 0, 30, null],
    ['ETE2025', 'EXTRA_EARN', 0, 'COIN', 50, 'BONUS', null, 0, -30, 0, 30, null],
    ['FLASH50', 'EXTRA_EARN', 0, 'COIN', 20, 'BONUS', 50, 50, 30, 0, 30, null],
    ['MILEAGE500', 'EXTRA_EARN', 0, 'MILEAGE', 500, 'MILEAGE', null, 0, 180, 0, 180, null],
    ['ROULETTE3', 'EXTRA_EARN', 0, 'ROULETTE_TICKET', 3, null, null, 0, 180, 0, null, null],
    ['APPONLY', 'EXTRA_EARN', 0, 'COIN', 30, 'BONUS', null, 0, 180, 0, 30, 'IOS_APP'],
    [null, 'DISCOUNT', prices[3]!, 'COIN', 20, 'BONUS', 1000, 0, 60, 1, 30, null],
  ]
  coupons.forEach(
    ([code, type, minimum, rewardType, amount, lotType, stock, usedCount, expiresIn, downloadable, rewardDays, platform], i) =>
      push('coupons', {
        id: i + 1,
        code,
        title: tl(COUPONS[i]!),
        type,
        minimum_amount: minimum,
        starts_at: at(-60 * DAY_MS),
        expires_at: at(expiresIn * DAY_MS),
        platform,
        reward_type: rewardType,
        reward_amount: amount,
        reward_lot_type: lotType,
        reward_expires_days: rewardDays,
        stock,
        used_count: usedCount,
        is_downloadable: downloadable,
        created_at: at(-60 * DAY_MS),
      }),
  )

  // Events: the roulette runs for a year around now.
  const roulette = {
    dailyFreeTickets: 1,
    prizes: [
      { type: 'BONUS', amount: 1, weight: 40 },
      { type: 'BONUS', amount: 3, weight: 25 },
      { type: 'BONUS', amount: 5, weight: 15 },
      { type: 'FREE_COIN', amount: 10, weight: 8 },
      { type: 'MILEAGE', amount: 100, weight: 10 },
      { type: 'NONE', amount: 0, weight: 2 },
    ],
    prizeExpiresDays: 30,
  }
  const events: [string, number, number, string | null, object][] = [
    // kind, starts (days), ends (days), adult restriction, config; title and description: EVENTS (texts.ts), same order
    ['ROULETTE', -7, 358, null, roulette],
    ['PROMOTION', -7, 60, 'ADULT', {}],
    ['PROMOTION', -7, 60, 'NON_ADULT', {}],
    ['ROULETTE', -200, -100, null, roulette],
  ]
  events.forEach(([kind, from, to, restriction, config], i) =>
    push('events', {
      id: i + 1,
      kind,
      title: tl(EVENTS[i]![0]),
      description: tl(EVENTS[i]![1]),
      starts_at: at(from * DAY_MS),
      ends_at: at(to * DAY_MS),
      adult_restriction: restriction,
      config: JSON.stringify(config),
      image_key: null,
      is_active: 1,
      created_at: at(from * DAY_MS),
    }),
  )

  push('banned_words', { word: 'idiot' })
  push('banned_words', { word: 'arnaque' })
  push('banned_words', { word: 'scam' })

  // ─── demo accounts ───
  const { reader, minor } = DEMO_ACCOUNTS
  const d = new Date(t0 - 40 * DAY_MS)
  const minorBirth = `${d.getUTCFullYear() - 15}-${pad(d.getUTCMonth() + 1)}-${pad(Math.min(d.getUTCDate(), 28))}`
  const user = (
    id: number,
    email: string,
    hash: string,
    name: string,
    nickname: string,
    birth: string,
    adult: boolean,
    createdDays: number,
  ): Row => ({
    id,
    email,
    password_hash: hash,
    phone: null,
    name,
    nickname,
    nickname_key: nicknameKey(nickname),
    nickname_key_version: NICKNAME_KEY_VERSION,
    email_verified_at: at(-createdDays * DAY_MS + HOUR_MS),
    birthed_at: birth,
    is_adult: adult ? 1 : 0,
    adult_verified_at: adult ? at(-30 * DAY_MS) : null,
    is_adult_kr: 0,
    is_kr_ip_user: 0,
    show_adult: adult ? 1 : 0,
    is_bl_toggle: 1,
    is_agree_mail: 1,
    platform: 'WEB',
    last_login_at: null,
    withdrawal_requested_at: null,
    deleted_at: null,
    created_at: at(-createdDays * DAY_MS),
    updated_at: at(-createdDays * DAY_MS),
  })
  push('users', user(reader.id, reader.email, passwordHash, tl(ACCOUNTS.readerName), tl(ACCOUNTS.readerNick), '1990-05-01', true, 200))
  push('users', user(minor.id, minor.email, minorPasswordHash, tl(ACCOUNTS.minorName), tl(ACCOUNTS.minorNick), minorBirth, false, 90))
  for (const id of [reader.id, minor.id]) {
    push('push_settings', {
      user_id: id,
      is_app_push: 0,
      is_agree_push: 1,
      is_agree_push_night: 0,
      is_agree_push_freetime: 1,
      is_agree_push_contents: 1,
      push_token: null,
      updated_at: at(-90 * DAY_MS),
    })
  }

  // Payments behind the paid lots.
  const payment = (id: string, userId: number, productIndex: number, days: number): Row => ({
    id,
    user_id: userId,
    product_id: productIndex + 1,
    state: 'PAID',
    provider: 'local',
    method: 'card',
    amount: prices[productIndex]!,
    currency,
    coins: products[productIndex]![0],
    bonus: products[productIndex]![1],
    idempotency_key: `seed-${id}`,
    provider_ref: `seed-${id}`,
    created_at: at(days * DAY_MS),
    paid_at: at(days * DAY_MS + MINUTE_MS),
    cancelled_at: null,
  })
  push('payments', payment('pay_demo_1', reader.id, 4, -60))
  push('payments', payment('pay_demo_2', reader.id, 2, -10))
  push('payments', payment('pay_demo_3', minor.id, 3, -20))

  // Lots of every type, each written as a CHARGE in the ledger (Σ ledger = Σ remaining).
  const lots: [number, string, number, string, string | null, number, number | null][] = [
    // user, type, amount, source, ref, created (days), expires (days)
    [reader.id, 'COIN', 100, 'PAYMENT', 'pay_demo_1', -60, null],
    [reader.id, 'BONUS', 15, 'PAYMENT', 'pay_demo_1', -60, 30],
    [reader.id, 'COIN', 30, 'PAYMENT', 'pay_demo_2', -10, null],
    [reader.id, 'BONUS', 3, 'PAYMENT', 'pay_demo_2', -10, 80],
    [reader.id, 'FREE_COIN', 20, 'REWARD', 'signup', -200, 25],
    [reader.id, 'FREE_COIN', 10, 'EVENT', 'event:1', -5, 20],
    [reader.id, 'BONUS', 20, 'EVENT', 'event:1', -23, 7],
    [reader.id, 'MILEAGE', 3600, 'REWARD', 'purchases', -40, 140],
    [minor.id, 'COIN', 50, 'PAYMENT', 'pay_demo_3', -20, null],
    [minor.id, 'BONUS', 7, 'PAYMENT', 'pay_demo_3', -20, 70],
    [minor.id, 'FREE_COIN', 10, 'REWARD', 'signup', -90, 15],
    [minor.id, 'MILEAGE', 100_000, 'REWARD', 'purchases', -30, 140], // the exchange popup's browser tests (tests/e2e/mileage.ts)
  ]
  lots.forEach(([userId, type, amount, source, ref, created, expires], i) => {
    push('coin_lots', {
      id: i + 1,
      user_id: userId,
      type,
      amount,
      remaining: amount,
      expires_at: expires === null ? null : at(expires * DAY_MS),
      source,
      ref,
      created_at: at(created * DAY_MS),
    })
    push('coin_ledger', {
      id: i + 1,
      user_id: userId,
      kind: 'CHARGE',
      lot_id: i + 1,
      type,
      source,
      amount,
      product_kind: source === 'PAYMENT' ? 'COIN_PRODUCT' : null,
      series_id: null,
      episode_id: null,
      purchase_id: null,
      ref,
      description: null,
      idempotency_key: null,
      created_at: at(created * DAY_MS),
    })
  })

  // Reader's library, gifts, alarms, roulette tickets, comments and a support request.
  const firstEpisode = (seriesId: number) => Number(tables.episodes!.find((e) => e.series_id === seriesId && e.no === 1)!.id)
  for (const [sid, days] of [
    [24, -3],
    [1, -8],
    [9, -15],
  ] as const)
    push('favorites', { user_id: reader.id, series_id: sid, created_at: at(days * DAY_MS) })
  // The demo's new episode: the newest one of series 24 (a favourite, JUST_OUT_SERIES) came out 5 minutes before
  // seeding; the first cron run of npm start queues its fan-out and the reader finds the alarm under the bell (issue 13).
  push('reading_progress', { user_id: reader.id, series_id: 24, episode_id: firstEpisode(24) + 1, position: 0.4, updated_at: at(-HOUR_MS) })
  push('reading_progress', { user_id: reader.id, series_id: 9, episode_id: firstEpisode(9), position: 1, updated_at: at(-2 * DAY_MS) })
  push('gifts', {
    id: 1,
    user_id: reader.id,
    kind: 'RENT',
    series_id: 1,
    episode_id: null,
    title: tl(READER.rentGift),
    sender_kind: 'MAIL',
    given_at: at(-3 * HOUR_MS), // recent: the first cron run of npm start writes its alarm
    used_at: null,
    used_episode_id: null,
    expires_at: at(14 * DAY_MS),
  })
  push('gifts', {
    id: 2,
    user_id: reader.id,
    kind: 'POSSESSION',
    series_id: 31,
    episode_id: firstEpisode(31) + 5,
    title: tl(READER.episodeGift),
    sender_kind: 'MAIL',
    given_at: at(-2 * DAY_MS),
    used_at: null,
    used_episode_id: null,
    expires_at: at(30 * DAY_MS),
  })
  for (const id of [1, 2])
    push('event_tickets', {
      id,
      event_id: 1,
      user_id: reader.id,
      kind: 'ROULETTE',
      source: 'EVENT',
      ref: 'seed',
      expires_at: at(30 * DAY_MS),
      used_at: null,
      created_at: at(-DAY_MS),
    })

  const commentTexts = [COMMENTS.ending, COMMENTS.colours, COMMENTS.next, COMMENTS.reread]
  const ep24 = firstEpisode(24)
  commentTexts.forEach((text, i) =>
    push('comments', {
      id: i + 1,
      series_id: 24,
      episode_id: ep24,
      user_id: i % 2 === 0 ? reader.id : minor.id,
      parent_id: null,
      body: tl(text),
      state: null,
      like_count: i === 0 ? 1 : 0,
      reply_count: i === 0 ? 1 : 0,
      created_at: at(-(10 - i) * HOUR_MS),
      updated_at: at(-(10 - i) * HOUR_MS),
    }),
  )
  push('comments', {
    id: 5,
    series_id: 24,
    episode_id: ep24,
    user_id: minor.id,
    parent_id: 1,
    body: tl(COMMENTS.screamed),
    state: null,
    like_count: 0,
    reply_count: 0,
    created_at: at(-5 * HOUR_MS),
    updated_at: at(-5 * HOUR_MS),
  })
  push('comments', {
    id: 6,
    series_id: 24,
    episode_id: ep24,
    user_id: minor.id,
    parent_id: null,
    body: tl(COMMENTS.hidden),
    state: 'BLIND',
    like_count: 0,
    reply_count: 0,
    created_at: at(-4 * HOUR_MS),
    updated_at: at(-4 * HOUR_MS),
  })
  push('comment_reactions', { comment_id: 1, user_id: minor.id, kind: 'LIKE', created_at: at(-5 * HOUR_MS) })
  push('qnas', {
    id: 1,
    user_id: reader.id,
    category: 'COIN',
    title: tl(QNAS.coinsTitle),
    body: tl(QNAS.coinsBody),
    email: reader.email,
    images: '[]',
    status: 'COMPLETED',
    answer: tl(QNAS.coinsAnswer),
    answered_at: at(-9 * DAY_MS),
    created_at: at(-10 * DAY_MS),
  })

  // ─── SQL ───
  const order = [
    'creators',
    'tags',
    'series',
    'series_creators',
    'series_tags',
    'series_fts',
    'schedules',
    'episodes',
    'episode_images',
    'themes',
    'theme_series',
    'banners',
    'notices',
    'faqs',
    'coin_products',
    'coupons',
    'events',
    'banned_words',
    'users',
    'push_settings',
    'payments',
    'coin_lots',
    'coin_ledger',
    'favorites',
    'reading_progress',
    'gifts',
    'alarms',
    'event_tickets',
    'comments',
    'comment_reactions',
    'qnas',
  ]
  const missing = Object.keys(tables).filter((t) => !order.includes(t))
  if (missing.length) throw new Error(`tables without an insert order: ${missing.join(', ')}`)
  const statements = order.flatMap((t) => insertStatements(t, tables[t] ?? []))
  statements.push(
    `INSERT OR REPLACE INTO meta (key, value) VALUES ('seed_version', ${sqlValue(SEED_VERSION)}), ('seed_edition', ${sqlValue(`${lang}/${currency}`)}), ('seeded_at', ${sqlValue(now.toISOString())})`,
  )

  const counts: Record<string, number> = {
    series: seriesCount,
    episodes: tables.episodes!.length,
    slices: tables.episode_images!.length,
    users: tables.users!.length,
    lots: tables.coin_lots!.length,
    images: images.length,
    statements: statements.length,
  }
  for (const t of ['creators', 'tags', 'themes', 'banners', 'notices', 'faqs', 'coin_products', 'coupons', 'events'])
    counts[t] = tables[t]!.length
  return { tables, statements, images, counts }
}

function pad(n: number): string {
  return String(n).padStart(2, '0')
}

/** A few readable paragraphs for a TEXT (novel) episode, in the edition's language. */
function novelText(lang: Lang, title: string, no: number): string {
  const paragraphs = [chapterHeading(lang, title, no)]
  for (let p = 0; p < 6; p++) {
    paragraphs.push([0, 1, 2].map((k) => NOVEL[(no + p * 2 + k) % NOVEL.length]![lang]).join(lang === 'ja' || lang === 'zh' ? '' : ' '))
  }
  return paragraphs.join('\n\n')
}
