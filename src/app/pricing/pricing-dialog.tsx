import { Check, X } from 'lucide-react'
import { css, cx } from 'styled-system/css'
import { flex, grid, stack } from 'styled-system/patterns'
import { BILLING_TEXTS, type PricingTier } from '../../../contract/billing.ts'
import { fillText } from '../../../contract/knowledge.ts'
import { pricingView } from '../../../machines/pricing/index.ts'
import { DialogFrame } from '../../components/dialog-frame.tsx'
import { dialogBox } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import { IconButton } from '../../components/ui/icon-button.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { useView } from '../use-view.ts'
import type { PricingActorRef } from './use-pricing.ts'

const box = cx(
  dialogBox({ size: 'wide' }),
  css({ w: { base: 'calc(100vw - 1rem)', md: '3xl', xl: '5xl' } }),
)
const closeButton = css({ position: 'absolute', top: '3', right: '3' })
const toggle = flex({
  alignSelf: 'center',
  gap: '1',
  p: '1',
  borderRadius: 'l3',
  bg: 'bg.muted',
})
const toggleButton = css({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '2',
  px: '4',
  py: '1.5',
  borderRadius: 'l2',
  textStyle: 'sm',
  fontWeight: 'medium',
  color: 'fg.muted',
  cursor: 'pointer',
  '&[aria-pressed=true]': { bg: 'bg.default', color: 'fg.default', boxShadow: 'xs' },
})
const saveBadge = css({
  px: '1.5',
  borderRadius: 'l1',
  bg: 'green.a3',
  color: 'green.11',
  textStyle: 'xs',
  fontWeight: 'semibold',
})
const cards = grid({ columns: { base: 1, md: 2, xl: 4 }, gap: '4' })
const card = stack({
  position: 'relative',
  gap: '3',
  p: '5',
  borderWidth: '1px',
  borderColor: 'border.default',
  borderRadius: 'l3',
  bg: 'bg.default',
  '&[data-highlighted]': { borderColor: 'colorPalette.default', borderWidth: '2px' },
})
const popularBadge = css({
  position: 'absolute',
  top: '-3',
  left: '50%',
  transform: 'translateX(-50%)',
  px: '2.5',
  py: '0.5',
  borderRadius: 'full',
  bg: 'colorPalette.default',
  color: 'colorPalette.fg',
  textStyle: 'xs',
  fontWeight: 'semibold',
  whiteSpace: 'nowrap',
})
const price = css({ textStyle: '3xl', fontWeight: 'bold', lineHeight: '1.1' })
const per = css({ textStyle: 'sm', color: 'fg.muted', fontWeight: 'normal' })
const features = stack({ gap: '1.5', textStyle: 'sm', flex: '1' })
const feature = flex({ gap: '2', align: 'flex-start' })
const notice = css({
  p: '3',
  borderRadius: 'l2',
  textStyle: 'sm',
  bg: 'amber.a3',
  color: 'amber.12',
})
const failure = css({ p: '3', borderRadius: 'l2', textStyle: 'sm', bg: 'red.a3', color: 'red.11' })
const centered = stack({ align: 'center', gap: '3', py: '10', textAlign: 'center' })

/** Dollars with no decimals (spec section 9). */
const dollars = (amount: number) =>
  `$${amount.toLocaleString('en-US', { maximumFractionDigits: 0 })}`

/** 'Choose Your Plan' (spec sections 2, 8 and 9). Renders the pricing machine; sends its events. */
export function PricingDialog({ actor }: { actor: PricingActorRef }) {
  const view = useView(actor, pricingView)
  const close = () => actor.send({ type: 'close' })
  return (
    <DialogFrame
      open={view.open}
      onClose={close}
      className={box}
      title={BILLING_TEXTS.dialogTitle}
      lazyMount
      unmountOnExit
    >
      <IconButton
        aria-label="Close"
        variant="ghost"
        size="sm"
        className={closeButton}
        onClick={close}
      >
        <X size={18} aria-hidden />
      </IconButton>
      {view.reason && (
        <p className={notice} role="status">
          {view.reason}
        </p>
      )}
      {view.screen === 'loading' && (
        <div className={centered}>
          <Spinner />
          <p>{BILLING_TEXTS.loading}</p>
        </div>
      )}
      {view.screen === 'failed' && (
        <div className={centered} role="alert">
          <p>{BILLING_TEXTS.loadFailed}</p>
          <Button onClick={() => actor.send({ type: 'retry' })}>{BILLING_TEXTS.tryAgain}</Button>
        </div>
      )}
      {view.screen === 'plans' && (
        <>
          <fieldset className={toggle} aria-label="Billing period">
            {(['monthly', 'yearly'] as const).map((period) => (
              <button
                key={period}
                type="button"
                className={toggleButton}
                aria-pressed={view.period === period}
                onClick={() => actor.send({ type: 'period.set', period })}
              >
                {period === 'monthly' ? BILLING_TEXTS.monthly : BILLING_TEXTS.yearly}
                {period === 'yearly' && (
                  <span className={saveBadge}>{BILLING_TEXTS.saveBadge}</span>
                )}
              </button>
            ))}
          </fieldset>
          {view.checkoutError && (
            <p className={failure} role="alert">
              {view.checkoutError}
            </p>
          )}
          <div className={cards}>
            {view.cards.map((tier) => (
              <PlanCard
                key={tier.id}
                tier={tier}
                current={tier.tier === view.currentTier}
                busy={view.busy}
                choosing={view.choosing === tier.paddle_price_id}
                salesUrl={view.salesUrl}
                onChoose={(priceId) => actor.send({ type: 'choose', priceId })}
              />
            ))}
          </div>
        </>
      )}
    </DialogFrame>
  )
}

function PlanCard(props: {
  tier: PricingTier
  current: boolean
  busy: boolean
  choosing: boolean
  salesUrl: string
  onChoose: (priceId: string) => void
}) {
  const { tier } = props
  const priceId = tier.paddle_price_id
  return (
    <article
      className={card}
      data-highlighted={tier.highlighted || tier.popular ? '' : undefined}
      data-testid={`plan-${tier.tier}`}
      aria-label={tier.base_name}
    >
      {tier.popular && <span className={popularBadge}>{BILLING_TEXTS.mostPopular}</span>}
      <h3 className={css({ textStyle: 'lg', fontWeight: 'semibold' })}>{tier.base_name}</h3>
      <p className={price}>
        {dollars(tier.price)}
        <span className={per}>
          {tier.billing_period === 'monthly' ? BILLING_TEXTS.perMonth : BILLING_TEXTS.perYear}
        </span>
      </p>
      {tier.description && (
        <p className={css({ textStyle: 'sm', color: 'fg.muted' })}>{tier.description}</p>
      )}
      <ul className={features}>
        {tier.features.map((text) => (
          <li key={text} className={feature}>
            <Check
              size={16}
              aria-hidden
              className={css({ flexShrink: 0, mt: '0.5', color: 'green.10' })}
            />
            <span>{text}</span>
          </li>
        ))}
      </ul>
      {props.current ? (
        <Button variant="outline" disabled>
          {BILLING_TEXTS.currentPlan}
        </Button>
      ) : priceId ? (
        <Button
          variant={tier.popular ? 'solid' : 'outline'}
          loading={props.choosing}
          disabled={props.busy}
          onClick={() => props.onChoose(priceId)}
        >
          {fillText(BILLING_TEXTS.choose, { base_name: tier.base_name })}
        </Button>
      ) : (
        <Button variant="outline" asChild>
          <a href={props.salesUrl} target="_blank" rel="noopener noreferrer">
            {BILLING_TEXTS.contactSales}
          </a>
        </Button>
      )}
    </article>
  )
}
