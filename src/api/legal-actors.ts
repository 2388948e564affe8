import { fromPromise } from 'xstate'
import { type LegalDocument, type LegalKind, legalDocumentSchema } from '../../contract/legal.ts'
import { paths } from '../../contract/paths.ts'
import { legalPageMachine } from '../../machines/legal-page/index.ts'
import { type ApiClient, api } from './client.ts'

/** The instance's terms and privacy policy (issue 30), read without signing in. */
export function createLegalLogic(client: ApiClient = api) {
  return legalPageMachine.provide({
    actors: {
      loadDocument: fromPromise<LegalDocument, { kind: LegalKind }>(({ input, signal }) =>
        client.get(paths.legal(input.kind), legalDocumentSchema, { signal }),
      ),
    },
  })
}
export type LegalLogic = ReturnType<typeof createLegalLogic>
