import { useNow } from '../app/clock.ts'
import { formatExact, formatRelative } from '../lib/format.ts'

/**
 * A time as people say it ("just now", "2 min ago"), kept true by the app's clock; the exact time
 * is its title.
 */
export function RelativeTime(props: { iso: string; prefix?: string; suffix?: string }) {
  const now = useNow()
  return (
    <span title={formatExact(props.iso)}>
      {props.prefix}
      {formatRelative(props.iso, now)}
      {props.suffix}
    </span>
  )
}
