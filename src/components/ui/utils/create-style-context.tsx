import { createContext, type ReactNode, useContext } from 'react'
import { cx } from 'styled-system/css'

/**
 * The shape every Panda slot recipe in `styled-system/recipes` has: called with variant props it
 * returns one class name per slot, and it knows which of its props are variants.
 */
type SlotRecipe<Slot extends string, Variants extends object> = {
  (props?: Variants): Record<Slot, string>
  variantKeys: ReadonlyArray<keyof Variants>
}

/** Anything JSX can render with props `P`: function components and Ark's forwardRef parts. */
type Renderable<P> = (props: P) => ReactNode

type WithClassName = { className?: string | undefined }

/**
 * Binds a slot recipe to a family of Ark parts. The root computes the slot classes once from its
 * variant props and shares them through context, so `<Menu.Root size="sm">` styles every item
 * without each part repeating the variant.
 */
export function createStyleContext<Slot extends string, Variants extends object>(
  recipe: SlotRecipe<Slot, Variants>,
) {
  const StyleContext = createContext<Record<Slot, string> | null>(null)
  const variantKeys: ReadonlyArray<PropertyKey> = recipe.variantKeys

  /** Separates the recipe's variant props from the props the wrapped part receives. */
  function splitVariantProps<P extends object>(props: P & Variants): [Variants, P] {
    const variants: Record<string, unknown> = {}
    const rest: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(props)) {
      if (variantKeys.includes(key)) variants[key] = value
      else rest[key] = value
    }
    return [variants as Variants, rest as P]
  }

  /** Reads the slot classes of the nearest root; parts rendered outside a root stay unstyled. */
  function useSlotClass(slot: Slot): string | undefined {
    return useContext(StyleContext)?.[slot]
  }

  /** For roots that render no element of their own (Dialog.Root, Menu.Root, Tooltip.Root). */
  function withRootProvider<P extends object>(Component: Renderable<P>, displayName?: string) {
    function StyledRoot(props: P & Variants) {
      const [variants, rest] = splitVariantProps<P>(props)
      return (
        <StyleContext.Provider value={recipe(variants)}>
          <Component {...rest} />
        </StyleContext.Provider>
      )
    }
    StyledRoot.displayName = displayName ?? 'StyledRoot'
    return StyledRoot
  }

  /** For roots that render an element: it takes the `slot` class and provides the others. */
  function withProvider<P extends WithClassName>(
    Component: Renderable<P>,
    slot: Slot,
    displayName?: string,
  ) {
    function StyledProvider(props: P & Variants) {
      const [variants, ownProps] = splitVariantProps<P>(props)
      const slotClasses = recipe(variants)
      return (
        <StyleContext.Provider value={slotClasses}>
          <Component {...ownProps} className={cx(slotClasses[slot], ownProps.className)} />
        </StyleContext.Provider>
      )
    }
    StyledProvider.displayName = displayName ?? `Styled(${slot})`
    return StyledProvider
  }

  /** For every other part: it takes its `slot` class from the nearest root. */
  function withContext<P extends WithClassName>(
    Component: Renderable<P>,
    slot: Slot,
    displayName?: string,
  ) {
    function StyledPart(props: P) {
      const slotClass = useSlotClass(slot)
      return <Component {...props} className={cx(slotClass, props.className)} />
    }
    StyledPart.displayName = displayName ?? `Styled(${slot})`
    return StyledPart
  }

  return { withRootProvider, withProvider, withContext, useSlotClass, splitVariantProps }
}
