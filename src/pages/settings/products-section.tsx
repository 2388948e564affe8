import { useActorRef } from '@xstate/react'
import { Boxes, Pencil, Plus, Trash2 } from 'lucide-react'
import { css } from 'styled-system/css'
import { flex, wrap } from 'styled-system/patterns'
import type { Product } from '../../../contract/products.ts'
import { productsMachine, productsView } from '../../../machines/products/index.ts'
import { productActors } from '../../api/product-actors.ts'
import { ToasterContext } from '../../app/toaster.tsx'
import { useEmitted } from '../../app/use-emitted.ts'
import { useView } from '../../app/use-view.ts'
import { RetryAlert, RowActions } from '../../components/row-actions.tsx'
import { card, chip, muted } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import * as Menu from '../../components/ui/menu.tsx'
import { EmptyState } from '../empty-state.tsx'
import { ConfirmDialog } from '../shared/confirm-dialog.tsx'
import { ProductDialog } from './product-dialog.tsx'

/** The products machine with the real calls; tests pass their own. */
export const createProductsLogic = (actors = productActors()) => productsMachine.provide({ actors })
export type ProductsLogic = ReturnType<typeof createProductsLogic>
const defaultLogic = createProductsLogic()

const heading = css({ textStyle: 'lg', fontWeight: 'semibold' })
const intro = css({ color: 'fg.muted', textStyle: 'sm', mt: '1', maxW: '2xl' })
const list = css({ display: 'flex', flexDirection: 'column', gap: '2', mt: '4' })
const row = css({
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1fr) auto',
  gap: '1 3',
  alignItems: 'start',
})
const name = css({ fontWeight: 'semibold', textStyle: 'md', overflowWrap: 'anywhere' })
const description = css({ color: 'fg.muted', mt: '0.5', overflowWrap: 'anywhere' })
const aliases = wrap({ gap: '1', mt: '2', align: 'center' })
const counts = wrap({ gap: '1 4', mt: '2', textStyle: 'xs', color: 'fg.muted' })
const count = css({ '& strong': { color: 'fg.default', fontWeight: 'semibold' } })

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/** What speaks for a product: its files, library answers and questionnaires. */
function Counts({ product }: { product: Product }) {
  const parts = [
    plural(product.files, 'file', 'files'),
    plural(product.qa_items, 'library answer', 'library answers'),
    plural(product.questionnaires, 'questionnaire', 'questionnaires'),
  ]
  return (
    <ul className={counts} aria-label={`What speaks for ${product.name}`}>
      {parts.map((part) => {
        const [n, ...words] = part.split(' ')
        return (
          <li key={part} className={count}>
            <strong>{n}</strong> {words.join(' ')}
          </li>
        )
      })}
    </ul>
  )
}

/**
 * Settings → Products (issue 38): the organisation's products and what speaks for each. Those who
 * curate the library add, edit and delete them; everyone else reads.
 */
export function ProductsSection({
  logic = defaultLogic,
  canManage,
}: {
  logic?: ProductsLogic
  /** library.manage: add, edit and delete. */
  canManage: boolean
}) {
  const products = useActorRef(logic)
  const view = useView(products, productsView)
  const toaster = ToasterContext.useActorRef()
  useEmitted(
    () => [
      products.on('changed', (event) =>
        toaster.send({ type: 'toast.show', toast: { type: 'success', title: event.notice } }),
      ),
    ],
    [products, toaster],
  )
  const target = view.target
  const addButton = canManage && (
    <Button onClick={() => products.send({ type: 'add.open' })}>
      <Plus /> Add product
    </Button>
  )

  return (
    <section aria-labelledby="products-heading">
      <div
        className={flex({ justify: 'space-between', align: 'flex-start', gap: '3', wrap: 'wrap' })}
      >
        <div>
          <h2 id="products-heading" className={heading}>
            Products
          </h2>
          <p className={intro}>
            Say which product a document, library answer or questionnaire speaks for, or leave it
            for all products (policies, HR, governance).
            {canManage ? '' : ' Those who manage the library add and change products.'}
          </p>
        </div>
        {view.products.length > 0 && addButton}
      </div>
      {view.listError ? (
        <div className={css({ mt: '4' })}>
          <RetryAlert error={view.listError} onRetry={() => products.send({ type: 'retry' })} />
        </div>
      ) : view.loading ? (
        <p className={`${muted} ${css({ mt: '4' })}`}>Loading products...</p>
      ) : view.products.length === 0 ? (
        <div className={css({ mt: '4' })}>
          <EmptyState icon={Boxes} title="No products yet" action={addButton || undefined}>
            Quire answers each questionnaire for one product: answers from another product’s
            documents are never High, and facts that belong to one product (what it is, where it is
            hosted, its certifications) are never carried to another. Add your products if you sell
            more than one; with none, everything speaks for the whole company.
          </EmptyState>
        </div>
      ) : (
        <ul className={list} aria-label="Products">
          {view.products.map((product) => (
            <li key={product.id} className={card}>
              <div className={row}>
                <div className={css({ minW: '0' })}>
                  <p className={name}>{product.name}</p>
                  {product.description && <p className={description}>{product.description}</p>}
                  {product.aliases.length > 0 && (
                    <p className={aliases}>
                      <span className={muted}>Also called</span>
                      {product.aliases.map((alias) => (
                        <span key={alias} className={chip}>
                          {alias}
                        </span>
                      ))}
                    </p>
                  )}
                  <Counts product={product} />
                </div>
                {canManage && (
                  <RowActions name={product.name}>
                    <Menu.Item
                      value="edit"
                      onClick={() => products.send({ type: 'edit.open', id: product.id })}
                    >
                      <Pencil /> Edit
                    </Menu.Item>
                    <Menu.Item
                      value="delete"
                      onClick={() => products.send({ type: 'delete.ask', id: product.id })}
                    >
                      <Trash2 /> Delete
                    </Menu.Item>
                  </RowActions>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}

      <ProductDialog
        mode={view.dialog}
        form={view.form}
        busy={view.busy}
        error={view.actionError}
        onEdit={(change) => products.send({ type: 'form.edit', change })}
        onSubmit={() => products.send({ type: 'form.submit' })}
        onClose={() => products.send({ type: 'dialog.close' })}
      />
      <ConfirmDialog
        open={view.confirmingDelete}
        title={`Delete ${target?.name ?? 'this product'}?`}
        description={
          target && target.files + target.qa_items + target.questionnaires > 0
            ? `What spoke for it (${plural(target.files, 'file', 'files')}, ${plural(target.qa_items, 'library answer', 'library answers')}, ${plural(target.questionnaires, 'questionnaire', 'questionnaires')}) becomes “All products”: it stays, and speaks for the whole company.`
            : 'Nothing speaks for it yet. Files, answers and questionnaires are never deleted with a product: they become “All products”.'
        }
        confirmLabel="Delete product"
        busy={view.busy}
        error={view.actionError}
        onConfirm={() => products.send({ type: 'delete.confirm' })}
        onCancel={() => products.send({ type: 'dialog.close' })}
      />
    </section>
  )
}
