import { useActorRef } from '@xstate/react'
import { css } from 'styled-system/css'
import {
  DEFAULT_REVIEW_CYCLE_DAYS,
  DUE_WINDOW_DAYS,
  MAX_REVIEW_CYCLE_DAYS,
} from '../../../contract/freshness.ts'
import { ANSWER_LENGTHS, ANSWER_TONES } from '../../../contract/organization.ts'
import {
  organizationSettingsMachine,
  organizationSettingsView,
} from '../../../machines/organization-settings/index.ts'
import { organizationActors } from '../../api/organization-actors.ts'
import { ToasterContext } from '../../app/toaster.tsx'
import { useEmitted } from '../../app/use-emitted.ts'
import { useView } from '../../app/use-view.ts'
import { grid2 } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import * as Field from '../../components/ui/field.tsx'
import { SimpleSelect } from '../../components/ui/select.tsx'
import { DnsProof } from './dns-proof.tsx'
import { DomainList } from './domain-list.tsx'
import { LogoField, type LogoLogic } from './logo-field.tsx'
import { SettingsForm } from './settings-form.tsx'

export const createOrganizationLogic = (actors = organizationActors()) =>
  organizationSettingsMachine.provide({ actors })
export type OrganizationLogic = ReturnType<typeof createOrganizationLogic>
const defaultLogic = createOrganizationLogic()

const TONES: Record<(typeof ANSWER_TONES)[number], string> = {
  neutral: 'Neutral',
  formal: 'Formal',
  friendly: 'Friendly',
}
const LENGTHS: Record<(typeof ANSWER_LENGTHS)[number], string> = {
  brief: 'Brief',
  standard: 'Standard',
  detailed: 'Detailed',
}
const TONE_OPTIONS = ANSWER_TONES.map((tone) => ({ value: tone, label: TONES[tone] }))
const LENGTH_OPTIONS = ANSWER_LENGTHS.map((length) => ({ value: length, label: LENGTHS[length] }))

const cycleField = css({ maxW: 'md' })
const digestField = css({
  display: 'flex',
  alignItems: 'flex-start',
  columnGap: '2',
  maxW: 'xl',
  textStyle: 'sm',
  color: 'fg.muted',
  '& input': { mt: '1', flexShrink: 0 },
})

/**
 * Settings → Organisation (admins): its name, answer style, the review cycle of its library
 * answers and verified email domains, each domain proved by DNS or by an admin's mailbox only.
 */
export function OrganizationSection({
  logic = defaultLogic,
  logoLogic,
  onSaved,
}: {
  logic?: OrganizationLogic
  logoLogic?: LogoLogic
  onSaved?: () => void
}) {
  const settings = useActorRef(logic)
  const view = useView(settings, organizationSettingsView)
  const toaster = ToasterContext.useActorRef()
  useEmitted(
    () => [
      settings.on('saved', () => {
        toaster.send({ type: 'toast.show', toast: { type: 'success', title: 'Settings saved' } })
        onSaved?.()
      }),
      // the proof is audited: the page's audit log reads it again
      settings.on('dnsVerified', () => onSaved?.()),
    ],
    [settings, toaster, onSaved],
  )
  return (
    <SettingsForm
      id="organization"
      title="Organisation"
      failure={view.failed && view.error ? view.error : null}
      loading={view.loading}
      error={view.error}
      onRetry={() => settings.send({ type: 'retry' })}
      onSubmit={() => settings.send({ type: 'save' })}
      actions={
        <>
          <Button type="submit" loading={view.saving} disabled={!view.changed || view.checking}>
            Save changes
          </Button>
          {view.changed && (
            <Button type="button" variant="ghost" onClick={() => settings.send({ type: 'reset' })}>
              Discard
            </Button>
          )}
        </>
      }
    >
      <Field.Root>
        <Field.Label>Name</Field.Label>
        <Field.Input
          value={view.form.name}
          onChange={(event) =>
            settings.send({ type: 'edit', change: { name: event.target.value } })
          }
        />
      </Field.Root>
      <LogoField logic={logoLogic} onChanged={onSaved} />
      <div className={grid2}>
        <SimpleSelect
          label="Answer tone"
          size="md"
          options={TONE_OPTIONS}
          value={view.form.answer_tone}
          onChange={(value) =>
            settings.send({
              type: 'edit',
              change: { answer_tone: value as (typeof ANSWER_TONES)[number] },
            })
          }
        />
        <SimpleSelect
          label="Answer length"
          size="md"
          options={LENGTH_OPTIONS}
          value={view.form.answer_length}
          onChange={(value) =>
            settings.send({
              type: 'edit',
              change: { answer_length: value as (typeof ANSWER_LENGTHS)[number] },
            })
          }
        />
      </div>
      <Field.Root className={cycleField}>
        <Field.Label>Review cycle (days)</Field.Label>
        <Field.Input
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_REVIEW_CYCLE_DAYS}
          step={1}
          value={Number.isNaN(view.form.review_cycle_days) ? '' : view.form.review_cycle_days}
          onChange={(event) =>
            settings.send({
              type: 'edit',
              change: {
                review_cycle_days:
                  event.target.value === '' ? Number.NaN : Number(event.target.value),
              },
            })
          }
        />
        <Field.HelperText>
          How long a library answer stays fresh after its last review, unless the answer sets its
          own. It falls due for review {DUE_WINDOW_DAYS} days before (default:{' '}
          {DEFAULT_REVIEW_CYCLE_DAYS}).
        </Field.HelperText>
      </Field.Root>
      <label className={digestField}>
        <input
          type="checkbox"
          checked={view.form.review_digest}
          onChange={(event) =>
            settings.send({ type: 'edit', change: { review_digest: event.target.checked } })
          }
        />
        <span>
          Email owners each Monday the library answers due for review (those they own that fall due
          within {DUE_WINDOW_DAYS} days or are past their review).
        </span>
      </label>
      <label className={digestField}>
        <input
          type="checkbox"
          checked={view.form.export_approved_only}
          onChange={(event) =>
            settings.send({
              type: 'edit',
              change: { export_approved_only: event.target.checked },
            })
          }
        />
        <span>
          Fill the customer’s file with approved answers only, unless the person exporting chooses
          all drafts. Unapproved cells are left as the file had them.
        </span>
      </label>
      <DomainList settings={settings} />
      <DnsProof settings={settings} />
    </SettingsForm>
  )
}
