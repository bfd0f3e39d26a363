import { upgradeSuite } from './upgrade.ts'

upgradeSuite({
  edition: 'fr',
  credit: /^Votre location est déduite : \d+ pièces? de moins\.$/,
  button: /^Acheter pour toujours \(\d+ pièces?\)$/,
  done: 'Cet épisode est à vous pour toujours. Bonne lecture !',
})
