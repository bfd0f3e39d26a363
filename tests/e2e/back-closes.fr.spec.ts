import { backClosesSuite } from './back-closes.ts'

backClosesSuite({
  edition: 'fr',
  help: 'Raccourcis clavier',
  settings: 'Réglages de lecture',
  close: 'Fermer',
  autoOffer: 'Débloquer la suite automatiquement…',
  autoTitle: 'Lecture continue',
  autoCancel: 'Annuler',
  ageTitle: "Vérification de l'âge",
  ageVerify: 'Vérifier mon âge',
  ageCancel: 'Annuler',
  ageYear: 'Année',
  ageConfirm: 'Confirmer',
})
