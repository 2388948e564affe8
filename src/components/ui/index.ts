// Pages import UI only from here. Multi-part components are namespaces (`<Dialog.Root>`); their
// one-piece conveniences are also exported by name.

export { Portal, type PortalProps } from '@ark-ui/react/portal'
export * as Avatar from './avatar'
export { getInitials, InitialsAvatar, type InitialsAvatarProps } from './avatar'
export { Button, type ButtonProps } from './button'
export * as Dialog from './dialog'
export * as Drawer from './drawer'
export * as Field from './field'
export * as FileUpload from './file-upload'
export { ChooseButton, ChosenFiles, FilePicker } from './file-upload'
export { IconButton, type IconButtonProps } from './icon-button'
export { Input, type InputProps } from './input'
export * as Menu from './menu'
export { PasswordInput } from './password-input'
export * as Progress from './progress'
export { LinearProgress, type LinearProgressProps } from './progress'
export * as SegmentGroup from './segment-group'
export { PillSegments } from './segment-group'
export * as Select from './select'
export { type SelectOption, SimpleSelect } from './select'
export { Spinner, type SpinnerProps, spinnerRecipe } from './spinner'
export {
  ToastCard,
  type ToastCardProps,
  type ToastType,
  ToastViewport,
  type ToastViewportProps,
} from './toast'
export * as Tooltip from './tooltip'
export { SimpleTooltip, type SimpleTooltipProps } from './tooltip'
