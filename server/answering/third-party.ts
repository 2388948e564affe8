import type { Candidate, OtherParty } from './types.ts'

/**
 * Kind `third_party` (issue 38): a Yes or No that rests only on sentences stating what another
 * named party does or requires (a cloud provider, a sub-processor, a customer, a regulator, a law
 * or a standard's text; who says what is parties.ts). It is a lead, not the organisation's own
 * word: never High (THIRD_PARTY_CAP, whatever calibration says), and its note names the party.
 */

/** How every third party's note begins ('Says what AWS does, not what you do: ...'). */
export const THIRD_PARTY_PREFIX = 'Says what'

/** The highest confidence such an answer is given: Low, a lead for the reviewer. */
export const THIRD_PARTY_CAP = 0.45

/** 'Says what AWS does, not what you do: check it holds for you before approving.' */
export const thirdPartyNote = (party: OtherParty) =>
  party.text
    ? `${THIRD_PARTY_PREFIX} ${party.name} requires, not what you do: check that you do it before approving.`
    : `${THIRD_PARTY_PREFIX} ${party.name} does, not what you do: check it holds for you before approving.`

/** A candidate that rests only on another party's sentences, as a lead: its note, never High. */
export const asThirdParty = (candidate: Candidate, party: OtherParty): Candidate => ({
  ...candidate,
  reason: thirdPartyNote(party),
  confidence: Math.min(candidate.confidence, THIRD_PARTY_CAP),
  ceiling: Math.min(candidate.ceiling ?? 1, THIRD_PARTY_CAP),
})
