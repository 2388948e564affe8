import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'

/**
 * The development protocols of `npm run eval:answers`, each with the vendor (and product) whose
 * answers and documents it reads, so that calibration can be grouped by vendor and checked on a
 * vendor it was not fitted on (issue 38: confidence that travels).
 */
export interface Protocol {
  name: string
  /** Whose library and documents these are: the grouping for leave-one-vendor-out. */
  vendor: string
  kb: string[]
  questionnaire: string
  /** The gold answers (the questionnaire's own, when it is a completed file of the same product). */
  gold?: string
  /** The product the questionnaire is for (`--product`), where the library speaks for another. */
  product?: string
}

/** Every development protocol whose files are in `shared` (the folder of real questionnaires). */
export function developmentProtocols(shared: string): Protocol[] {
  const instructure = path.join(shared, 'instructure')
  const dated = path.join(shared, 'dated')
  const inFolder = (folder: string, test: RegExp) =>
    existsSync(folder)
      ? readdirSync(folder)
          .filter((name) => test.test(name))
          .sort()
          .map((name) => path.join(folder, name))
      : []
  const documents = inFolder(path.join(instructure, 'documents'), /./)
  const lites = inFolder(instructure, /HECVAT_Lite(_v[0-9.]+)?\.(xlsx|csv)$/)
  const lite = (product: string) => path.join(instructure, `${product}_${product}_HECVAT_Lite.xlsx`)
  const credentialsFull = path.join(
    instructure,
    'Canvas_Credentials_Canvas_Credentials_HECVAT_Full.xlsx',
  )
  const caiq = path.join(shared, 'CSA_CAIQv4.0.3_blank.xlsx')
  const hecvatFull = path.join(shared, 'HECVAT_Full_v3.06_blank.xlsx')
  const whitePact = path.join(shared, 'CAIQv4.0.3_WhitePact_completed.xlsx')
  /** A dated vendor's newest answers (its file names end in their date), and its other documents. */
  const newest = (folder: string, answers: RegExp) =>
    inFolder(path.join(dated, folder), answers).at(-1)
  const wikiEdu = newest('wikiedu', /^WikiEdu_HECVAT_\d{4}-\d{2}-\d{2}\.csv$/)
  const fontAwesome = newest('fontawesome', /^FontAwesome_RFSI_\d{4}-\d{2}-\d{2}\.csv$/)
  return [
    {
      name: 'a',
      vendor: 'Instructure',
      kb: [credentialsFull, ...documents],
      questionnaire: lite('Canvas_Credentials'),
    },
    {
      name: 'b',
      vendor: 'Instructure',
      kb: [
        ...lites.filter((file) => !path.basename(file).startsWith('Canvas_Catalog')),
        ...documents,
      ],
      questionnaire: lite('Canvas_Catalog'),
    },
    { name: 'c', vendor: 'WhitePact', kb: [whitePact], questionnaire: caiq, gold: whitePact },
    // d, documents only: the organisation has policy documents and no library yet
    { name: 'd', vendor: 'Instructure', kb: documents, questionnaire: lite('Canvas_Credentials') },
    // the same, for two more of the vendor's products, so that calibration of document answers
    // is checked on a protocol it was not fitted on
    {
      name: 'd-catalog',
      vendor: 'Instructure',
      kb: documents,
      questionnaire: lite('Canvas_Catalog'),
    },
    {
      name: 'd-studio',
      vendor: 'Instructure',
      kb: documents,
      questionnaire: lite('Canvas_Studio'),
    },
    // e, across frameworks: a HECVAT library and the documents against a CAIQ (judged by hand)
    { name: 'e', vendor: 'Instructure', kb: [credentialsFull, ...documents], questionnaire: caiq },
    // f, another vendor and framework, documents only: Amazon Web Services' completed CAIQ (a
    // PDF) and compliance papers against a blank HECVAT Full (judged by hand)
    {
      name: 'f',
      vendor: 'Amazon Web Services',
      kb: [
        path.join(instructure, 'Amazon_Web_Services_AWS_CAIQ_v4.0.2.pdf'),
        path.join(shared, 'AWS_2018_AWS_Answers_to_Key_Compliance_Questions.pdf'),
        path.join(shared, 'AWS_2018_AWS_NCSC_UK_Cloud_Security_Principles.pdf'),
      ],
      questionnaire: hecvatFull,
    },
    // g, across frameworks the other way: a completed CAIQ as the library against a blank HECVAT
    // Full (judged by hand)
    { name: 'g', vendor: 'WhitePact', kb: [whitePact], questionnaire: hecvatFull },
    // i, a fourth vendor across versions: Wiki Education's newest HECVAT 4.1.6 Core (Markdown
    // converted to CSV) and its accessibility report against a blank HECVAT Full v3.06, the form
    // a university may still send (judged by hand)
    {
      name: 'i',
      vendor: 'Wiki Education',
      kb: [wikiEdu ?? '', ...inFolder(path.join(dated, 'wikiedu'), /VPAT.*\.md$/)],
      questionnaire: hecvatFull,
    },
    // j, a fifth: Font Awesome's newest security Q&A and its published policies (which name the
    // services it uses: other parties) against a blank HECVAT Full (judged by hand)
    {
      name: 'j',
      vendor: 'Font Awesome',
      kb: [fontAwesome ?? '', ...inFolder(path.join(dated, 'fontawesome'), /_doc_.*\.md$/)],
      questionnaire: hecvatFull,
    },
    // s, sister products: Canvas Studio's completed Lite as the library, answering Canvas
    // Catalog's Lite for Catalog (gold: Catalog's own answers): every library answer is another
    // product's (kind other_product)
    {
      name: 's',
      vendor: 'Instructure',
      kb: [lite('Canvas_Studio')],
      questionnaire: lite('Canvas_Catalog'),
      product: 'Canvas Catalog',
    },
  ]
}

/** Whether a protocol's files are all there. */
export const protocolFilesExist = (protocol: Protocol) =>
  [...protocol.kb, protocol.questionnaire].every((file) => file && existsSync(file))
