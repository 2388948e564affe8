import { render, screen } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { blocksOf, Markdown } from '../../src/components/markdown.tsx'

/** The operator's legal texts (issue 30) are Markdown, shown without any HTML of their own. */
describe('Markdown', () => {
  test('reads headings, paragraphs across lines, and bulleted and numbered lists', () => {
    expect(
      blocksOf(
        '# Terms\n\nFirst line\nsecond line.\n\n- one\n- two\n  continued\n\n1. first\n2) second',
      ),
    ).toEqual([
      { kind: 'heading', level: 1, text: 'Terms' },
      { kind: 'paragraph', text: 'First line second line.' },
      { kind: 'list', ordered: false, items: ['one', 'two continued'] },
      { kind: 'list', ordered: true, items: ['first', 'second'] },
    ])
  })

  test('renders links, bold and italics, and never a script link or raw HTML', () => {
    const { container } = render(
      <Markdown
        text={
          'Write to [us](mailto:legal@acme.example) or [see](https://acme.example). **Bold** and *soft*.\n\n[bad](javascript:alert(1)) <img src=x onerror=alert(1)>'
        }
      />,
    )
    expect(screen.getByRole('link', { name: 'us' }).getAttribute('href')).toBe(
      'mailto:legal@acme.example',
    )
    expect(screen.getByRole('link', { name: 'see' }).getAttribute('href')).toBe(
      'https://acme.example',
    )
    expect(container.querySelector('strong')?.textContent).toBe('Bold')
    expect(container.querySelector('em')?.textContent).toBe('soft')
    expect(screen.queryByRole('link', { name: 'bad' })).toBeNull()
    expect(container.querySelector('img')).toBeNull()
    expect(container.textContent).toContain('<img src=x onerror=alert(1)>')
  })
})
