/**
 * The one module that imports the graph library. `@xstate/graph` 3 is what the customer named; the
 * same code now ships in core as `xstate/graph`, so switching is a change to the line below.
 */
export {
  getAdjacencyMap,
  getShortestPaths,
  getSimplePaths,
  getStateNodes,
  type StatePath,
  type TraversalOptions,
} from '@xstate/graph'
