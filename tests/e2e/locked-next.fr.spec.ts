import { lockedNextSuite } from './locked-next.ts'

lockedNextSuite({
  edition: 'fr',
  episode: (no) => `Épisode ${no}`,
  choose: 'Louer ou acheter',
  autoOffer: 'Débloquer la suite automatiquement…',
  autoTitle: 'Lecture continue',
  autoConfirm: 'Confirmer et débloquer',
  images: true,
})
