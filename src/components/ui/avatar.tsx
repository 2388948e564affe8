import { Avatar } from '@ark-ui/react/avatar'
import type { ComponentProps } from 'react'
import { avatar } from 'styled-system/recipes'
import { createStyleContext } from './utils/create-style-context'

const { withProvider, withContext } = createStyleContext(avatar)

/** `size`: xs | sm | md | lg | xl | 2xl. */
export const Root = withProvider(Avatar.Root, 'root', 'Avatar.Root')
export const Image = withContext(Avatar.Image, 'image', 'Avatar.Image')
/** Shown until the image loads, and instead of it when it fails or there is none. */
export const Fallback = withContext(Avatar.Fallback, 'fallback', 'Avatar.Fallback')

export type RootProps = ComponentProps<typeof Root>

/** Up to two initials: first and last word of the name ("Jane van Doe" gives "JD"), or "?". */
export function getInitials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean)
  const first = words[0]
  if (!first) return '?'
  const last = words.length > 1 ? words[words.length - 1] : undefined
  // Array.from splits by code point, so a name starting with an astral character stays whole.
  const initial = (word: string) => Array.from(word)[0] ?? ''
  return (initial(first) + (last ? initial(last) : '')).toLocaleUpperCase()
}

export type InitialsAvatarProps = Omit<RootProps, 'children'> & {
  name: string
  /** A picture to show instead of the initials once it loads. */
  src?: string | undefined
}

/** An avatar that shows the person's initials, or their picture when `src` loads. */
export function InitialsAvatar({ name, src, ...rootProps }: InitialsAvatarProps) {
  const label = name.trim() || 'Unknown user'
  return (
    <Root role="img" aria-label={label} title={label} {...rootProps}>
      <Fallback aria-hidden>{getInitials(name)}</Fallback>
      {src && <Image src={src} alt="" />}
    </Root>
  )
}
