import { Outlet, useMatches, useRouterState } from '@tanstack/react-router'
import { useActorRef, useSelector } from '@xstate/react'
import { PanelLeft } from 'lucide-react'
import { useEffect } from 'react'
import { css, cx } from 'styled-system/css'
import { flex } from 'styled-system/patterns'
import { MOBILE_BREAKPOINT_PX, SIDEBAR_KEYBOARD_SHORTCUT } from '../../../machines/constants.ts'
import { selectSoonCount } from '../../../machines/my-work/index.ts'
import {
  selectExpanded,
  selectMobileOpen,
  sidebarMachine,
} from '../../../machines/sidebar/index.ts'
import { createInboxLogic } from '../../api/inbox-actors.ts'
import { Drawer, IconButton, Portal } from '../../components/ui'
import { MyWorkContext } from '../inbox.tsx'
import { PricingDialog } from '../pricing/pricing-dialog.tsx'
import { PricingContext, usePricing } from '../pricing/use-pricing.ts'
import { SupportDialog } from '../support/support-dialog.tsx'
import { useSupportTicket } from '../support/use-support-ticket.ts'
import { NotificationBell } from './notification-bell.tsx'
import { SidebarNav } from './sidebar.tsx'
import { readSidebarCookie, writeSidebarCookie } from './sidebar-cookie.ts'
import { UserMenu } from './user-menu.tsx'

const MOBILE_QUERY = `(max-width: ${MOBILE_BREAKPOINT_PX - 0.02}px)`

const shell = flex({ minH: '100dvh', bg: 'bg.canvas' })
const aside = css({
  position: 'sticky',
  top: '0',
  h: '100dvh',
  flexShrink: 0,
  borderRightWidth: '1px',
  borderColor: 'border.subtle',
  bg: 'bg.default',
  transition: 'width 160ms ease',
  overflow: 'hidden',
  hideBelow: 'md',
  w: 'sidebar',
  '&[data-state=collapsed]': { w: 'sidebarCollapsed' },
})
const main = flex({ direction: 'column', flex: '1', minW: '0' })
const topBar = flex({
  align: 'center',
  gap: '2',
  position: 'sticky',
  top: '0',
  zIndex: 'sticky',
  h: '14',
  px: { base: '3', md: '5' },
  borderBottomWidth: '1px',
  borderColor: 'border.subtle',
  bg: 'bg.default/90',
  backdropFilter: 'blur(8px)',
})
const title = css({
  flex: '1',
  minW: '0',
  textStyle: { base: 'md', md: 'lg' },
  fontWeight: 'semibold',
  color: 'fg.default',
  truncate: true,
})
const content = css({
  flex: '1',
  w: 'full',
  maxW: '7xl',
  mx: 'auto',
  px: { base: '4', md: '8' },
  py: { base: '5', md: '8' },
})
const drawerPositioner = css({ w: 'auto', justifyContent: 'flex-start' })
const drawerContent = flex({ direction: 'column', w: 'sidebarMobile' })

const inbox = createInboxLogic()

/** The authenticated layout: sidebar, top bar with the page title and user menu, the page. */
export function AppLayout() {
  const sidebar = useActorRef(sidebarMachine, {
    input: {
      expanded: readSidebarCookie(),
      isMobile: window.matchMedia(MOBILE_QUERY).matches,
    },
  })
  const notifications = useActorRef(inbox.notifications)
  const myWork = useActorRef(inbox.myWork)
  const workCounts = { '/my-work': useSelector(myWork, selectSoonCount) }
  const support = useSupportTicket()
  const pricing = usePricing()
  const openSupport = () => support.send({ type: 'open' })
  const askForFeature = () => support.send({ type: 'open', ticketType: 'Feature Request' })
  const expanded = useSelector(sidebar, selectExpanded)
  const mobileOpen = useSelector(sidebar, selectMobileOpen)
  const pathname = useRouterState({ select: (state) => state.location.pathname })
  const matches = useMatches()
  const pageTitle =
    [...matches].reverse().find((match) => match.staticData?.title)?.staticData?.title ?? 'Quire'

  useEffect(() => {
    const persist = sidebar.on('persist', (event) => writeSidebarCookie(event.expanded))
    const media = window.matchMedia(MOBILE_QUERY)
    const onViewport = () => sidebar.send({ type: 'viewport.change', isMobile: media.matches })
    media.addEventListener('change', onViewport)
    const onKey = (event: KeyboardEvent) => {
      if (
        event.key.toLowerCase() === SIDEBAR_KEYBOARD_SHORTCUT &&
        (event.ctrlKey || event.metaKey) &&
        !event.altKey &&
        !event.shiftKey
      ) {
        event.preventDefault()
        sidebar.send({ type: 'toggle' })
      }
    }
    window.addEventListener('keydown', onKey)
    // a new notification (an assignment, a review) may change what is mine
    const notified = notifications.on('notified', () => myWork.send({ type: 'refresh' }))
    return () => {
      notified.unsubscribe()
      persist.unsubscribe()
      media.removeEventListener('change', onViewport)
      window.removeEventListener('keydown', onKey)
    }
  }, [sidebar, notifications, myWork])

  useEffect(() => {
    document.title = pageTitle === 'Quire' ? 'Quire' : `${pageTitle} · Quire`
  }, [pageTitle])

  // a navigation closes the slide-over, and reads my work again (answers change it)
  useEffect(() => {
    if (!pathname) return
    sidebar.send({ type: 'navigate' })
    myWork.send({ type: 'refresh' })
  }, [pathname, sidebar, myWork])

  return (
    <div className={shell} data-sidebar={expanded ? 'expanded' : 'collapsed'}>
      <aside
        className={aside}
        data-testid="sidebar"
        data-state={expanded ? 'expanded' : 'collapsed'}
      >
        <SidebarNav compact={!expanded} onSupport={openSupport} counts={workCounts} />
      </aside>
      <Drawer.Root
        placement="start"
        open={mobileOpen}
        onOpenChange={(details) =>
          sidebar.send({ type: details.open ? 'mobile.open' : 'mobile.close' })
        }
      >
        <Portal>
          <Drawer.Backdrop />
          <Drawer.Positioner className={drawerPositioner}>
            <Drawer.Content
              className={drawerContent}
              data-testid="sidebar-mobile"
              aria-label="Navigation"
            >
              <SidebarNav
                compact={false}
                counts={workCounts}
                onNavigate={() => sidebar.send({ type: 'navigate' })}
                onSupport={() => {
                  sidebar.send({ type: 'navigate' })
                  openSupport()
                }}
              />
            </Drawer.Content>
          </Drawer.Positioner>
        </Portal>
      </Drawer.Root>
      <div className={main}>
        <header className={topBar}>
          <IconButton
            aria-label="Toggle sidebar"
            title="Toggle sidebar (Ctrl+B)"
            variant="ghost"
            size="sm"
            onClick={() => sidebar.send({ type: 'toggle' })}
          >
            <PanelLeft size={18} aria-hidden />
          </IconButton>
          <h1 className={cx(title)} data-testid="page-title">
            {pageTitle}
          </h1>
          <NotificationBell actor={notifications} />
          <UserMenu onAskForFeature={askForFeature} />
        </header>
        <main className={content} id="main">
          <PricingContext.Provider value={pricing}>
            <MyWorkContext.Provider value={myWork}>
              <Outlet />
            </MyWorkContext.Provider>
          </PricingContext.Provider>
        </main>
      </div>
      <SupportDialog actor={support} />
      <PricingDialog actor={pricing} />
    </div>
  )
}
