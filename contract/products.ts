import * as z from 'zod/mini'

/**
 * An organisation's products (issue 38): what a repository file, a library answer or a
 * questionnaire speaks for. A file or answer with no product speaks for the whole company
 * (policies, HR, governance). Answering a questionnaire for one product, another product's entry
 * is never High and its note names that product; facts that belong to one product are never
 * carried from another.
 */

export const MAX_PRODUCTS = 100
export const MAX_PRODUCT_ALIASES = 10

const nameSchema = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, 'Enter the product’s name'),
    z.maxLength(100, 'A product’s name is at most 100 characters'),
  )

export const productSchema = z.object({
  id: z.int(),
  name: z.string(),
  /** Other names it goes by (a former name, a short name), to recognise it in documents. */
  aliases: z.array(z.string()),
  /** One line on what it is. */
  description: z.string(),
  /** How many repository files, library answers and questionnaires speak for it. */
  files: z.int(),
  qa_items: z.int(),
  questionnaires: z.int(),
  created_at: z.string(),
  updated_at: z.string(),
})
export type Product = z.infer<typeof productSchema>
export const productListSchema = z.object({ results: z.array(productSchema) })

const aliasesSchema = z
  .array(
    z
      .string()
      .check(
        z.trim(),
        z.minLength(1, 'An alias cannot be empty'),
        z.maxLength(100, 'An alias is at most 100 characters'),
      ),
  )
  .check(z.maxLength(MAX_PRODUCT_ALIASES, `At most ${MAX_PRODUCT_ALIASES} aliases`))
const descriptionSchema = z
  .string()
  .check(z.trim(), z.maxLength(300, 'The description is at most 300 characters'))

export const productCreateSchema = z.object({
  name: nameSchema,
  aliases: z._default(aliasesSchema, []),
  description: z._default(descriptionSchema, ''),
})
export type ProductCreate = z.input<typeof productCreateSchema>
/** What an edit changes; what it leaves out stays as it is. */
export const productUpdateSchema = z.object({
  name: z.optional(nameSchema),
  aliases: z.optional(aliasesSchema),
  description: z.optional(descriptionSchema),
})

/** A list's product filter: a product's id, or 'none' for company-wide entries. */
export const productFilterSchema = z.union([
  z.literal('none'),
  z.coerce.number().check(z.int(), z.positive()),
])
export type ProductFilter = z.infer<typeof productFilterSchema>

/** The product of a file, library answer or questionnaire: an id, or null for the whole company. */
export const productIdSchema = z.nullable(z.int().check(z.positive('Choose a product')))

/** Sets (or clears, with null) the product of several files, library answers and questionnaires. */
export const productAssignSchema = z
  .object({
    product_id: productIdSchema,
    file_ids: z._default(z.array(z.int().check(z.positive())).check(z.maxLength(1_000)), []),
    qa_item_ids: z._default(z.array(z.int().check(z.positive())).check(z.maxLength(1_000)), []),
    questionnaire_ids: z._default(
      z.array(z.int().check(z.positive())).check(z.maxLength(1_000)),
      [],
    ),
  })
  .check(
    z.refine(
      (body) => body.file_ids.length + body.qa_item_ids.length + body.questionnaire_ids.length > 0,
      'Choose at least one file, library answer or questionnaire',
    ),
  )
export const productAssignResultSchema = z.object({
  files: z.int(),
  qa_items: z.int(),
  questionnaires: z.int(),
})

export const PRODUCT_TEXTS = {
  notFound: 'That product was not found.',
  invalid: 'Choose a product from the list, or none for the whole company.',
  exists: 'A product with that name already exists.',
  tooMany: `An organisation can have at most ${MAX_PRODUCTS} products.`,
  someNotFound: 'Some of those files, library answers or questionnaires were not found.',
  companyWide: 'All products',
  /** The browser's own words: notices after a change, and failures without the server's reason. */
  listFailed: 'The products could not be loaded.',
  actionFailed: 'That did not work. Try again.',
  nameRequired: 'Enter the product’s name',
  /** {name} is replaced. */
  added: '{name} added',
  saved: '{name} saved',
  deleted: '{name} deleted',
  /** The name of a product no longer in the list. */
  unnamed: 'The product',
  choiceFailed: 'The product could not be changed.',
} as const
