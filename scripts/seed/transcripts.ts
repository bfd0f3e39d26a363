/**
 * Alt text and transcripts of the demo (issue 14 part 5): three series (3, 9 and 24, five free episodes
 * each) whose slices describe their panels and carry their speech, captions and sound effects in reading
 * order, in French, Arabic, and English for the other editions (like the seed's other long texts). PURE, as
 * data.ts.
 *
 * The demo draws the same two story panels under every episode of a series (slices 2 and 3) after a title
 * card (slice 1), so the texts follow that: the card names the episode, the panels tell the series' scene.
 */
import type { TranscriptLine } from '../../src/features/viewer/transcript.ts'

type Text = { fr: string; ar: string; en: string }
type Line = { kind: TranscriptLine['kind']; speaker?: Text; text: Text }
type Panel = { alt: Text; lines: Line[] }

const TITLE_CARD: { alt: Text } = {
  alt: { fr: 'Page de titre : {series}, {episode}.', ar: 'صفحة العنوان: {series}، {episode}.', en: 'Title page: {series}, {episode}.' },
}

const CLAIRE = { fr: 'Claire', ar: 'كلير', en: 'Claire' }
const KAI = { fr: 'Kaï', ar: 'كاي', en: 'Kai' }
const YSOLDE = { fr: 'Ysolde', ar: 'إيزولد', en: 'Ysolde' }

/** Series id → its two story panels (slices 2 and 3 of each of its episodes). */
export const DEMO_TRANSCRIPTS: Record<number, [Panel, Panel]> = {
  // Lettres d’un été (romance)
  3: [
    {
      alt: {
        fr: 'Sur le quai d’une petite gare, Claire ouvre une enveloppe jaunie.',
        ar: 'على رصيف محطة قطار صغيرة، تفتح كلير ظرفًا مصفرًّا.',
        en: 'On a small station platform, Claire opens a yellowed envelope.',
      },
      lines: [
        { kind: 'caption', text: { fr: 'Août, vingt ans plus tard.', ar: 'أغسطس، بعد عشرين عامًا.', en: 'August, twenty years later.' } },
        {
          kind: 'speech',
          speaker: CLAIRE,
          text: { fr: 'Cette écriture… c’est celle de Jules.', ar: 'هذا الخط… إنه خط جول.', en: 'This handwriting… it’s Jules’s.' },
        },
        {
          kind: 'caption',
          text: {
            fr: '« Si tu lis ceci, c’est que je n’ai jamais osé te le dire. »',
            ar: '«إن كنتِ تقرئين هذا، فلأنني لم أجرؤ يومًا على قوله لكِ.»',
            en: '“If you are reading this, I never dared tell you.”',
          },
        },
      ],
    },
    {
      alt: {
        fr: 'Le train s’éloigne ; Claire serre la lettre contre elle.',
        ar: 'يبتعد القطار، وتضمّ كلير الرسالة إلى صدرها.',
        en: 'The train pulls away; Claire holds the letter close.',
      },
      lines: [
        { kind: 'sfx', text: { fr: 'Tchou… tchou…', ar: 'توت… توت…', en: 'Choo… choo…' } },
        {
          kind: 'speech',
          speaker: CLAIRE,
          text: { fr: 'Vingt ans trop tard, Jules.', ar: 'فات الأوان بعشرين عامًا يا جول.', en: 'Twenty years too late, Jules.' },
        },
      ],
    },
  ],
  // Lame d’acier (action)
  9: [
    {
      alt: {
        fr: 'Sur un toit sous la pluie, Kaï dégaine son sabre face à trois silhouettes masquées.',
        ar: 'على سطح تحت المطر، يستلّ كاي سيفه في مواجهة ثلاثة أشخاص ملثّمين.',
        en: 'On a rain-soaked rooftop, Kai draws his sword facing three masked figures.',
      },
      lines: [
        {
          kind: 'caption',
          text: { fr: 'Port de Néo-Marseille, minuit.', ar: 'ميناء مرسيليا الجديدة، منتصف الليل.', en: 'Neo-Marseille harbour, midnight.' },
        },
        {
          kind: 'speech',
          speaker: { fr: 'Homme masqué', ar: 'الرجل الملثّم', en: 'Masked man' },
          text: { fr: 'Rends-nous la lame, gamin.', ar: 'أعد إلينا النصل يا فتى.', en: 'Give us the blade, kid.' },
        },
        { kind: 'speech', speaker: KAI, text: { fr: 'Venez la chercher.', ar: 'تعالوا وخذوه.', en: 'Come and take it.' } },
      ],
    },
    {
      alt: {
        fr: 'Un éclair d’acier traverse la case ; les gouttes de pluie sont tranchées en deux.',
        ar: 'وميض من الفولاذ يعبر المشهد، وقطرات المطر تنشطر نصفين.',
        en: 'A flash of steel crosses the panel; raindrops are cut in two.',
      },
      lines: [
        { kind: 'sfx', text: { fr: 'Shhiing !', ar: 'شيييين!', en: 'Shiiing!' } },
        { kind: 'caption', text: { fr: 'Un seul coup suffit.', ar: 'ضربة واحدة تكفي.', en: 'One strike is enough.' } },
      ],
    },
  ],
  // La Reine des ombres (fantasy)
  24: [
    {
      alt: {
        fr: 'Dans une salle du trône obscure, la reine Ysolde se lève ; son ombre s’étire jusqu’aux portes.',
        ar: 'في قاعة عرش مظلمة، تنهض الملكة إيزولد، ويمتدّ ظلّها حتى الأبواب.',
        en: 'In a dark throne room, Queen Ysolde rises; her shadow stretches to the doors.',
      },
      lines: [
        {
          kind: 'speech',
          speaker: YSOLDE,
          text: { fr: 'Qui ose entrer sans être annoncé ?', ar: 'من يجرؤ على الدخول دون استئذان؟', en: 'Who dares enter unannounced?' },
        },
        {
          kind: 'speech',
          speaker: { fr: 'Le messager', ar: 'الرسول', en: 'The messenger' },
          text: {
            fr: 'Majesté… l’armée du Nord a franchi le fleuve.',
            ar: 'جلالتك… جيش الشمال عبر النهر.',
            en: 'Your Majesty… the northern army has crossed the river.',
          },
        },
      ],
    },
    {
      alt: {
        fr: 'Les ombres de la salle prennent la forme de loups aux yeux blancs.',
        ar: 'تتشكّل ظلال القاعة على هيئة ذئاب بعيون بيضاء.',
        en: 'The shadows of the hall take the shape of white-eyed wolves.',
      },
      lines: [
        { kind: 'sfx', text: { fr: 'Grrr…', ar: 'غررر…', en: 'Grrr…' } },
        {
          kind: 'speech',
          speaker: YSOLDE,
          text: {
            fr: 'Alors que mes ombres aillent à sa rencontre.',
            ar: 'إذن فلتخرج ظلالي لملاقاته.',
            en: 'Then let my shadows meet it.',
          },
        },
      ],
    },
  ],
}

/**
 * Alt text and transcript of slice `n` (1-based) of an episode of series `seriesId` in language `lang`
 * (fr, ar, else English), or null when the series has none: the caller keeps its generated alt text.
 */
export function demoSliceText(
  seriesId: number,
  n: number,
  lang: string,
  names: { series: string; episode: string },
): { alt: string; transcript: TranscriptLine[] } | null {
  const panels = DEMO_TRANSCRIPTS[seriesId]
  if (!panels) return null
  const pick = (t: Text) => (lang === 'fr' ? t.fr : lang === 'ar' ? t.ar : t.en)
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
