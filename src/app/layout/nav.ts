import {
  BookOpen,
  ClipboardList,
  FolderOpen,
  House,
  ListTodo,
  type LucideIcon,
  MessagesSquare,
} from 'lucide-react'

export interface NavItem {
  to: '/' | '/my-work' | '/repository' | '/knowledge-base' | '/questionnaires' | '/chat'
  /** The tooltip (spec section 2, 'Layout'). */
  label: string
  /** A shorter caption under the icon when the sidebar is expanded. */
  caption: string
  icon: LucideIcon
}

export const NAV_ITEMS: NavItem[] = [
  { to: '/', label: 'Home', caption: 'Home', icon: House },
  { to: '/my-work', label: 'My work', caption: 'My work', icon: ListTodo },
  { to: '/repository', label: 'Repository', caption: 'Files', icon: FolderOpen },
  { to: '/knowledge-base', label: 'Knowledge Base', caption: 'Library', icon: BookOpen },
  { to: '/questionnaires', label: 'Questionnaires', caption: 'Forms', icon: ClipboardList },
  { to: '/chat', label: 'Chat', caption: 'Chat', icon: MessagesSquare },
]
