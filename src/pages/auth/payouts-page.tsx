import { Link } from '@tanstack/react-router'
import { useActorRef, useSelector } from '@xstate/react'
import { CircleCheck, CircleX } from 'lucide-react'
import { css } from 'styled-system/css'
import { BILLING_TEXTS } from '../../../contract/billing.ts'
import { fillText } from '../../../contract/knowledge.ts'
import { payoutsMachine, selectScreen, selectTierName } from '../../../machines/payouts/index.ts'
import { billingActors } from '../../api/billing-actors.ts'
import { Button } from '../../components/ui/button.tsx'
import { AuthLayout } from './auth-layout.tsx'
import { Pending, StatusScreen, useSearchText } from './auth-parts.tsx'

/** The payouts machine with the real call; tests pass their own `logic`. */
export const createPayoutsLogic = (actors = billingActors()) =>
  payoutsMachine.provide({ actors: { confirmPayout: actors.confirmPayout } })
export type PayoutsLogic = ReturnType<typeof createPayoutsLogic>
const defaultLogic = createPayoutsLogic()

/** /payouts?data: where the checkout provider sends the payer back (spec sections 2, 5, 8). */
export default function PayoutsPage({ logic = defaultLogic }: { logic?: PayoutsLogic }) {
  const data = useSearchText('data')
  return <PayoutsFlow key={data ?? ''} logic={logic} data={data} />
}

function ReturnToDashboard() {
  return (
    <Button asChild className={css({ w: 'full' })}>
      <Link to="/">{BILLING_TEXTS.returnToDashboard}</Link>
    </Button>
  )
}

function PayoutsFlow(props: { logic: PayoutsLogic; data?: string }) {
  const actor = useActorRef(props.logic, { input: { data: props.data ?? null } })
  const screen = useSelector(actor, selectScreen)
  const tierName = useSelector(actor, selectTierName)
  if (screen === 'success') {
    return (
      <StatusScreen
        title={BILLING_TEXTS.webhookSuccess}
        tone="success"
        icon={<CircleCheck />}
        text={
          tierName
            ? fillText(BILLING_TEXTS.webhookSuccessDetail, { tier_name: tierName })
            : BILLING_TEXTS.webhookSuccessNoTier
        }
      >
        <ReturnToDashboard />
      </StatusScreen>
    )
  }
  if (screen === 'error') {
    return (
      <StatusScreen
        title="Payment"
        tone="error"
        icon={<CircleX />}
        error={BILLING_TEXTS.webhookFailed}
      >
        <ReturnToDashboard />
      </StatusScreen>
    )
  }
  return (
    <AuthLayout title="Payment">
      <Pending text={BILLING_TEXTS.webhookLoading} />
    </AuthLayout>
  )
}
