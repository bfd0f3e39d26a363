import { profileSuite } from './profile.ts'

profileSuite('fr', 'Zoé')
