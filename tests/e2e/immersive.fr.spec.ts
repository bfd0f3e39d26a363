import { immersiveSuite } from './immersive.ts'

immersiveSuite({
  edition: 'fr',
  help: 'Raccourcis clavier',
  settings: 'Réglages de lecture',
  shortcuts: 'Raccourcis à une touche (n, p, a, f, ?)',
  choose: 'Louer ou acheter',
  company: 'Informations sur la société',
  autoOffer: 'Débloquer la suite automatiquement…',
  autoTitle: 'Lecture continue',
  comments: 'Commentaires',
  end: 'Fin de l’épisode',
  back: 'Retour à la série',
  next: 'Épisode suivant',
  autoScroll: 'Défilement automatique',
  fullscreen: 'Plein écran',
  share: 'Partager',
})
