/** entity-extract stays linear on hostile inputs at its size cap (no regex backtracking blow-up). */
import { linearOnHostileInputs } from '../../test/support/large-inputs'

linearOnHostileInputs('entity-extract')
