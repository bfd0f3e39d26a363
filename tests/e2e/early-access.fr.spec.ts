import { earlyAccessSuite } from './early-access.ts'

/** Issue 37 point 1 in the fr edition: an episode opened early by the operator, rented by a signed-in reader before its publication. */
earlyAccessSuite('fr')
