import type { PassageHit } from '../../../server/answering/engine.ts'
import { features, TfIdf } from '../../../server/answering/text.ts'

/** Documents made for the engine's tests: passages of a file, and the space a knowledge base gives. */

export const YES_NO = ['Yes', 'No', 'N/A']

let nextId = 1
/** A passage of a file, at `page`. */
export const doc = (title: string, text: string, page = 1): PassageHit => ({
  id: nextId++,
  fileId: nextId,
  source: 'file',
  title,
  text,
  location: { page },
  rank: 1,
})

/** A space over the passages plus some unrelated text, as a knowledge base would give. */
export function spaceOf(passages: PassageHit[]) {
  const space = new TfIdf()
  for (const passage of passages) space.add(features(passage.text))
  for (const filler of [
    'The company was founded to serve schools and universities across the region.',
    'Our offices are open Monday to Friday and support is reached by email.',
    'Customers sign an order form and a master subscription agreement.',
  ])
    space.add(features(filler))
  return space
}
