import { useActorRef } from '@xstate/react'
import { ImageUp, Trash2 } from 'lucide-react'
import { css } from 'styled-system/css'
import { flex } from 'styled-system/patterns'
import {
  organizationLogoMachine,
  organizationLogoView,
} from '../../../machines/organization-logo/index.ts'
import { logoActors } from '../../api/organization-actors.ts'
import { useEmitted } from '../../app/use-emitted.ts'
import { useView } from '../../app/use-view.ts'
import { fieldLabel } from '../../components/styles.ts'
import { Button } from '../../components/ui/button.tsx'
import { ChooseButton, FilePicker } from '../../components/ui/file-upload.tsx'

export const createLogoLogic = (actors = logoActors()) =>
  organizationLogoMachine.provide({ actors })
export type LogoLogic = ReturnType<typeof createLogoLogic>
const defaultLogic = createLogoLogic()

const row = flex({ align: 'center', gap: '4', wrap: 'wrap', mt: '1' })
const frame = css({
  display: 'grid',
  placeItems: 'center',
  w: '20',
  h: '20',
  borderWidth: '1px',
  borderStyle: 'dashed',
  borderColor: 'border.default',
  borderRadius: 'l2',
  bg: 'bg.subtle',
  overflow: 'hidden',
  color: 'fg.subtle',
  textStyle: 'xs',
})
const image = css({ maxW: 'full', maxH: 'full', objectFit: 'contain' })
const errorText = css({ textStyle: 'sm', color: 'fg.error', mt: '1' })
const help = css({ textStyle: 'xs', color: 'fg.muted', mt: '1' })

/** The organisation's logo in Settings → Organisation: shown, replaced or removed by admins. */
export function LogoField({
  logic = defaultLogic,
  onChanged,
}: {
  logic?: LogoLogic
  onChanged?: () => void
}) {
  const logo = useActorRef(logic)
  useEmitted(() => [logo.on('changed', () => onChanged?.())], [logo, onChanged])
  const view = useView(logo, organizationLogoView)
  return (
    <div>
      <span className={fieldLabel} id="logo-label">
        Logo
      </span>
      <div className={row}>
        <div className={frame}>
          {view.url ? (
            <img className={image} src={view.url} alt="The organisation’s logo" />
          ) : (
            'No logo'
          )}
        </div>
        <FilePicker
          className={css({ w: 'auto' })}
          accept="image/png,image/jpeg,image/webp"
          testId="logo-picker"
          onFiles={([file]) => {
            if (file) logo.send({ type: 'upload', file })
          }}
        >
          <ChooseButton size="sm" loading={view.busy}>
            <ImageUp size={16} aria-hidden />
            {view.url ? 'Replace logo' : 'Upload logo'}
          </ChooseButton>
        </FilePicker>
        {view.url && (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            disabled={view.busy}
            onClick={() => logo.send({ type: 'remove' })}
          >
            <Trash2 size={16} aria-hidden />
            Remove
          </Button>
        )}
      </div>
      <p className={help}>PNG, JPEG or WebP, at most 512 KB.</p>
      {view.error && (
        <p className={errorText} role="alert">
          {view.error}
        </p>
      )}
    </div>
  )
}
