import { useActorRef } from '@xstate/react'
import { Plus, X } from 'lucide-react'
import { css } from 'styled-system/css'
import { ANSWER_LENGTHS, ANSWER_TONES } from '../../../contract/organization.ts'
import {
  organizationSettingsMachine,
  organizationSettingsView,
} from '../../../machines/organization-settings/index.ts'
import { organizationActors } from '../../api/organization-actors.ts'
import { ToasterContext } from '../../app/toaster.tsx'
import { useEmitted } from '../../app/use-emitted.ts'
import { useView } from '../../app/use-view.ts'
import { RetryAlert } from '../../components/row-actions.tsx'
import { chip, fieldLabel, grid2, muted, selectClass, toolbar } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import * as Field from '../../components/ui/field.tsx'
import { IconButton } from '../../components/ui/icon-button.tsx'
import { Input } from '../../components/ui/input.tsx'
import { LogoField, type LogoLogic } from './logo-field.tsx'

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

const form = css({ display: 'flex', flexDirection: 'column', gap: '4', mt: '3', maxW: '2xl' })
const heading = css({ textStyle: 'lg', fontWeight: 'semibold' })
const help = css({ textStyle: 'xs', color: 'fg.muted', mt: '1' })
const errorText = css({ textStyle: 'sm', color: 'fg.error' })
const domainChip = css({ display: 'inline-flex', alignItems: 'center', gap: '1', pr: '1' })

/** Settings → Organisation (admins): its name, answer style and verified email domains. */
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
    ],
    [settings, toaster, onSaved],
  )
  return (
    <section aria-labelledby="organization-heading">
      <h2 id="organization-heading" className={heading}>
        Organisation
      </h2>
      {view.failed && view.error ? (
        <div className={css({ mt: '3' })}>
          <RetryAlert error={view.error} onRetry={() => settings.send({ type: 'retry' })} />
        </div>
      ) : view.loading ? (
        <p className={`${muted} ${css({ mt: '3' })}`}>Loading...</p>
      ) : (
        <form
          className={form}
          noValidate
          onSubmit={(event) => {
            event.preventDefault()
            settings.send({ type: 'save' })
          }}
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
            <div>
              <label className={fieldLabel} htmlFor="answer-tone">
                Answer tone
              </label>
              <select
                id="answer-tone"
                className={selectClass}
                value={view.form.answer_tone}
                onChange={(event) =>
                  settings.send({
                    type: 'edit',
                    change: { answer_tone: event.target.value as (typeof ANSWER_TONES)[number] },
                  })
                }
              >
                {ANSWER_TONES.map((tone) => (
                  <option key={tone} value={tone}>
                    {TONES[tone]}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label className={fieldLabel} htmlFor="answer-length">
                Answer length
              </label>
              <select
                id="answer-length"
                className={selectClass}
                value={view.form.answer_length}
                onChange={(event) =>
                  settings.send({
                    type: 'edit',
                    change: {
                      answer_length: event.target.value as (typeof ANSWER_LENGTHS)[number],
                    },
                  })
                }
              >
                {ANSWER_LENGTHS.map((length) => (
                  <option key={length} value={length}>
                    {LENGTHS[length]}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <div>
            <label className={fieldLabel} htmlFor="new-domain">
              Verified email domains
            </label>
            <div className={toolbar}>
              <Input
                id="new-domain"
                className={css({ flex: '1', minW: '12rem' })}
                placeholder="example.com"
                value={view.domain}
                onChange={(event) =>
                  settings.send({ type: 'domain.type', value: event.target.value })
                }
                onKeyDown={(event) => {
                  if (event.key !== 'Enter') return
                  event.preventDefault()
                  settings.send({ type: 'domain.add' })
                }}
              />
              <Button
                type="button"
                variant="outline"
                onClick={() => settings.send({ type: 'domain.add' })}
              >
                <Plus /> Add domain
              </Button>
            </div>
            <p className={help}>
              Only a domain of an admin’s confirmed address, and never a public email provider.
            </p>
            {view.form.verified_domains.length > 0 && (
              <ul className={`${toolbar} ${css({ mt: '2' })}`} aria-label="Verified domains">
                {view.form.verified_domains.map((domain) => (
                  <li key={domain} className={`${chip} ${domainChip}`}>
                    {domain}
                    <IconButton
                      size="xs"
                      variant="ghost"
                      aria-label={`Remove ${domain}`}
                      onClick={() => settings.send({ type: 'domain.remove', domain })}
                    >
                      <X />
                    </IconButton>
                  </li>
                ))}
              </ul>
            )}
          </div>
          {view.error && (
            <p className={errorText} role="alert">
              {view.error}
            </p>
          )}
          <div className={toolbar}>
            <Button type="submit" loading={view.saving} disabled={!view.changed}>
              Save changes
            </Button>
            {view.changed && (
              <Button
                type="button"
                variant="ghost"
                onClick={() => settings.send({ type: 'reset' })}
              >
                Discard
              </Button>
            )}
          </div>
        </form>
      )}
    </section>
  )
}
