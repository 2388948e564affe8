import { useActorRef } from '@xstate/react'
import { KeyRound, Plus } from 'lucide-react'
import { css } from 'styled-system/css'
import type { ApiKey } from '../../../contract/platform.ts'
import { apiKeysView } from '../../../machines/api-keys/index.ts'
import { type ApiKeysLogic, createApiKeysLogic } from '../../api/platform-actors.ts'
import { useView } from '../../app/use-view.ts'
import { grid2 } from '../../components/form-styles.ts'
import { ConfirmActionDialog, ShownOnceDialog } from '../../components/shown-once-dialog.tsx'
import { dataTable, pill, tableWrap } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import * as Field from '../../components/ui/field.tsx'
import { formatDay } from '../../lib/format.ts'
import { ListSection } from './list-section.tsx'

const defaultLogic = createApiKeysLogic()

const prefix = css({ fontFamily: 'mono', textStyle: 'xs' })
const muted = css({ color: 'fg.muted', textStyle: 'xs' })
const radio = css({ display: 'flex', gap: '2', alignItems: 'flex-start', textStyle: 'sm' })
const dot = css({ mt: '0.5', accentColor: 'colorPalette.default' })
const revokedPill = css({ bg: 'red.a3', color: 'red.text' })
const livePill = css({ bg: 'green.a3', color: 'green.text' })

const state = (key: ApiKey) =>
  key.revoked_at
    ? { label: 'Revoked', tone: revokedPill }
    : key.expires_at && Date.parse(key.expires_at) < Date.now()
      ? { label: 'Expired', tone: revokedPill }
      : { label: 'Active', tone: livePill }

/**
 * Settings → API keys (issue 41, admins): renders the API keys machine and sends its events.
 * A new key is shown once, to copy; the list shows each key by its first characters.
 */
export function ApiKeysSection({ logic = defaultLogic }: { logic?: ApiKeysLogic }) {
  const actor = useActorRef(logic)
  const view = useView(actor, apiKeysView)
  const edit = (change: Partial<typeof view.form>) => actor.send({ type: 'edit', change })
  return (
    <ListSection
      id="api-keys"
      title="API keys"
      intro={
        <>
          Programs call Quire's API with a key: <code>Authorization: Bearer qk_…</code>. A read key
          reads and exports; a read and write key also changes the work. No key manages people,
          settings, single sign-on or billing.
        </>
      }
      action={
        <Button onClick={() => actor.send({ type: 'start' })} disabled={view.loading}>
          <Plus /> New key
        </Button>
      }
      notice={view.error && !view.editing ? view.error : null}
      failed={view.failed}
      error={view.error}
      onRetry={() => actor.send({ type: 'retry' })}
      list={
        view.loading ? (
          <p className={muted}>Loading...</p>
        ) : view.keys.length === 0 ? (
          <p className={css({ color: 'fg.muted', textStyle: 'sm' })}>No API key yet.</p>
        ) : (
          <div className={tableWrap}>
            <table className={dataTable}>
              <thead>
                <tr>
                  <th>Key</th>
                  <th>Access</th>
                  <th>Last used</th>
                  <th>Expires</th>
                  <th data-align="end">
                    <span className={css({ srOnly: true })}>Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {view.keys.map((key) => (
                  <tr key={key.id}>
                    <td>
                      <div className={css({ fontWeight: 'medium' })}>{key.name}</div>
                      <div className={muted}>
                        <span className={prefix}>{key.prefix}…</span>
                        {key.created_by && ` · by ${key.created_by.name}`} ·{' '}
                        {formatDay(key.created_at)}
                      </div>
                    </td>
                    <td>
                      {key.scopes.includes('write') ? 'Read and write' : 'Read'}{' '}
                      <span className={`${pill} ${state(key).tone}`}>{state(key).label}</span>
                    </td>
                    <td className={muted}>
                      {key.last_used_at ? formatDay(key.last_used_at) : 'Never'}
                    </td>
                    <td className={muted}>
                      {key.expires_at ? formatDay(key.expires_at) : 'Never'}
                    </td>
                    <td className={css({ textAlign: 'right' })}>
                      {!key.revoked_at && (
                        <Button
                          size="sm"
                          variant="outline"
                          aria-label={`Revoke ${key.name}`}
                          onClick={() => actor.send({ type: 'revoke', key })}
                        >
                          Revoke
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      }
    >
      <ShownOnceDialog
        editing={view.editing}
        title="New API key"
        error={view.error}
        busy={view.busy}
        confirmLabel="Create key"
        onSubmit={() => actor.send({ type: 'create' })}
        onCancel={() => actor.send({ type: 'cancel' })}
        secret={view.created?.key ?? null}
        secretTitle="Copy the key now"
        secretDescription="It is shown this once: Quire keeps only its fingerprint."
        secretTestId="new-api-key"
        secretIcon={
          <KeyRound size={14} aria-hidden className={css({ display: 'inline', mr: '2' })} />
        }
        copyable
        onDone={() => actor.send({ type: 'done' })}
      >
        <Field.Root>
          <Field.Label>Name</Field.Label>
          <Field.Input
            value={view.form.name}
            placeholder="CRM sync"
            onChange={(event) => edit({ name: event.target.value })}
          />
        </Field.Root>
        <fieldset className={css({ display: 'grid', gap: '2' })}>
          <legend className={css({ textStyle: 'sm', fontWeight: 'medium', mb: '1' })}>
            Access
          </legend>
          <label className={radio}>
            <input
              type="radio"
              name="api-key-access"
              className={dot}
              checked={view.form.access === 'read'}
              onChange={() => edit({ access: 'read' })}
            />
            <span>Read: search, read and export</span>
          </label>
          <label className={radio}>
            <input
              type="radio"
              name="api-key-access"
              className={dot}
              checked={view.form.access === 'write'}
              onChange={() => edit({ access: 'write' })}
            />
            <span>Read and write: also upload, answer, approve and change the library</span>
          </label>
        </fieldset>
        <div className={grid2}>
          <Field.Root>
            <Field.Label>Expires (optional)</Field.Label>
            <Field.Input
              type="date"
              value={view.form.expires}
              onChange={(event) => edit({ expires: event.target.value })}
            />
          </Field.Root>
        </div>
      </ShownOnceDialog>

      <ConfirmActionDialog
        open={view.confirming}
        title={`Revoke ${view.revoking?.name ?? 'this key'}?`}
        description="Programs that use it stop at once."
        confirmLabel="Revoke"
        busy={view.busy}
        onConfirm={() => actor.send({ type: 'confirm' })}
        onCancel={() => actor.send({ type: 'cancel' })}
      />
    </ListSection>
  )
}
