import { useActorRef } from '@xstate/react'
import { Copy, KeyRound, Plus } from 'lucide-react'
import { css } from 'styled-system/css'
import type { ApiKey } from '../../../contract/platform.ts'
import { apiKeysView } from '../../../machines/api-keys/index.ts'
import { type ApiKeysLogic, createApiKeysLogic } from '../../api/platform-actors.ts'
import { useView } from '../../app/use-view.ts'
import { DialogActions, DialogForm, DialogFrame } from '../../components/dialog-frame.tsx'
import { callout, grid2 } from '../../components/form-styles.ts'
import { RetryAlert } from '../../components/row-actions.tsx'
import { dataTable, dialogBox, pill, tableWrap, toolbar } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import * as Field from '../../components/ui/field.tsx'
import { formatDay } from '../../lib/format.ts'

const defaultLogic = createApiKeysLogic()

const heading = css({ textStyle: 'lg', fontWeight: 'semibold' })
const intro = css({ color: 'fg.muted', textStyle: 'sm', mt: '1', maxW: '2xl' })
const secret = css({
  fontFamily: 'mono',
  textStyle: 'sm',
  p: '3',
  borderRadius: 'l2',
  bg: 'gray.a3',
  wordBreak: 'break-all',
})
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
    <section
      aria-labelledby="api-keys-heading"
      className={css({ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '4' })}
    >
      <div
        className={css({
          display: 'flex',
          gap: '3',
          justifyContent: 'space-between',
          flexWrap: 'wrap',
        })}
      >
        <div>
          <h2 id="api-keys-heading" className={heading}>
            API keys
          </h2>
          <p className={intro}>
            Programs call Quire's API with a key: <code>Authorization: Bearer qk_…</code>. A read
            key reads and exports; a read and write key also changes the work. No key manages
            people, settings, single sign-on or billing.
          </p>
        </div>
        <Button onClick={() => actor.send({ type: 'start' })} disabled={view.loading}>
          <Plus /> New key
        </Button>
      </div>
      {view.error && !view.editing && (
        <p className={callout({ tone: 'error' })} role="alert">
          {view.error}
        </p>
      )}
      {view.failed ? (
        <RetryAlert error={view.error ?? ''} onRetry={() => actor.send({ type: 'retry' })} />
      ) : view.loading ? (
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
                  <td className={muted}>{key.expires_at ? formatDay(key.expires_at) : 'Never'}</td>
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
      )}

      {/* one dialog from the form to what is shown once: two dialogs swapping would close it */}
      <DialogFrame
        open={view.editing || view.created !== null}
        onClose={() => actor.send({ type: view.created ? 'done' : 'cancel' })}
        title={view.created ? 'Copy the key now' : 'New API key'}
        description={
          view.created ? 'It is shown this once: Quire keeps only its fingerprint.' : undefined
        }
        className={dialogBox({ size: 'md' })}
      >
        {view.created ? (
          <>
            <p className={secret} data-testid="new-api-key">
              <KeyRound size={14} aria-hidden className={css({ display: 'inline', mr: '2' })} />
              {view.created?.key}
            </p>
            <div className={toolbar}>
              <Button
                variant="outline"
                onClick={() => void navigator.clipboard?.writeText(view.created?.key ?? '')}
              >
                <Copy /> Copy
              </Button>
              <Button onClick={() => actor.send({ type: 'done' })}>Done</Button>
            </div>
          </>
        ) : (
          <>
            <DialogForm noValidate onSubmit={() => actor.send({ type: 'create' })}>
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
              {view.error && (
                <p className={callout({ tone: 'error' })} role="alert">
                  {view.error}
                </p>
              )}
              <DialogActions
                onCancel={() => actor.send({ type: 'cancel' })}
                confirmLabel="Create key"
                busy={view.busy}
              />
            </DialogForm>
          </>
        )}
      </DialogFrame>

      <DialogFrame
        open={view.confirming}
        onClose={() => actor.send({ type: 'cancel' })}
        title={`Revoke ${view.revoking?.name ?? 'this key'}?`}
        description="Programs that use it stop at once."
        className={dialogBox({ size: 'md' })}
      >
        <DialogActions
          onCancel={() => actor.send({ type: 'cancel' })}
          confirmLabel="Revoke"
          onConfirm={() => actor.send({ type: 'confirm' })}
          busy={view.busy}
        />
      </DialogFrame>
    </section>
  )
}
