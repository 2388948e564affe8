import { useActorRef } from '@xstate/react'
import { css } from 'styled-system/css'
import { grid, wrap } from 'styled-system/patterns'
import { planUsageMachine, planUsageView, shareOf } from '../../../machines/plan-usage/index.ts'
import { billingActors } from '../../api/billing-actors.ts'
import { usePricingActor } from '../../app/pricing/use-pricing.ts'
import { useView } from '../../app/use-view.ts'
import { RetryAlert } from '../../components/row-actions.tsx'
import { muted } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import { LinearProgress } from '../../components/ui/progress.tsx'
import { formatExact } from '../../lib/format.ts'

export const createPlanLogic = (actors = billingActors()) =>
  planUsageMachine.provide({ actors: { loadPlanUsage: actors.loadPlanUsage } })
export type PlanLogic = ReturnType<typeof createPlanLogic>
const defaultLogic = createPlanLogic()

const heading = css({ textStyle: 'lg', fontWeight: 'semibold' })
const head = wrap({ justify: 'space-between', align: 'center', gap: '3' })
const bars = grid({ columns: { base: 1, md: 2 }, gap: '5', mt: '4', maxW: '4xl' })
const summary = css({ color: 'fg.muted', mt: '1', textStyle: 'sm' })
const full = css({ '& [data-part=range]': { bg: 'red.9' } })

const SUBSCRIPTION_STATUS: Record<string, string> = {
  active: 'active',
  trialing: 'in its trial',
  past_due: 'past due: update the payment method',
  paused: 'paused',
  canceled: 'cancelled',
}

/** Settings → Plan: the tier, its subscription, and a bar per limit of the license. */
export function PlanSection({
  logic = defaultLogic,
  canChange,
}: {
  logic?: PlanLogic
  /** Admins choose the plan; others read it. */
  canChange: boolean
}) {
  const plan = useActorRef(logic)
  const view = useView(plan, planUsageView)
  const pricing = usePricingActor()
  const usage = view.plan?.usage
  const subscription = view.plan?.subscription
  return (
    <section aria-labelledby="plan-heading">
      <div className={head}>
        <div>
          <h2 id="plan-heading" className={heading}>
            Plan and usage
          </h2>
          {usage && (
            <p className={summary} data-testid="plan-summary">
              {usage.tier_name} plan
              {usage.is_evaluation ? ' (evaluation)' : ''}
              {usage.expiration_date &&
                (usage.is_active
                  ? `, until ${formatExact(usage.expiration_date)}`
                  : `: ended ${formatExact(usage.expiration_date)}, the free limits apply`)}
              {subscription &&
                `. Subscription ${SUBSCRIPTION_STATUS[subscription.status] ?? subscription.status}${
                  subscription.current_period_end && subscription.status !== 'canceled'
                    ? `, renews ${formatExact(subscription.current_period_end)}`
                    : ''
                }`}
              {usage.multi_language ? '. Questionnaires in several languages.' : '.'}
            </p>
          )}
        </div>
        {canChange ? (
          <Button onClick={() => pricing?.send({ type: 'open' })}>Compare plans</Button>
        ) : (
          <span className={muted}>Your admins choose the plan.</span>
        )}
      </div>
      {view.failed && (
        <RetryAlert
          error="The plan could not be read."
          onRetry={() => plan.send({ type: 'refresh' })}
        />
      )}
      {usage && (
        <div className={bars}>
          {usage.limits.map((limit) => {
            const share = shareOf(limit.used, limit.max)
            return (
              <LinearProgress
                key={limit.name}
                className={share >= 1 ? full : undefined}
                label={limit.label}
                value={limit.max === null ? 0 : Math.round(share * 100)}
                valueText={
                  limit.max === null
                    ? `${limit.used.toLocaleString('en')} (no limit)`
                    : `${limit.used.toLocaleString('en')} of ${limit.max.toLocaleString('en')}`
                }
                data-testid={`usage-${limit.name}`}
              />
            )
          })}
        </div>
      )}
    </section>
  )
}
