import { defineConfig } from '@pandacss/dev'
import { createPreset } from '@park-ui/panda-preset'
import amber from '@park-ui/panda-preset/colors/amber'
import blue from '@park-ui/panda-preset/colors/blue'
import green from '@park-ui/panda-preset/colors/green'
import iris from '@park-ui/panda-preset/colors/iris'
import mauve from '@park-ui/panda-preset/colors/mauve'
import {
  SIDEBAR_WIDTH,
  SIDEBAR_WIDTH_COLLAPSED,
  SIDEBAR_WIDTH_MOBILE,
} from './machines/constants.ts'

// Iris on mauve: a calm blue-violet accent over warm-tinted grays, chosen so that status colours
// (green approved, amber pending, red failed) stay distinct from the brand colour.
const accentRef = (key: string) => ({ value: `{colors.iris.${key}}` })

export default defineConfig({
  preflight: true,
  presets: [createPreset({ accentColor: iris, grayColor: mauve, radius: 'md' })],
  include: ['./src/**/*.{ts,tsx}'],
  exclude: [],
  jsxFramework: 'react',
  outdir: 'styled-system',
  importMap: 'styled-system',
  globalFontface: {},
  globalCss: {
    html: {
      // globalCss merges one level deep: restate the preset's palette so colorPalette.* resolves
      colorPalette: 'iris',
      fontFamily: 'body',
      WebkitFontSmoothing: 'antialiased',
      MozOsxFontSmoothing: 'grayscale',
    },
    body: { bg: 'bg.canvas', color: 'fg.default', _dark: { colorScheme: 'dark' } },
    // search highlights in the theme's colour, never the browser's yellow (issue 30)
    mark: { bg: 'colorPalette.a4', color: 'inherit', borderRadius: 'l1', px: '0.5' },
  },
  // ui-kit fix 5: the UI kit calls these recipes with variants chosen at run time (and through a
  // style context Panda cannot follow), so every variant is generated up front.
  staticCss: {
    recipes: {
      avatar: ['*'],
      button: ['*'],
      dialog: ['*'],
      drawer: ['*'],
      field: ['*'],
      fileUpload: ['*'],
      input: ['*'],
      menu: ['*'],
      progress: ['*'],
      segmentGroup: ['*'],
      select: ['*'],
      toast: ['*'],
      tooltip: ['*'],
    },
  },
  theme: {
    extend: {
      tokens: {
        // status colours: green for ready and approved (red comes with the preset)
        colors: { green: green.tokens, amber: amber.tokens, blue: blue.tokens },
        fonts: {
          body: {
            value:
              "'Inter Variable', ui-sans-serif, system-ui, -apple-system, 'Segoe UI', sans-serif",
          },
          heading: {
            value:
              "'Inter Variable', ui-sans-serif, system-ui, -apple-system, 'Segoe UI', sans-serif",
          },
        },
        sizes: {
          // spec section 9: sidebar widths
          sidebar: { value: SIDEBAR_WIDTH },
          sidebarCollapsed: { value: SIDEBAR_WIDTH_COLLAPSED },
          sidebarMobile: { value: SIDEBAR_WIDTH_MOBILE },
        },
      },
      semanticTokens: {
        colors: {
          green: green.semanticTokens,
          amber: amber.semanticTokens,
          blue: blue.semanticTokens,
          // The preset's recipes use accent.* but never define it (ui-kit fix 1).
          accent: {
            default: accentRef('default'),
            emphasized: accentRef('emphasized'),
            fg: accentRef('fg'),
            text: accentRef('text'),
            a2: accentRef('a2'),
            a3: accentRef('a3'),
            a4: accentRef('a4'),
          },
        },
      },
      slotRecipes: {
        dialog: {
          // ui-kit fix 2: the preset's 384 px minimum overflows phones.
          base: {
            content: {
              minW: { base: 'auto', sm: 'sm' },
              w: { base: 'calc(100vw - 2rem)', sm: 'auto' },
            },
          },
        },
        drawer: {
          // The close trigger sits in the content's corner (ui-kit fix 4), so content anchors it.
          // The preset's 1fr column grows to its widest child (a long word, a row of buttons) and
          // pushes a phone-width drawer past the screen: the column may shrink instead.
          base: { content: { position: 'relative', gridTemplateColumns: 'minmax(0, 1fr)' } },
        },
        fileUpload: {
          // ui-kit: the preset's drop zone is a 20rem plain box and its rows are cards for
          // previews. Ours: a dashed zone as tall as its content that lights up while files are
          // dragged over it, and compact rows of name, size and remove.
          base: {
            root: { gap: '2' },
            label: { color: 'fg.default' },
            dropzone: {
              minHeight: 'auto',
              borderWidth: '2px',
              borderStyle: 'dashed',
              borderColor: 'border.default',
              borderRadius: 'xl',
              transition: 'background 0.15s, border-color 0.15s',
              _dragging: { borderColor: 'colorPalette.default', bg: 'colorPalette.a2' },
              _disabled: { opacity: 0.6 },
            },
            itemGroup: { gap: '1', listStyle: 'none' },
            item: {
              gridTemplateColumns: 'auto minmax(0, 1fr) auto auto',
              gridTemplateAreas: '"preview name size delete"',
              alignItems: 'center',
              p: '1',
              pl: '2',
              borderRadius: 'l2',
              borderWidth: '0',
              bg: 'gray.a2',
            },
            itemPreview: { color: 'fg.muted' },
            itemSizeText: { textStyle: 'xs' },
            itemDeleteTrigger: { alignSelf: 'center' },
          },
        },
        menu: {
          // The preset has a separator slot but no style for it, and md items set no icon gap.
          base: {
            separator: { borderColor: 'border.subtle', borderTopWidth: '1px', my: '1', mx: '1' },
            item: { gap: '2' },
          },
        },
        progress: {
          // The preset gives an indeterminate range (Ark sets no width) no motion: sweep it.
          base: {
            range: {
              _indeterminate: {
                width: 'full',
                animation: 'slide-in-left 1.2s ease-in-out infinite',
              },
            },
          },
        },
      },
    },
  },
})
