import { css } from 'styled-system/css'
import type { ActorRefFrom } from 'xstate'
import type { TrustAnalytics } from '../../../../contract/trust.ts'
import {
  TRUST_PERIODS,
  type trustAnalyticsMachine,
  trustAnalyticsView,
} from '../../../../machines/trust-analytics/index.ts'
import { useView } from '../../../app/use-view.ts'
import { RetryAlert } from '../../../components/row-actions.tsx'
import { dataTable, filterPill, filterPills, tableWrap } from '../../../components/styles.ts'
import { formatCalendarDay } from '../../../lib/format.ts'

type Metric = 'views' | 'requests' | 'approvals' | 'downloads'
const METRICS: { key: Metric; label: string }[] = [
  { key: 'views', label: 'Page views' },
  { key: 'requests', label: 'Requests' },
  { key: 'approvals', label: 'Approvals' },
  { key: 'downloads', label: 'Downloads' },
]

const tiles = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr 1fr', lg: 'repeat(4, minmax(0, 1fr))' },
  gap: '3',
})
const tile = css({
  p: '3',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l2',
  bg: 'bg.default',
  minW: '0',
})
const tileLabel = css({ textStyle: 'xs', color: 'fg.muted' })
const tileValue = css({ textStyle: '2xl', fontWeight: 'semibold', lineHeight: '1.2' })
const chart = css({ display: 'block', w: 'full', h: '14', mt: '2', color: 'colorPalette.default' })
const subheading = css({ textStyle: 'md', fontWeight: 'semibold', mb: '2' })
const empty = css({ color: 'fg.muted', textStyle: 'sm' })
const numberCell = css({ textAlign: 'right', fontVariantNumeric: 'tabular-nums' })
const barTrack = css({ h: '1.5', bg: 'gray.a3', borderRadius: 'full', mt: '1', maxW: '48' })
const barFill = css({ h: 'full', bg: 'colorPalette.default', borderRadius: 'full' })

/** One metric's days as bars: each bar titled with its day and count. */
function DayBars(props: { series: TrustAnalytics['series']; metric: Metric; label: string }) {
  const values = props.series.map((day) => day[props.metric])
  const top = Math.max(1, ...values)
  const width = 100 / Math.max(1, values.length)
  return (
    <svg
      className={chart}
      viewBox="0 0 100 40"
      preserveAspectRatio="none"
      role="img"
      aria-label={`${props.label} per day`}
    >
      {props.series.map((day, index) => {
        const height = (day[props.metric] / top) * 38
        return (
          <rect
            key={day.day}
            x={index * width + width * 0.15}
            y={40 - Math.max(height, day[props.metric] > 0 ? 1.5 : 0.4)}
            width={width * 0.7}
            height={Math.max(height, day[props.metric] > 0 ? 1.5 : 0.4)}
            fill="currentColor"
            opacity={day[props.metric] > 0 ? 1 : 0.25}
          >
            <title>{`${formatCalendarDay(day.day)}: ${day[props.metric]}`}</title>
          </rect>
        )
      })}
    </svg>
  )
}

/**
 * Settings → Trust centre, analytics (admins): the period's views, requests, approvals and
 * downloads per day, then per document and per company; renders the analytics machine.
 */
export function AnalyticsPanel(props: { actor: ActorRefFrom<typeof trustAnalyticsMachine> }) {
  const { actor } = props
  const view = useView(actor, trustAnalyticsView)
  const figures = view.analytics
  const topDownloads = Math.max(1, ...(figures?.documents.map((doc) => doc.downloads) ?? []))
  return (
    <div className={css({ display: 'grid', gap: '5' })}>
      <div className={filterPills} role="toolbar" aria-label="Period">
        {TRUST_PERIODS.map((days) => (
          <button
            key={days}
            type="button"
            className={filterPill}
            aria-pressed={view.days === days}
            onClick={() => actor.send({ type: 'period', days })}
          >
            {days === 365 ? 'A year' : `${days} days`}
          </button>
        ))}
      </div>
      {view.failed && (
        <RetryAlert error={view.error ?? ''} onRetry={() => actor.send({ type: 'retry' })} />
      )}
      {!figures ? (
        view.loading && <p className={empty}>Loading...</p>
      ) : (
        <>
          <div className={tiles} aria-busy={view.loading}>
            {METRICS.map((metric) => (
              <div key={metric.key} className={tile}>
                <div className={tileLabel}>{metric.label}</div>
                <div className={tileValue}>{figures.totals[metric.key].toLocaleString()}</div>
                <DayBars series={figures.series} metric={metric.key} label={metric.label} />
              </div>
            ))}
          </div>
          <div>
            <h4 className={subheading}>Downloads per document</h4>
            {figures.documents.length === 0 ? (
              <p className={empty}>No document was downloaded in this period.</p>
            ) : (
              <div className={tableWrap}>
                <table className={dataTable}>
                  <thead>
                    <tr>
                      <th>Document</th>
                      <th data-align="end">Downloads</th>
                      <th data-align="end">Readers</th>
                    </tr>
                  </thead>
                  <tbody>
                    {figures.documents.map((doc) => (
                      <tr key={doc.id}>
                        <td>
                          {doc.name}
                          <div className={barTrack} aria-hidden>
                            <div
                              className={barFill}
                              style={{ width: `${(doc.downloads / topDownloads) * 100}%` }}
                            />
                          </div>
                        </td>
                        <td className={numberCell}>{doc.downloads}</td>
                        <td className={numberCell}>{doc.readers}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </div>
          <div>
            <h4 className={subheading}>Per company</h4>
            {figures.companies.length === 0 ? (
              <p className={empty}>No company asked for access in this period.</p>
            ) : (
              <div className={tableWrap}>
                <table className={dataTable}>
                  <thead>
                    <tr>
                      <th>Company</th>
                      <th data-align="end">Requests</th>
                      <th data-align="end">Approvals</th>
                      <th data-align="end">Downloads</th>
                    </tr>
                  </thead>
                  <tbody>
                    {figures.companies.map((company) => (
                      <tr key={company.company}>
                        <td>{company.company}</td>
                        <td className={numberCell}>{company.requests}</td>
                        <td className={numberCell}>{company.approvals}</td>
                        <td className={numberCell}>{company.downloads}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </div>
        </>
      )}
    </div>
  )
}
