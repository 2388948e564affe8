import { css } from 'styled-system/css'
import { wrap } from 'styled-system/patterns'
import { textarea } from 'styled-system/recipes'
import { aliasesOf, type ProductForm } from '../../../machines/products/index.ts'
import { FormDialog } from '../../components/form-dialog.tsx'
import { chip, dialogBox, fieldLabel } from '../../components/styles.ts'
import * as Field from '../../components/ui/field.tsx'

const errorText = css({ textStyle: 'sm', color: 'fg.error' })
const chips = wrap({ gap: '1', mt: '1.5' })

/** Adding a product, or editing one: its name, the other names it goes by, one line on it. */
export function ProductDialog(props: {
  mode: 'add' | 'edit' | null
  form: ProductForm
  busy: boolean
  error: string | null
  onEdit: (change: Partial<ProductForm>) => void
  onSubmit: () => void
  onClose: () => void
}) {
  const { form } = props
  const typed = aliasesOf(form.aliases)
  return (
    <FormDialog
      open={props.mode !== null}
      onClose={props.onClose}
      className={dialogBox({ size: 'md' })}
      title={props.mode === 'edit' ? 'Edit product' : 'Add a product'}
      description="Quire looks for its name and aliases in documents and questionnaires."
      error={props.error}
      errorClassName={errorText}
      confirmLabel={props.mode === 'edit' ? 'Save' : 'Add product'}
      busy={props.busy}
      lockCancel
      onSubmit={props.onSubmit}
    >
      <Field.Root required>
        <Field.Label>
          Name <Field.RequiredIndicator />
        </Field.Label>
        <Field.Input
          autoComplete="off"
          maxLength={100}
          value={form.name}
          onChange={(event) => props.onEdit({ name: event.target.value })}
        />
      </Field.Root>
      <Field.Root>
        <Field.Label>Aliases</Field.Label>
        <Field.Input
          autoComplete="off"
          placeholder="Former or short names, separated by commas"
          value={form.aliases}
          onChange={(event) => props.onEdit({ aliases: event.target.value })}
        />
        {typed.length > 0 ? (
          <span className={chips} data-testid="alias-chips">
            {typed.map((alias) => (
              <span key={alias} className={chip}>
                {alias}
              </span>
            ))}
          </span>
        ) : (
          <Field.HelperText>For example: Studio, Arc</Field.HelperText>
        )}
      </Field.Root>
      <div>
        <label className={fieldLabel} htmlFor="product-description">
          Description
        </label>
        <textarea
          id="product-description"
          className={textarea({ size: 'md' })}
          rows={2}
          maxLength={300}
          placeholder="One line on what it is"
          value={form.description}
          onChange={(event) => props.onEdit({ description: event.target.value })}
        />
      </div>
    </FormDialog>
  )
}
