import {
  extensionConfigSchema,
  extensionHandoffRequestSchema,
  extensionHandoffResponseSchema,
} from '../extension.ts'
import { paths } from '../paths.ts'
import {
  portalFilledRequestSchema,
  portalFilledResponseSchema,
  portalReadRequestSchema,
  portalReadResponseSchema,
} from '../portal.ts'
import { type OperationDocs, op } from './operation.ts'

const E = paths.extension

/** The browser extension's hand-off. */
export const extensionOperations: OperationDocs = {
  [op('GET', E.config)]: {
    summary: 'The browser extensions allowed to receive a session',
    access: 'public',
    response: extensionConfigSchema,
  },
  [op('POST', E.handoff)]: {
    summary: 'A session of the extension’s own, handed back to an allowed extension only',
    description: 'The session is a child of the person’s: it ends when theirs does.',
    access: 'read',
    body: extensionHandoffRequestSchema,
    response: extensionHandoffResponseSchema,
  },
  [op('POST', E.portalRead)]: {
    summary: 'A web portal’s page of questions, kept as a questionnaire and drafted',
    description:
      'The extension’s reader sends the page’s question fields (their words, kinds and options). The same address finds the same questionnaire (kind `portal`): new fields are added, reworded ones drafted afresh, none dropped. Every open question is drafted before the call returns, by the engine a spreadsheet gets; each answer carries the option a choice field should take.',
    access: 'questionnaires.write',
    body: portalReadRequestSchema,
    response: portalReadResponseSchema,
  },
  [op('POST', E.portalFilled)]: {
    summary: 'What the extension filled into a portal page, recorded in the history',
    access: 'questionnaires.write',
    body: portalFilledRequestSchema,
    response: portalFilledResponseSchema,
  },
}
