import { Progress } from '@ark-ui/react/progress'
import type { ComponentProps, ReactNode } from 'react'
import { css } from 'styled-system/css'
import { progress } from 'styled-system/recipes'
import { createStyleContext } from './utils/create-style-context'

const { withProvider, withContext } = createStyleContext(progress)

/** `value={null}` makes the progress indeterminate; `size`: sm | md | lg (track height). */
export const Root = withProvider(Progress.Root, 'root', 'Progress.Root')
export const Label = withContext(Progress.Label, 'label', 'Progress.Label')
export const Track = withContext(Progress.Track, 'track', 'Progress.Track')
export const Range = withContext(Progress.Range, 'range', 'Progress.Range')
/** "42%" by default (empty while indeterminate); children replace it. */
export const ValueText = withContext(Progress.ValueText, 'valueText', 'Progress.ValueText')

export type RootProps = ComponentProps<typeof Root>

export type LinearProgressProps = Omit<RootProps, 'children' | 'value' | 'defaultValue'> & {
  /** The current value, or `null` while the amount of work is unknown. */
  value: number | null
  label?: ReactNode
  /** Replaces the formatted percentage, e.g. "3 of 12 files". */
  valueText?: ReactNode
  /** Defaults to true when the progress is determinate. */
  showValueText?: boolean
}

const header = css({
  display: 'flex',
  alignItems: 'baseline',
  justifyContent: 'space-between',
  gap: '3',
  width: 'full',
})

/** A labelled bar: `<LinearProgress label="Uploading" value={40} />`. */
export function LinearProgress({
  value,
  label,
  valueText,
  showValueText = value !== null,
  ...rootProps
}: LinearProgressProps) {
  const hasHeader = Boolean(label) || showValueText
  return (
    <Root value={value} {...rootProps}>
      {hasHeader && (
        <div className={header}>
          {label ? <Label>{label}</Label> : <span />}
          {showValueText && <ValueText>{valueText}</ValueText>}
        </div>
      )}
      <Track>
        <Range />
      </Track>
    </Root>
  )
}
