/**
 * The few extension APIs Quire's extension calls (Chrome 116+), typed here rather than through
 * the whole of @types/chrome.
 */
declare namespace chrome {
  namespace runtime {
    const id: string
    function getURL(path: string): string
    interface Port {
      name: string
      postMessage(message: unknown): void
      disconnect(): void
      onDisconnect: { addListener(listener: (port: Port) => void): void }
      onMessage: { addListener(listener: (message: unknown, port: Port) => void): void }
    }
    function connect(info?: { name?: string }): Port
    const onConnect: { addListener(listener: (port: Port) => void): void }
    const onInstalled: { addListener(listener: () => void): void }
    const lastError: { message?: string } | undefined
  }
  namespace storage {
    interface Area {
      get(keys: string[] | string): Promise<Record<string, unknown>>
      set(items: Record<string, unknown>): Promise<void>
      remove(keys: string[] | string): Promise<void>
    }
    const local: Area
    const session: Area
    const onChanged: { addListener(listener: () => void): void }
  }
  namespace tabs {
    interface Tab {
      id?: number
      windowId?: number
      url?: string
      title?: string
      active?: boolean
    }
    function query(info: {
      active?: boolean
      currentWindow?: boolean
      lastFocusedWindow?: boolean
      url?: string | string[]
    }): Promise<Tab[]>
    function get(id: number): Promise<Tab>
    function create(info: { url: string }): Promise<Tab>
    function remove(id: number): Promise<void>
    function getCurrent(): Promise<Tab | undefined>
    const onUpdated: {
      addListener(
        listener: (tabId: number, change: { url?: string; status?: string }, tab: Tab) => void,
      ): void
      removeListener(
        listener: (tabId: number, change: { url?: string; status?: string }, tab: Tab) => void,
      ): void
    }
    const onActivated: {
      addListener(listener: (info: { tabId: number; windowId: number }) => void): void
      removeListener(listener: (info: { tabId: number; windowId: number }) => void): void
    }
  }
  namespace scripting {
    interface InjectionResult<T> {
      frameId: number
      result?: T
    }
    function executeScript<T>(injection: {
      target: { tabId: number; allFrames?: boolean }
      files?: string[]
      func?: (...args: never[]) => T
      args?: unknown[]
      world?: 'ISOLATED' | 'MAIN'
    }): Promise<InjectionResult<Awaited<T>>[]>
  }
  namespace permissions {
    function contains(permissions: { origins?: string[] }): Promise<boolean>
    function request(permissions: { origins?: string[] }): Promise<boolean>
  }
  namespace sidePanel {
    function open(options: { windowId?: number; tabId?: number }): Promise<void>
    function setPanelBehavior(behavior: { openPanelOnActionClick: boolean }): Promise<void>
  }
}
