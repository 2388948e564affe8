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
  icon: LucideIcon
}

export const NAV_ITEMS: NavItem[] = [
  { to: '/', label: 'Home', icon: House },
  { to: '/my-work', label: 'My work', icon: ListTodo },
  { to: '/repository', label: 'Repository', icon: FolderOpen },
  { to: '/knowledge-base', label: 'Knowledge Base', icon: BookOpen },
  { to: '/questionnaires', label: 'Questionnaires', icon: ClipboardList },
  { to: '/chat', label: 'Chat', icon: MessagesSquare },
]
