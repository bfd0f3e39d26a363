import { settingsSuite } from './settings.ts'

settingsSuite('fr')
