/**
 * Alt text and transcripts of the demo (issue 14 part 5): three series (3, 9 and 24, five free episodes
 * each) whose slices describe their panels and carry their speech, captions and sound effects in reading
 * order, in every edition's language (texts.ts's languages). PURE, as data.ts.
 *
 * The demo draws the same two story panels under every episode of a series (slices 2 and 3) after a title
 * card (slice 1), so the texts follow that: the card names the episode, the panels tell the series' scene.
 */
import type { TranscriptLine } from '../../src/features/catalogue/transcript.ts'
import type { Lang } from './data.ts'
import type { Texts } from './texts.ts'

type Text = Texts
type Line = { kind: TranscriptLine['kind']; speaker?: Text; text: Text }
type Panel = { alt: Text; lines: Line[] }

const TITLE_CARD: { alt: Text } = {
  alt: {
    fr: 'Page de titre : {series}, {episode}.',
    de: 'Titelseite: {series}, {episode}.',
    en: 'Title page: {series}, {episode}.',
    ja: '扉ページ：{series} {episode}。',
    ko: '표지: {series} {episode}.',
    zh: '扉頁：{series} {episode}。',
    th: 'หน้าชื่อเรื่อง: {series} {episode}',
    ar: 'صفحة العنوان: {series}، {episode}.',
  },
}

const CLAIRE = { fr: 'Claire', de: 'Claire', en: 'Claire', ja: 'クレール', ko: '클레르', zh: '克萊兒', th: 'แคลร์', ar: 'كلير' }
const KAI = { fr: 'Kaï', de: 'Kai', en: 'Kai', ja: 'カイ', ko: '카이', zh: '凱', th: 'ไค', ar: 'كاي' }
const YSOLDE = { fr: 'Ysolde', de: 'Ysolde', en: 'Ysolde', ja: 'イゾルデ', ko: '이졸데', zh: '伊索德', th: 'อีโซลด์', ar: 'إيزولد' }

/** Series id → its two story panels (slices 2 and 3 of each of its episodes). */
const DEMO_TRANSCRIPTS: Record<number, [Panel, Panel]> = {
  // Lettres d’un été (romance)
  3: [
    {
      alt: {
        fr: 'Sur le quai d’une petite gare, Claire ouvre une enveloppe jaunie.',
        de: 'Auf dem Bahnsteig eines kleinen Bahnhofs öffnet Claire einen vergilbten Umschlag.',
        en: 'On a small station platform, Claire opens a yellowed envelope.',
        ja: '小さな駅のホームで、クレールが黄ばんだ封筒を開ける。',
        ko: '작은 역 승강장에서 클레르가 누렇게 바랜 봉투를 연다.',
        zh: '在小車站的月台上，克萊兒打開一個泛黃的信封。',
        th: 'บนชานชาลาสถานีเล็ก ๆ แคลร์เปิดซองจดหมายสีเหลืองซีด',
        ar: 'على رصيف محطة قطار صغيرة، تفتح كلير ظرفًا مصفرًّا.',
      },
      lines: [
        {
          kind: 'caption',
          text: {
            fr: 'Août, vingt ans plus tard.',
            de: 'August, zwanzig Jahre später.',
            en: 'August, twenty years later.',
            ja: '8月、20年後。',
            ko: '8월, 20년 후.',
            zh: '八月，二十年後。',
            th: 'สิงหาคม ยี่สิบปีต่อมา',
            ar: 'أغسطس، بعد عشرين عامًا.',
          },
        },
        {
          kind: 'speech',
          speaker: CLAIRE,
          text: {
            fr: 'Cette écriture… c’est celle de Jules.',
            de: 'Diese Handschrift … das ist die von Jules.',
            en: 'This handwriting… it’s Jules’s.',
            ja: 'この字…ジュールの字だ。',
            ko: '이 글씨… 쥘의 글씨야.',
            zh: '這字跡……是朱爾的。',
            th: 'ลายมือนี้… ของฌูลนี่นา',
            ar: 'هذا الخط… إنه خط جول.',
          },
        },
        {
          kind: 'caption',
          text: {
            fr: '« Si tu lis ceci, c’est que je n’ai jamais osé te le dire. »',
            de: '„Wenn du das liest, habe ich mich nie getraut, es dir zu sagen.“',
            en: '“If you are reading this, I never dared tell you.”',
            ja: '「これを読んでいるなら、僕は結局きみに言えなかったんだ。」',
            ko: '“이걸 읽고 있다면, 난 끝내 너에게 말하지 못한 거야.”',
            zh: '「如果妳正在讀這封信，那就是我始終不敢對妳說。」',
            th: '“ถ้าเธอกำลังอ่านสิ่งนี้ แปลว่าฉันไม่เคยกล้าบอกเธอเลย”',
            ar: '«إن كنتِ تقرئين هذا، فلأنني لم أجرؤ يومًا على قوله لكِ.»',
          },
        },
      ],
    },
    {
      alt: {
        fr: 'Le train s’éloigne ; Claire serre la lettre contre elle.',
        de: 'Der Zug fährt davon; Claire drückt den Brief an sich.',
        en: 'The train pulls away; Claire holds the letter close.',
        ja: '列車が遠ざかり、クレールは手紙を胸に抱きしめる。',
        ko: '기차가 멀어지고, 클레르는 편지를 꼭 끌어안는다.',
        zh: '火車漸行漸遠，克萊兒把信緊緊抱在胸前。',
        th: 'รถไฟแล่นห่างออกไป แคลร์กอดจดหมายไว้แนบอก',
        ar: 'يبتعد القطار، وتضمّ كلير الرسالة إلى صدرها.',
      },
      lines: [
        {
          kind: 'sfx',
          text: {
            fr: 'Tchou… tchou…',
            de: 'Tschu… tschu…',
            en: 'Choo… choo…',
            ja: 'シュッ…シュッ…',
            ko: '칙칙… 폭폭…',
            zh: '嗚……嗚……',
            th: 'ปู๊น… ปู๊น…',
            ar: 'توت… توت…',
          },
        },
        {
          kind: 'speech',
          speaker: CLAIRE,
          text: {
            fr: 'Vingt ans trop tard, Jules.',
            de: 'Zwanzig Jahre zu spät, Jules.',
            en: 'Twenty years too late, Jules.',
            ja: '20年遅いよ、ジュール。',
            ko: '20년이나 늦었어, 쥘.',
            zh: '晚了二十年啊，朱爾。',
            th: 'สายไปยี่สิบปีแล้วนะ ฌูล',
            ar: 'فات الأوان بعشرين عامًا يا جول.',
          },
        },
      ],
    },
  ],
  // Lame d’acier (action)
  9: [
    {
      alt: {
        fr: 'Sur un toit sous la pluie, Kaï dégaine son sabre face à trois silhouettes masquées.',
        de: 'Auf einem regennassen Dach zieht Kai sein Schwert gegen drei maskierte Gestalten.',
        en: 'On a rain-soaked rooftop, Kai draws his sword facing three masked figures.',
        ja: '雨に濡れた屋上で、カイが仮面の3人を前に刀を抜く。',
        ko: '비에 젖은 옥상에서 카이가 복면을 쓴 세 사람 앞에서 검을 뽑는다.',
        zh: '在雨水淋濕的屋頂上，凱面對三個蒙面人拔出了刀。',
        th: 'บนดาดฟ้าที่เปียกฝน ไคชักดาบเผชิญหน้ากับชายสวมหน้ากากสามคน',
        ar: 'على سطح تحت المطر، يستلّ كاي سيفه في مواجهة ثلاثة أشخاص ملثّمين.',
      },
      lines: [
        {
          kind: 'caption',
          text: {
            fr: 'Port de Néo-Marseille, minuit.',
            de: 'Hafen von Neo-Marseille, Mitternacht.',
            en: 'Neo-Marseille harbour, midnight.',
            ja: 'ネオ・マルセイユ港、真夜中。',
            ko: '네오마르세유 항구, 자정.',
            zh: '新馬賽港，午夜。',
            th: 'ท่าเรือนีโอมาร์แซย์ เที่ยงคืน',
            ar: 'ميناء مرسيليا الجديدة، منتصف الليل.',
          },
        },
        {
          kind: 'speech',
          speaker: {
            fr: 'Homme masqué',
            de: 'Maskierter Mann',
            en: 'Masked man',
            ja: '仮面の男',
            ko: '복면의 남자',
            zh: '蒙面男子',
            th: 'ชายสวมหน้ากาก',
            ar: 'الرجل الملثّم',
          },
          text: {
            fr: 'Rends-nous la lame, gamin.',
            de: 'Gib uns die Klinge, Kleiner.',
            en: 'Give us the blade, kid.',
            ja: '刀を渡せ、小僧。',
            ko: '검을 내놔, 꼬마야.',
            zh: '把刀交出來，小子。',
            th: 'ส่งดาบมา ไอ้หนู',
            ar: 'أعد إلينا النصل يا فتى.',
          },
        },
        {
          kind: 'speech',
          speaker: KAI,
          text: {
            fr: 'Venez la chercher.',
            de: 'Holt sie euch doch.',
            en: 'Come and take it.',
            ja: '取りに来いよ。',
            ko: '와서 가져가 보시지.',
            zh: '有本事來拿。',
            th: 'แน่จริงก็มาเอาไปสิ',
            ar: 'تعالوا وخذوه.',
          },
        },
      ],
    },
    {
      alt: {
        fr: 'Un éclair d’acier traverse la case ; les gouttes de pluie sont tranchées en deux.',
        de: 'Ein stählerner Blitz durchquert das Bild; die Regentropfen werden in zwei Hälften geschnitten.',
        en: 'A flash of steel crosses the panel; raindrops are cut in two.',
        ja: '鋼の閃光がコマを横切り、雨粒が真っ二つに斬られる。',
        ko: '강철의 섬광이 칸을 가로지르고, 빗방울이 두 동강 난다.',
        zh: '一道鋼鐵的閃光劃過畫格，雨滴被一分為二。',
        th: 'ประกายเหล็กพาดผ่านช่องภาพ หยดฝนถูกผ่าเป็นสองซีก',
        ar: 'وميض من الفولاذ يعبر المشهد، وقطرات المطر تنشطر نصفين.',
      },
      lines: [
        {
          kind: 'sfx',
          text: {
            fr: 'Shhiing !',
            de: 'Schiiing!',
            en: 'Shiiing!',
            ja: 'シャキーン！',
            ko: '스릉!',
            zh: '鏘——！',
            th: 'ฉิ้ง!',
            ar: 'شيييين!',
          },
        },
        {
          kind: 'caption',
          text: {
            fr: 'Un seul coup suffit.',
            de: 'Ein einziger Hieb genügt.',
            en: 'One strike is enough.',
            ja: '一太刀で十分だった。',
            ko: '단 한 번의 일격이면 충분했다.',
            zh: '一擊便已足夠。',
            th: 'ฟันเพียงครั้งเดียวก็พอ',
            ar: 'ضربة واحدة تكفي.',
          },
        },
      ],
    },
  ],
  // La Reine des ombres (fantasy)
  24: [
    {
      alt: {
        fr: 'Dans une salle du trône obscure, la reine Ysolde se lève ; son ombre s’étire jusqu’aux portes.',
        de: 'In einem dunklen Thronsaal erhebt sich Königin Ysolde; ihr Schatten reicht bis zu den Türen.',
        en: 'In a dark throne room, Queen Ysolde rises; her shadow stretches to the doors.',
        ja: '薄暗い玉座の間で、イゾルデ女王が立ち上がる。その影は扉まで伸びている。',
        ko: '어두운 왕좌의 방에서 이졸데 여왕이 일어서고, 그림자가 문까지 길게 뻗는다.',
        zh: '在昏暗的王座大廳裡，伊索德女王站起身，她的影子一直延伸到門口。',
        th: 'ในท้องพระโรงอันมืดมิด ราชินีอีโซลด์ลุกขึ้นยืน เงาของนางทอดยาวไปถึงประตู',
        ar: 'في قاعة عرش مظلمة، تنهض الملكة إيزولد، ويمتدّ ظلّها حتى الأبواب.',
      },
      lines: [
        {
          kind: 'speech',
          speaker: YSOLDE,
          text: {
            fr: 'Qui ose entrer sans être annoncé ?',
            de: 'Wer wagt es, unangemeldet einzutreten?',
            en: 'Who dares enter unannounced?',
            ja: '名乗りもせずに入ってくるのは誰だ？',
            ko: '누가 감히 허락도 없이 들어오느냐?',
            zh: '是誰膽敢不經通報就闖進來？',
            th: 'ผู้ใดบังอาจเข้ามาโดยไม่แจ้ง',
            ar: 'من يجرؤ على الدخول دون استئذان؟',
          },
        },
        {
          kind: 'speech',
          speaker: {
            fr: 'Le messager',
            de: 'Der Bote',
            en: 'The messenger',
            ja: '使者',
            ko: '전령',
            zh: '使者',
            th: 'ผู้ส่งสาร',
            ar: 'الرسول',
          },
          text: {
            fr: 'Majesté… l’armée du Nord a franchi le fleuve.',
            de: 'Majestät … das Heer des Nordens hat den Fluss überquert.',
            en: 'Your Majesty… the northern army has crossed the river.',
            ja: '陛下…北の軍勢が川を越えました。',
            ko: '폐하… 북쪽 군대가 강을 건넜습니다.',
            zh: '陛下……北方大軍已經渡河了。',
            th: 'ฝ่าบาท… กองทัพฝ่ายเหนือข้ามแม่น้ำมาแล้ว',
            ar: 'جلالتك… جيش الشمال عبر النهر.',
          },
        },
      ],
    },
    {
      alt: {
        fr: 'Les ombres de la salle prennent la forme de loups aux yeux blancs.',
        de: 'Die Schatten des Saals nehmen die Gestalt weißäugiger Wölfe an.',
        en: 'The shadows of the hall take the shape of white-eyed wolves.',
        ja: '広間の影が、白い目をした狼の姿に変わる。',
        ko: '방 안의 그림자들이 흰 눈의 늑대 모습으로 변한다.',
        zh: '大廳裡的影子化成了白眼的狼群。',
        th: 'เงาในท้องพระโรงกลายร่างเป็นหมาป่าตาขาว',
        ar: 'تتشكّل ظلال القاعة على هيئة ذئاب بعيون بيضاء.',
      },
      lines: [
        { kind: 'sfx', text: { fr: 'Grrr…', de: 'Grrr…', en: 'Grrr…', ja: 'グルル…', ko: '크르르…', zh: '吼……', th: 'แฮ่…', ar: 'غررر…' } },
        {
          kind: 'speech',
          speaker: YSOLDE,
          text: {
            fr: 'Alors que mes ombres aillent à sa rencontre.',
            de: 'Dann sollen meine Schatten ihm entgegenziehen.',
            en: 'Then let my shadows meet it.',
            ja: 'ならば、わが影たちに迎え撃たせよう。',
            ko: '그렇다면 나의 그림자들이 맞서게 하라.',
            zh: '那就讓我的影子去迎戰吧。',
            th: 'ถ้าเช่นนั้น ให้เงาของข้าออกไปรับมือ',
            ar: 'إذن فلتخرج ظلالي لملاقاته.',
          },
        },
      ],
    },
  ],
}

/**
 * Alt text and transcript of slice `n` (1-based) of an episode of series `seriesId` in language `lang`,
 * or null when the series has none: the caller keeps its generated alt text.
 */
export function demoSliceText(
  seriesId: number,
  n: number,
  lang: Lang,
  names: { series: string; episode: string },
): { alt: string; transcript: TranscriptLine[] } | null {
  const panels = DEMO_TRANSCRIPTS[seriesId]
  if (!panels) return null
  const pick = (t: Text) => t[lang]
  if (n === 1) {
    const alt = pick(TITLE_CARD.alt).replace('{series}', names.series).replace('{episode}', names.episode)
    return { alt, transcript: [{ kind: 'caption', text: `${names.series} — ${names.episode}` }] }
  }
  const panel = panels[n - 2]
  if (!panel) return null
  return {
    alt: pick(panel.alt),
    transcript: panel.lines.map((l) => ({ kind: l.kind, ...(l.speaker ? { speaker: pick(l.speaker) } : {}), text: pick(l.text) })),
  }
}
